"""Who ran a company's routes, and when: the facts a reader of a run asks for first.

``run_facts(game, action)`` is read just before a ``run_routes`` is processed:
the operating round as players name it ("OR 3.2": the stock-round turn, then the
operating round in it, as 18xx.games' round header counts them) and the
company's president at that moment (RULES.md: the president operates the
company). The replay (``engine.replay``) stores them on every run, so
``route18xx replay --json``, ``ReplayGame`` and the audit show the same words.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.engine.game.actions import RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.game.operating_round import OperatingRound


@dataclass(frozen=True)
class RunFacts:
    """The operating round of a run and its company's president (id and name)."""

    round: str | None = None
    president: int | None = None
    president_name: str | None = None


def run_facts(game: Game, action: RunRoutes) -> RunFacts:
    """The round label and president of ``action``'s company, before it is processed.

    A run by something that is not a corporation has no president: the facts
    are then empty rather than an error (the action itself is judged elsewhere).
    """
    if not game.is_corporation(action.entity):
        return RunFacts()
    rnd = game.round
    number = rnd.number if isinstance(rnd, OperatingRound) else 0
    president = game.corporation(action.entity).president
    player = game.player_or_none(president)
    return RunFacts(f"OR {game.turn}.{number}", president,
                    player.name if player is not None else None)


__all__ = ["RunFacts", "run_facts"]
