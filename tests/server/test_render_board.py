"""RenderBoard (issue 12): the service's picture is the command line's, byte for byte."""

from __future__ import annotations

from pathlib import Path

import grpc

from route18xx.server import cli
from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import LOGS_DIR
from tests.server.conftest import BASE_STATE_NAME, assert_invalid, real_state

LOG = LOGS_DIR / "129026.json"


def test_the_rpc_svg_equals_the_command_svg(stub: pb_grpc.RouteServiceStub, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert cli.main(["draw", "--game", str(LOG), "--action", "728", "--routes", "both",
                     "-o", str(out)]) == 0
    request = pb.RenderBoardRequest(game_log=LOG.read_text("utf-8"), action_id=728,
                                    routes_mode=pb.ROUTES_MODE_BOTH)
    answer = stub.RenderBoard(request, timeout=60)
    assert answer.svg == out.read_text("utf-8")
    assert "optimal − recorded: +¥20" in answer.svg


def test_a_state_with_given_routes(stub: pb_grpc.RouteServiceStub, tmp_path: Path) -> None:
    raw = real_state(BASE_STATE_NAME)
    state_file = tmp_path / "state.json"
    state_file.write_text(__import__("json").dumps(raw), "utf-8")
    out = tmp_path / "board.svg"
    assert cli.main(["draw", str(state_file), "--routes", "recorded", "-o", str(out)]) == 0
    request = pb.RenderBoardRequest(
        state=converters.state_to_proto(raw["state"]), routes_mode=pb.ROUTES_MODE_RECORDED,
        routes=converters.routes_to_proto(raw["reference"]["recorded_routes"]),
    )
    assert stub.RenderBoard(request, timeout=60).svg == out.read_text("utf-8")


def test_bad_input_is_invalid_argument(stub: pb_grpc.RouteServiceStub, channel: grpc.Channel) -> None:
    state = converters.state_to_proto(real_state(BASE_STATE_NAME)["state"])
    assert_invalid(
        lambda: stub.RenderBoard(pb.RenderBoardRequest(state=state, routes_mode=pb.ROUTES_MODE_BOTH),
                                 timeout=30),
        channel, "routes", "needs the recorded routes")
    assert_invalid(
        lambda: stub.RenderBoard(pb.RenderBoardRequest(state=state, routes_mode=42), timeout=30),  # type: ignore[arg-type]
        channel, "routes_mode", "unknown routes mode 42")
    assert_invalid(
        lambda: stub.RenderBoard(pb.RenderBoardRequest(game_log=LOG.read_text("utf-8"), action_id=727,
                                                       routes_mode=pb.ROUTES_MODE_RECORDED), timeout=30),
        channel, "action_id", "not a run_routes")
    assert_invalid(
        lambda: stub.RenderBoard(pb.RenderBoardRequest(), timeout=30), channel, "state", "is missing")
