"""1830's game end by the bank (1830 RULES.md §2.1, §11.2, §11.4).

"The bank of $12,000 ... when the bank cannot pay, the game ends at the end of the
current OR set"; broken in a stock round, the OR set that follows is played out
(18xx.games ``GAME_END_CHECK bank: :full_or``, "the next end of a complete OR
set"). The score is cash + every share at its market price + privates at face value.

The shared log 29133 never breaks the bank, so these tests take money out of the
bank at the start of a chosen round, one more than its lowest balance in that round:
money moves exactly as recorded (an 1830 bank that runs dry pays on from a negative
balance), only the bank now breaks inside that round. The log, cut at the end of the OR set that must be the
last, must then replay to a finished game whose scores are the 18xx.games engine's
own player values at that round end (``tests/data/1830/fixture_checkpoints.json``,
taken from the site's engine, not ours) — and the same log with the full bank must
not end there.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _checkpoints, _log

LOG = "29133"


def _round_ends() -> dict[str, int]:
    """Round label → the id of its last action (the site's checkpoints)."""
    return {s["label"]: s["after_action_id"] for s in _checkpoints(LOG)["snapshots"]}


@cache
def _bank_around_each_action() -> tuple[tuple[int, int, int], ...]:
    """(action id, bank cash before, after) for every action of the full replay."""
    seen: list[tuple[int, int, int]] = []
    before: list[int] = []

    def ahead(game: Any, action: Any) -> None:
        before.append(game.state.bank.cash)

    def behind(game: Any, action: Any) -> None:
        seen.append((game.state.last_action_id, before.pop() if before else game.state.bank.cash,
                     game.state.bank.cash))

    assert replay(_log(LOG), before_action=ahead, after_action=behind).scores_match
    return tuple(seen)


def _shortfall_breaking_in(previous_end: int, round_end: int) -> int:
    """What the bank must lose at the start of the round of actions (previous_end,
    round_end] to break inside it: one more than its lowest balance after an action of
    that round that paid out more than it took in."""
    return 1 + min(after for aid, ahead, after in _bank_around_each_action()
                   if previous_end < aid <= round_end and after < ahead)


def _cut(last_id: int) -> tuple[dict[str, Any], dict[str, int]]:
    """The log cut after ``last_id`` and the site's player values there, by player id."""
    log = copy.deepcopy(_log(LOG))
    log["actions"] = [a for a in log["actions"] if a["id"] <= last_id]
    snapshot = next(s for s in _checkpoints(LOG)["snapshots"] if s["after_action_id"] == last_id)
    ids = _checkpoints(LOG)["player_ids"]
    log["result"] = {pid: snapshot["players"][name]["value"] for pid, name in ids.items()}
    log["game_end_reason"] = "bank"
    return log, log["result"]


def _replay_with_bank(log: dict[str, Any], previous_end: int, shortfall: int) -> tuple[Any, list[int]]:
    """The replay with ``shortfall`` taken out of the bank before the first action after
    ``previous_end``; and the id of the action after which the bank was first broken."""
    taken: list[bool] = []
    broken_at: list[int] = []

    def smaller_bank(game: Any, action: Any) -> None:
        if not taken and action.id is not None and action.id > previous_end:
            taken.append(True)
            game.state.bank.cash -= shortfall

    def watch(game: Any, action: Any) -> None:
        if game.state.bank.broken and not broken_at:
            broken_at.append(game.state.last_action_id)

    return replay(log, before_action=smaller_bank, after_action=watch), broken_at


@pytest.mark.parametrize(
    "breaks_in, previous, last",
    [
        # broken in the first OR of a two-OR set: the second OR is still played
        ("end of Operating Round 3.1", "end of Stock Round 3", "end of Operating Round 3.2"),
        # broken in a stock round: the whole OR set that follows is played
        ("end of Stock Round 3", "end of Operating Round 2.2", "end of Operating Round 3.2"),
        # broken in the last OR of a set: the game ends with that OR
        ("end of Operating Round 2.2", "end of Operating Round 2.1", "end of Operating Round 2.2"),
    ],
)
def test_a_broken_bank_ends_the_game_at_the_end_of_the_or_set(
    breaks_in: str, previous: str, last: str
) -> None:
    ends = _round_ends()
    shortfall = _shortfall_breaking_in(ends[previous], ends[breaks_in])
    log, site_values = _cut(ends[last])
    result, broken_at = _replay_with_bank(log, ends[previous], shortfall)
    assert ends[previous] < broken_at[0] <= ends[breaks_in]  # the set-up: broken in that round
    assert result.errors == []
    assert result.completed and result.game.finished
    assert result.game.state.end_reason == "bank"
    assert result.game.state.bank.broken
    assert result.game.state.bank.cash == (
        _checkpoints(LOG)["snapshots"][list(ends).index(last)]["bank"] - shortfall
    )
    assert result.final_scores == {k: int(v) for k, v in site_values.items()} == result.recorded_result
    # the whole bank: the same cut log is a game still going on
    whole = replay(log)
    assert not whole.game.finished and not whole.game.state.bank.broken


def test_a_game_past_the_set_end_goes_no_further() -> None:
    """Broken in OR 3.1: the actions of stock round 4 are refused (the game is over)."""
    ends = _round_ends()
    shortfall = _shortfall_breaking_in(ends["end of Stock Round 3"], ends["end of Operating Round 3.1"])
    log, _ = _cut(ends["end of Stock Round 4"])
    result, _ = _replay_with_bank(log, ends["end of Stock Round 3"], shortfall)
    assert result.game.finished and result.game.state.end_reason == "bank"
    assert result.errors  # the first stock-round action after the end is reported
