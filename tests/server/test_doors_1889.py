"""1889 through the gRPC door (issue 36): a state with ``"title": "1889"`` is solved,
validated, suggested and drawn by the service as by the command line.

The state: the Awa Railroad's D from Tokushima K8 (tile 57, ¥20) to Naruto L7, which pays a D
its diesel value ¥80 (g_1889/map.rb ``yellow_20|brown_40|diesel_80``): ¥100; a 6-train there
earns the phase's brown ¥40: ¥60.
"""

from __future__ import annotations

from typing import Any

from route18xx.server.convert.converters import state_to_proto
from route18xx.v1 import route_service_pb2 as pb

STATE: dict[str, Any] = {
    "title": "1889", "rule_set": "standard", "phase": "D", "corporation": "AR", "trains": ["D"],
    "tiles": [{"hex": "K8", "tile": "57", "rotation": 1}],
    "tokens": [{"hex": "K8", "city": 0, "corporation": "AR"}],
}


def test_solve_and_validate_price_a_d_at_the_diesel_value(stub: Any) -> None:
    solved = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto(STATE)), timeout=60)
    assert solved.proven_optimal and solved.revenue == 100
    (route,) = solved.routes
    assert list(route.nodes) == ["K8-0", "L7-0"]
    six = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto({**STATE, "trains": ["6"]})),
                           timeout=60)
    assert six.revenue == 60
    checked = stub.ValidateRoutes(pb.ValidateRoutesRequest(
        state=state_to_proto(STATE),
        routes=[pb.Route(train="D-0", connections=[pb.Connection(hexes=["K8", "L7"])])]), timeout=60)
    assert checked.legal and checked.revenue == 100


def test_suggestions_and_the_picture(stub: Any) -> None:
    """TR at home in Kouchi F9 with no cash and the Sumitomo Mines: the mountain hexes F7 and
    G8 (¥80 each) are free to lay on; the picture is of the flat-topped map."""
    state = {"title": "1889", "rule_set": "standard", "phase": "3", "corporation": "TR",
             "trains": ["3"], "tokens": [{"hex": "F9", "city": 0, "corporation": "TR"}],
             "cash": 0, "privates": ["SMR"]}
    found = stub.SuggestMoves(pb.SuggestMovesRequest(state=state_to_proto(state), top=100), timeout=60)
    assert {s.hex for s in found.suggestions} == {"E8", "F7", "G8", "G10"}
    picture = stub.RenderBoard(pb.RenderBoardRequest(state=state_to_proto(STATE)), timeout=60)
    assert 'data-hex="K8"' in picture.svg and "D80" in picture.svg


def test_a_1889_log_replays_through_the_door(stub: Any) -> None:
    """1889 is played at game level (issue 36 item 3): ReplayGame replays the fixture log 962
    to its recorded result, its 48 kept runs legal (tests/game/test_replay_1889.py)."""
    from pathlib import Path

    import pytest

    path = Path(__file__).resolve().parent.parent / "data" / "1889" / "962.json"
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=path.read_text("utf-8"), skip_solve=True),
                               timeout=120)
    assert response.scores_match and len(response.runs) == 48
    assert all(run.recorded_legal for run in response.runs)
