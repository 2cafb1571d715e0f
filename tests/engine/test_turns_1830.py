"""The page's moves panel and whole-turn ranking answer at every run turn of the shared
1830 logs (issue 33: ``SuggestMoves`` failed as INTERNAL on 13 of 99 turns of a real
1830 game, reading the recorded lays' tiles from 1888's data).

At each turn where a company ran its trains: the board at the turn's first action, the
moves ranked on it, what the player did (``recorded_turn``, the panel's "what you did")
and the whole turn ranked from the log (``suggest_turn``). A sample of the turns in
``make test``; ``ROUTE18XX_1830_TURNS_ALL=1`` every one (both logs: 133 turns).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from route18xx.engine import api
from tests.conftest import STATES_DIR

LOGS = STATES_DIR.parent / "1830"
EVERY = os.environ.get("ROUTE18XX_1830_TURNS_ALL") == "1"


def _turns(name: str) -> list[tuple[str, int]]:
    log = json.loads((LOGS / f"{name}.json").read_text())
    report = api.replay_game(log, solve=False).to_json()
    starts = sorted({run["turn_start_action_id"] for run in report["run_routes"]
                     if run.get("turn_start_action_id") is not None})
    return [(name, start) for start in (starts if EVERY else starts[::8])]


CASES = _turns("26855") + _turns("29133")


@pytest.mark.parametrize("name, action", CASES, ids=[f"{n}-{a}" for n, a in CASES])
def test_moves_what_the_player_did_and_the_whole_turn_answer(name: str, action: int) -> None:
    log: dict[str, Any] = json.loads((LOGS / f"{name}.json").read_text())
    state = api.state_from_log(log, action)
    assert state.title.name == "1830"
    moves = api.suggest_moves(state, top=3, include_tokens=True, time_limit_s=10.0)
    recorded = api.recorded_turn(log, action, state, moves.base_income, time_limit_s=10.0)
    assert recorded.income is None or recorded.income >= 0
    for move in recorded.moves:  # each recorded lay's tile read from 1830's own tiles
        for lay in move.lays:
            assert lay.tile in state.data.tiles
    turn = api.suggest_turn(None, game_log=log, action_id=action, top=2, time_limit_s=20.0)
    assert turn.to_json()["plans"] or turn.to_json().get("unranked") is not None
