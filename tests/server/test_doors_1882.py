"""1882 through the gRPC door (issue 36): a state with ``"title": "1882"`` is solved,
validated, suggested and drawn by the service as by the command line.

The state: the real board before the SC's run at action 478 of the shared log 5585. Its
6-train runs Hudson Bay B12 ($50) – Humboldt G9 – Moose Jaw J8 – Swift Current I5 – Medicine
Hat K3 ($30 each) – Western Canada I1 ($80), $250, and earns the Hudson Bay bonus, $100: $350
(g_1882/game.rb ``revenue_for``), through Humboldt and Swift Current, each full with one
company's token and a neutral CN station, which do not block.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import grpc

from route18xx.server.convert.converters import state_to_proto
from route18xx.v1 import route_service_pb2 as pb

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1882" / "verdicts.json.gz"
STATE: dict[str, Any] = next(
    r["state"] for f in json.loads(gzip.decompress(GOLDEN.read_bytes()))["fixtures"]
    if f["fixture"] == "5585" for r in f["runs"] if r["action_id"] == 478)
RUN = [["B12", "D12", "E11", "F10", "G9"], ["G9", "H8", "J8"], ["J8", "K7", "J6", "I5"],
       ["I5", "J4", "K3"], ["K3", "J2", "I1"]]


def test_solve_and_validate_add_the_hudson_bay_bonus(stub: Any) -> None:
    solved = stub.SolveRoutes(pb.SolveRoutesRequest(state=state_to_proto(STATE)), timeout=60)
    assert solved.proven_optimal and solved.revenue == 350
    checked = stub.ValidateRoutes(pb.ValidateRoutesRequest(
        state=state_to_proto(STATE),
        routes=[pb.Route(train="6-0", connections=[pb.Connection(hexes=c) for c in RUN])]), timeout=60)
    assert checked.legal and checked.revenue == 350


def test_suggestions_and_the_picture(stub: Any) -> None:
    """QLL at home in Pile o' Bones J10 after one yellow lay: a second lay costs $20 more."""
    state = {"title": "1882", "rule_set": "standard", "phase": "2", "corporation": "QLL",
             "trains": ["2"], "tiles": [{"hex": "I11", "tile": "2", "rotation": 0}],
             "tokens": [{"hex": "J10", "city": 1, "corporation": "QLL"}], "cash": 200,
             "tiles_laid": [{"hex": "I11"}]}
    found = stub.SuggestMoves(pb.SuggestMovesRequest(state=state_to_proto(state), top=100), timeout=60)
    assert found.suggestions and all(s.cost == 20 for s in found.suggestions)
    picture = stub.RenderBoard(pb.RenderBoardRequest(state=state_to_proto(STATE)), timeout=60)
    assert 'data-hex="B12"' in picture.svg and 'data-layout="flat"' in picture.svg


def test_a_1882_log_is_refused_as_not_replayed(stub: Any) -> None:
    log = {"id": 1, "title": "1882", "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                                                 {"id": 3, "name": "c"}],
           "actions": [], "settings": {"optional_rules": []}}
    try:
        stub.ReplayGame(pb.ReplayGameRequest(game_log=json.dumps(log)), timeout=60)
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "special NWR" in (err.details() or "") and "route level only" in (err.details() or "")
    else:
        raise AssertionError("a 1882 log must be refused")
