"""The train market at a moment of a game log, for train advice (issue 24, RULES.md §6.9).

A state file does not say which trains the depot sells or what other companies
own; a game log does. ``market_before`` replays the log up to the action (the
state itself comes from ``engine.api.state_from_log``, which checks the log and
the action) and reads the game's own answers: ``depot_trains`` (the next train
in depot order, the discard pile, a type the dated rules sell early) and every
train of every other corporation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from route18xx.engine.deadline import CancelSignal
from route18xx.engine.turn.train_advice import TrainMarket


def market_before(
    log: Mapping[str, Any], action_id: int, corporation: str, *,
    cancel: CancelSignal | None = None, rules_as_of: Any = None,
) -> TrainMarket:
    """The trains ``corporation`` may buy just before ``action_id`` (the game's own lists)."""
    from route18xx.engine.game.depot import train_name
    from route18xx.engine.game.trains import depot_trains
    from route18xx.engine.replay.replay import replay

    result = replay(log, stop_before=action_id, cancel=cancel, rules_as_of=rules_as_of)
    game = result.game
    depot = tuple(train_name(t) for t in depot_trains(game))
    others = tuple(
        (corp.sym, train_name(t))
        for corp in sorted(game.corporations.values(), key=lambda c: c.sym)
        if corp.sym != corporation
        for t in corp.trains
    )
    return TrainMarket(depot, others, True)
