"""18Chesapeake through the gRPC door (issue 36): a state with ``"title": "18Chesapeake"`` is
solved, validated, suggested and drawn by the service as by the command line.

The state: the N&W's 3-train at home in Lynchburg C13 (tile 15, $30), which reaches both
hexes of West Virginia Coal (A13 over B12, B14 directly; green $50 each). One route stops at
one hex of the area (18xx.games ``route.rb`` "Cannot use group ... more than once"): $80.
"""

from __future__ import annotations

import json
from typing import Any

import grpc

from route18xx.server.convert.converters import state_to_proto
from route18xx.v1 import route_service_pb2 as pb

STATE: dict[str, Any] = {
    "title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "N&W",
    "trains": ["3"],
    "tiles": [{"hex": "C13", "tile": "15", "rotation": 1}, {"hex": "B12", "tile": "8", "rotation": 5}],
    "tokens": [{"hex": "C13", "city": 0, "corporation": "N&W"}],
}


def test_solve_and_validate_take_one_hex_of_an_area(stub: Any) -> None:
    solved = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto(STATE)), timeout=60)
    assert solved.proven_optimal and solved.revenue == 80
    two = stub.SolveRoutes(pb.SolveRoutesRequest(
        state=state_to_proto({**STATE, "trains": ["3", "3"]})), timeout=60)
    assert two.revenue == 160
    checked = stub.ValidateRoutes(pb.ValidateRoutesRequest(
        state=state_to_proto(STATE),
        routes=[pb.Route(train="3-0", connections=[pb.Connection(hexes=["A13", "B12", "C13"]),
                                                   pb.Connection(hexes=["C13", "B14"])])]),
        timeout=60)
    assert not checked.legal and "West Virginia Coal" in checked.violations[0]


def test_suggestions_and_the_picture(stub: Any) -> None:
    """The C-P's two tiles on H2 and I3 are one move (laid together, joined)."""
    state = {"title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "SRR",
             "trains": ["3"], "tiles": [{"hex": "H4", "tile": "57", "rotation": 0}],
             "tokens": [{"hex": "H4", "city": 0, "corporation": "SRR"}],
             "privates": ["C-P"], "cash": 100}
    found = stub.SuggestMoves(pb.SuggestMovesRequest(state=state_to_proto(state), top=100), timeout=60)
    pairs = [s for s in found.suggestions if s.private == "C-P"]
    assert pairs and all([lay.hex for lay in s.lays] == ["H2", "I3"] for s in pairs)
    picture = stub.RenderBoard(pb.RenderBoardRequest(state=state_to_proto(STATE)), timeout=60)
    assert 'data-hex="B14"' in picture.svg and 'data-layout="flat"' in picture.svg


def test_an_18chesapeake_log_is_refused_as_not_replayed(stub: Any) -> None:
    log = {"id": 1, "title": "18Chesapeake", "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                                                         {"id": 3, "name": "c"}],
           "actions": [], "settings": {"optional_rules": []}}
    try:
        stub.ReplayGame(pb.ReplayGameRequest(game_log=json.dumps(log)), timeout=60)
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "route level only" in (err.details() or "")
    else:
        raise AssertionError("an 18Chesapeake log must be refused")
