"""``State.player_owned_blockers`` over gRPC (issue 25 item 2): the state file's
``player_owned_blockers``, any title; ``heng_shan_player_owned`` stays as 1888's alias."""

from __future__ import annotations

from typing import Any

import grpc

from route18xx.server.convert.converters import state_from_proto, state_to_proto
from route18xx.v1 import route_service_pb2 as pb

#: 1830: PRR at Altoona (H12) with a curve 8 on H14 (edges 1 and 3) reaches G15, which
#: SV blocks while a player owns it (1830 RULES.md §14, map.json ``blocked_by_company``).
STATE: dict[str, Any] = {
    "title": "1830", "rule_set": "standard", "phase": "3", "corporation": "PRR",
    "trains": ["3"], "tiles": [{"hex": "H14", "tile": "8", "rotation": 1}],
    "tokens": [{"hex": "H12", "city": 0, "corporation": "PRR"}],
    "cash": 1000,
}


def test_the_field_round_trips_and_is_left_out_when_empty() -> None:
    msg = state_to_proto({**STATE, "player_owned_blockers": ["SV", "CS"]})
    assert list(msg.player_owned_blockers) == ["SV", "CS"]
    assert state_from_proto(msg)["player_owned_blockers"] == ["SV", "CS"]
    assert "player_owned_blockers" not in state_from_proto(state_to_proto(STATE))
    old = state_to_proto({**STATE, "title": "1888", "heng_shan_player_owned": True})
    assert state_from_proto(old)["heng_shan_player_owned"] is True


def _hexes(stub: Any, blockers: list[str]) -> set[str]:
    state = state_to_proto({**STATE, "player_owned_blockers": blockers})
    response = stub.SuggestMoves(pb.SuggestMovesRequest(state=state, top=500), timeout=60)
    return {s.hex for s in response.suggestions}


def test_suggestions_over_grpc_close_only_the_named_blockers_hexes(stub: Any) -> None:
    assert "G15" in _hexes(stub, ["CS"])  # CS closes B20, not G15
    assert "G15" not in _hexes(stub, ["SV"])


def test_a_private_of_another_title_is_invalid_argument(stub: Any) -> None:
    state = state_to_proto({**STATE, "player_owned_blockers": ["HS"]})
    try:
        stub.SuggestMoves(pb.SuggestMovesRequest(state=state), timeout=30)
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "player_owned_blockers[0]" in (err.details() or "")
    else:
        raise AssertionError("HS is no 1830 private: the call must be refused")
