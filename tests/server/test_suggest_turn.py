"""SuggestTurn through the service (issue 24): gRPC and Connect JSON answer what the
engine answers; the best plan's ``state_after`` is a board RenderBoard draws and
SolveRoutes solves to the plan's income (what a page needs); bad input is
INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Iterator

import grpc
import pytest
from google.protobuf import json_format

from route18xx.engine import api
from route18xx.server.convert import turn_converters
from route18xx.server.rpc.app import RouteServer
from route18xx.server.convert.converters import LogSource
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import LOGS_DIR

SERVICE = "/route18xx.v1.RouteService"
LOG = json.loads((LOGS_DIR / "129026.json").read_text("utf-8"))
TURN_START = 292  # JHR's turn, phase 4: lays and tokens to place


@pytest.fixture(scope="module")
def stub(http_server: RouteServer) -> Iterator[pb_grpc.RouteServiceStub]:
    with grpc.insecure_channel(http_server.target) as channel:
        yield pb_grpc.RouteServiceStub(channel)


def _stable(report: dict[str, Any]) -> dict[str, Any]:
    out = dict(report)
    out.pop("elapsed_ms")
    return out


def test_grpc_answers_what_the_engine_answers(stub: pb_grpc.RouteServiceStub) -> None:
    request = turn_converters.turn_request_to_proto(LogSource(LOG, TURN_START), top=3)
    remote = turn_converters.turn_report_from_proto(stub.SuggestTurn(request, timeout=60))
    local = api.suggest_turn(None, game_log=LOG, action_id=TURN_START, top=3)
    assert [p.plan for p in remote.plans] == [p.plan for p in local.plans]
    assert _stable(remote.to_json())["plans"][0]["routes"] == local.to_json()["plans"][0]["routes"]
    assert [p.income for p in remote.plans] == [p.income for p in local.plans]
    assert [t.to_json() for t in remote.train_advice.options] == [
        t.to_json() for t in local.train_advice.options]
    assert remote.train_advice.market_known and remote.train_advice.options
    assert remote.plans[0].proven_optimal


def test_the_page_can_draw_and_solve_the_board_after_the_best_plan(
    http_server: RouteServer, stub: pb_grpc.RouteServiceStub,
) -> None:
    """Connect JSON: SuggestTurn, then RenderBoard and SolveRoutes on ``stateAfter``."""
    body = {"gameLog": json.dumps(LOG), "actionId": TURN_START, "top": 1}
    answer = _post(http_server, "SuggestTurn", body)
    best = answer["plans"][0]
    state_after = best["stateAfter"]
    solved = _post(http_server, "SolveRoutes", {"state": state_after})
    assert solved["revenue"] + solved.get("subsidy", 0) == best["income"]
    svg = _post(http_server, "RenderBoard", {"state": state_after, "routesMode": "ROUTES_MODE_OPTIMAL"})
    assert svg["svg"].startswith("<") and "</svg>" in svg["svg"]
    for lay in best["plan"].get("lays", []):
        assert {"hex": lay["hex"], "tile": lay["tile"], "rotation": lay.get("rotation", 0)} in [
            {"hex": t["hex"], "tile": t["tile"], "rotation": t.get("rotation", 0)}
            for t in state_after["tiles"]]
    assert answer["trains"]["options"] and answer["trains"]["rules"]


def test_bad_requests_name_the_field(stub: pb_grpc.RouteServiceStub) -> None:
    state = json_format.ParseDict(
        {"title": "1888", "rule_set": "north", "phase": "4", "corporation": "JHR", "trains": ["3"]},
        pb.State())
    for request, field in (
        (pb.SuggestTurnRequest(state=state, top=0), "top"),
        (pb.SuggestTurnRequest(state=state, depot=["9"]), "depot[0]"),
        (pb.SuggestTurnRequest(game_log=json.dumps(LOG), action_id=TURN_START, depot=["4"]),
         "depot"),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            stub.SuggestTurn(request, timeout=30)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.details().startswith(field), caught.value.details()


def _post(server: RouteServer, method: str, body: Any) -> Any:
    request = urllib.request.Request(
        f"{server.http_url}{SERVICE}/{method}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def test_route_client_and_call_suggest_turn(http_server: RouteServer, tmp_path: Any, capsys: Any) -> None:
    """``RouteClient.suggest_turn`` rebuilds the engine's report; ``route18xx call suggest
    --turn`` prints what the local ``suggest --turn`` prints (timing aside); bad input
    exits 2 naming the field, an RPC error 1 with the status name."""
    from route18xx.server.cli import main
    from route18xx.server.commands.client import RouteClient

    with RouteClient(http_server.target) as client:
        remote = client.suggest_turn(LogSource(LOG, TURN_START), top=2, trains=False,
                                     timeout_s=60)
    local = api.suggest_turn(None, game_log=LOG, action_id=TURN_START, top=2, trains=False)
    assert _stable(remote.to_json()) == _stable(local.to_json())
    game = tmp_path / "game.json"
    game.write_text(json.dumps(LOG), "utf-8")
    args = ["--turn", "--game", str(game), "--action", str(TURN_START), "--top", "2", "--json"]
    assert main(["suggest", *args]) == 0
    printed_local = json.loads(capsys.readouterr().out)
    assert main(["call", "suggest", *args, "--target", http_server.target]) == 0
    printed_remote = json.loads(capsys.readouterr().out)
    assert _stable(printed_remote) == _stable(printed_local)
    assert printed_remote["trains"]["options"]  # train advice by default
    assert main(["call", "suggest", "--turn", "--game", str(game), "--action", "99999",
                 "--target", http_server.target]) == 1
    assert capsys.readouterr().err.startswith("INVALID_ARGUMENT: action_id")
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"title": "1888", "rule_set": "north", "phase": "4",
                                 "corporation": "JHR", "trains": ["3"], "depot": ["9"]}), "utf-8")
    assert main(["call", "suggest", "--turn", str(state), "--target", http_server.target]) == 1
    assert capsys.readouterr().err.startswith("INVALID_ARGUMENT: depot[0]")
