"""1856 through the gRPC door (issue 36): a state with ``"title": "1856"`` is solved,
validated, suggested and drawn by the service as by the command line, its ``assignments`` and
``hex_bonuses`` carried by the ``State`` message.

The state: the real board before LPS's run at action 67 of the shared log
1856_game_end_bank: two 2-trains from Maudaumin C14 ($20), which holds LPS's port marker, to
Sarnia B13 (yellow $30): 2 × ($50 + the port's $20) = $140; with the tunnel right, $10 more
for Sarnia on each route: $160.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import grpc

from route18xx.server.convert.converters import state_from_proto, state_to_proto
from route18xx.v1 import route_service_pb2 as pb

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1856" / "verdicts.json.gz"
STATE: dict[str, Any] = {k: v for k, v in next(
    r["state"] for f in json.loads(gzip.decompress(GOLDEN.read_bytes()))["fixtures"]
    if f["fixture"] == "1856_game_end_bank" for r in f["runs"] if r["action_id"] == 67).items()
    if k not in ("train_ids",)}


def test_the_markers_cross_the_wire() -> None:
    tunnel = {**STATE, "hex_bonuses": [{"hexes": ["B13"], "value": 10}]}
    back = state_from_proto(state_to_proto(tunnel))
    assert back["assignments"] == [{"assignment": "GLSC", "hex": "C14"},
                                   {"assignment": "GLSC", "corporation": "LPS"}]
    assert back["hex_bonuses"] == [{"hexes": ["B13"], "value": 10}]


def test_solve_and_validate_add_the_port_and_the_tunnel(stub: Any) -> None:
    solved = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto(STATE)), timeout=60)
    assert solved.proven_optimal and solved.revenue == 140
    tunnel = {**STATE, "hex_bonuses": [{"hexes": ["B13"], "value": 10}]}
    solved = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto(tunnel)), timeout=60)
    assert solved.revenue == 160
    checked = stub.ValidateRoutes(pb.ValidateRoutesRequest(
        state=state_to_proto(STATE),
        routes=[pb.Route(train=r.train, connections=r.connections) for r in solved.routes]), timeout=60)
    assert checked.legal and checked.revenue == 140


def test_suggestions_and_the_picture(stub: Any) -> None:
    fresh = {**STATE, "tiles_laid": []}  # before LPS's lay of this turn
    found = stub.SuggestMoves(pb.SuggestMovesRequest(state=state_to_proto(fresh), top=5), timeout=60)
    assert found.suggestions and found.base_income == 140
    picture = stub.RenderBoard(pb.RenderBoardRequest(state=state_to_proto(STATE)), timeout=60)
    assert 'data-hex="C14"' in picture.svg and 'data-layout="flat"' in picture.svg


def test_a_1856_log_is_refused_as_not_replayed(stub: Any) -> None:
    log = {"id": 1, "title": "1856", "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                                                 {"id": 3, "name": "c"}],
           "actions": [], "settings": {"optional_rules": []}}
    try:
        stub.ReplayGame(pb.ReplayGameRequest(game_log=json.dumps(log)), timeout=60)
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "cash crisis" in (err.details() or "") and "route level only" in (err.details() or "")
    else:
        raise AssertionError("a 1856 log must be refused")
