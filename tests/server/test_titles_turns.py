"""Issue 36: a whole turn (SuggestTurn) is answered for every route-level title, on real
boards: the income of making no move is the optimum the 18xx.games engine accepted for that
board (the committed golden verdicts), and the turn's plans are ranked from it.

The boards are the golden states (``tests/data/golden/<title>/verdicts.json.gz``), the board
before a recorded ``run_routes`` as the 18xx.games engine held it; the expected figure is
the engine's verdict on our optimum, not our own answer.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.convert.converters import state_to_proto
from route18xx.v1 import route_service_pb2 as pb

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
TITLES = ("1889", "18Chesapeake", "1882", "1856")


def _boards(title: str, count: int = 2) -> list[tuple[str, dict[str, Any], int]]:
    """``count`` real boards of ``title`` spread over its first log, each with the revenue the
    engine accepted for our optimum (lone- and two-train companies: a turn solves many
    boards)."""
    data = json.loads(gzip.decompress((GOLDEN / title / "verdicts.json.gz").read_bytes()))
    fixture = data["fixtures"][0]
    runs = [r for r in fixture["runs"] if len(r["state"]["trains"]) <= 2
            and r["optimum"]["total"]["verdict"].get("accepted")]
    picked = [runs[len(runs) * (i + 1) // (count + 1)] for i in range(count)]
    return [(f"{fixture['fixture']}#{r['action_id']}", r["state"],
             r["optimum"]["total"]["verdict"]["revenue"]) for r in picked]


CASES = [(title, *board) for title in TITLES for board in _boards(title)]


@pytest.mark.parametrize(("title", "name", "state", "accepted"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_whole_turn_is_planned_from_the_engines_optimum(
        stub: Any, title: str, name: str, state: dict[str, Any], accepted: int) -> None:
    answer = stub.SuggestTurn(pb.SuggestTurnRequest(state=state_to_proto(state), top=3,
                                                    time_limit_s=30), timeout=120)
    assert answer.corporation == state["corporation"]
    assert answer.base_proven_optimal and answer.base_income == accepted, (
        name, answer.base_income, accepted)
    assert answer.plans, name
    assert answer.currency_format
