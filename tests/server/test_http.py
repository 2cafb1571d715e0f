"""The RouteService over HTTP (issue 13): Connect JSON and gRPC-Web answer as gRPC does.

One server process-internal instance serves gRPC and HTTP from the same lanes;
the tests call both and compare. JSON requests are plain HTTP POSTs (what a
browser's ``fetch`` sends); gRPC-Web goes through connect-python's client.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterator

import grpc
import pytest
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format

from route18xx.server.convert import converters, suggest_converters
from route18xx.server.rpc.app import RouteServer, ServerConfig
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.v1.route_service_connect import RouteServiceClientSync
from tests.conftest import load_json, state_files
from tests.route_server import started_server

ALLOWED_ORIGIN = "https://client.example"
SERVICE = "/route18xx.v1.RouteService"
SAMPLE = [load_json(p) for p in state_files()[::20]]


@pytest.fixture(scope="module")
def both() -> Iterator[RouteServer]:
    with started_server(ServerConfig(
        port=0, workers=2, http_port=0, cors_origins=(ALLOWED_ORIGIN,)
    )) as srv:
        yield srv


@pytest.fixture(scope="module")
def grpc_stub(both: RouteServer) -> Iterator[pb_grpc.RouteServiceStub]:
    with grpc.insecure_channel(both.target) as channel:
        yield pb_grpc.RouteServiceStub(channel)


def post_json(url: str, body: Any, headers: dict[str, str] | None = None
              ) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def post_json_raw(url: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    """``post_json`` over a bare socket that still reads the answer when the server
    answers before it has read the whole body (a deadline that ends during the upload):
    the server then closes the connection, the rest of the upload fails with a broken
    pipe or a reset, and the answer already sent waits in the socket to be read
    (urllib gives up at the failed write)."""
    parsed = urllib.parse.urlsplit(url)
    data = json.dumps(body).encode()
    head = (f"POST {parsed.path} HTTP/1.1\r\nHost: {parsed.netloc}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "Connection: close\r\n\r\n")
    received = b""
    assert parsed.hostname is not None and parsed.port is not None
    with socket.create_connection((parsed.hostname, parsed.port), timeout=30) as conn:
        try:
            conn.sendall(head.encode() + data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered early: the answer is read below
        while True:  # until the server closes (``Connection: close``) or resets
            try:
                chunk = conn.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    answer_head, _, payload = received.partition(b"\r\n\r\n")
    lines = answer_head.split(b"\r\n")
    if b"transfer-encoding: chunked" in (line.lower() for line in lines):
        payload = _unchunked(payload)
    return int(lines[0].split()[1]), json.loads(payload)


def _unchunked(payload: bytes) -> bytes:
    """An HTTP/1.1 chunked body's bytes."""
    out = b""
    while payload:
        size_line, _, payload = payload.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, payload = out + payload[:size], payload[size + 2:]
    return out


def _without_timing(message: Any) -> Any:
    out = json_format.MessageToDict(message)
    out.pop("solveMs", None)
    out.pop("stats", None)
    out.pop("elapsedMs", None)
    return out


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c["reference"].get("action_id", "?"))
def test_solve_and_validate_over_json_equal_grpc(
    both: RouteServer, grpc_stub: Any, case: dict[str, Any]
) -> None:
    solve = converters.solve_request_to_proto(case["state"])
    status, _, body = post_json(f"{both.http_url}{SERVICE}/SolveRoutes",
                                json_format.MessageToDict(solve))
    assert status == 200, body
    over_http = json_format.ParseDict(body, pb.SolveRoutesResponse())
    assert _without_timing(over_http) == _without_timing(grpc_stub.SolveRoutes(solve, timeout=30))
    assert over_http.revenue + over_http.subsidy == case["reference"]["optimal_total"]

    validate = converters.validate_request_to_proto(
        case["state"], case["reference"]["recorded_routes"]
    )
    status, _, body = post_json(f"{both.http_url}{SERVICE}/ValidateRoutes",
                                json_format.MessageToDict(validate))
    assert status == 200, body
    assert json_format.ParseDict(body, pb.ValidateRoutesResponse()) == grpc_stub.ValidateRoutes(
        validate, timeout=30
    )


def test_suggest_over_json_equals_grpc(both: RouteServer, grpc_stub: Any) -> None:
    state = next(c for c in SAMPLE if c["state"]["phase"] in ("3", "4"))["state"]
    request = suggest_converters.suggest_request_to_proto(state, top=3)
    status, _, body = post_json(f"{both.http_url}{SERVICE}/SuggestMoves",
                                json_format.MessageToDict(request))
    assert status == 200, body
    over_http = json_format.ParseDict(body, pb.SuggestMovesResponse())
    over_grpc = grpc_stub.SuggestMoves(request, timeout=60)
    assert _without_timing(over_http) == _without_timing(over_grpc)


def test_a_state_file_posts_as_it_is(both: RouteServer) -> None:
    """The request's JSON reads like a state file (snake_case names are accepted)."""
    state = SAMPLE[0]["state"]
    status, _, body = post_json(f"{both.http_url}{SERVICE}/SolveRoutes", {"state": state})
    assert status == 200, body
    assert body["provenOptimal"] is True


def test_bad_input_is_invalid_argument_json_naming_the_field(both: RouteServer) -> None:
    state = {**SAMPLE[0]["state"], "phase": "9"}
    status, _, body = post_json(f"{both.http_url}{SERVICE}/SolveRoutes", {"state": state})
    assert status == 400
    assert body["code"] == "invalid_argument"
    assert body["message"].startswith("phase: unknown phase '9'")
    (detail,) = body["details"]
    assert detail["type"] == "google.rpc.BadRequest"
    assert detail["debug"]["fieldViolations"][0]["field"] == "phase"


def test_a_game_log_over_json(both: RouteServer, grpc_stub: Any) -> None:
    from tests.server.abuse import game_log_text

    request = pb.SolveRoutesRequest(game_log=game_log_text(), action_id=728)
    status, _, body = post_json(f"{both.http_url}{SERVICE}/SolveRoutes",
                                json_format.MessageToDict(request))
    assert status == 200, body
    assert (body["revenue"], body["subsidy"]) == (550, 40)


def test_cors_headers_only_for_an_allowed_origin(both: RouteServer) -> None:
    url = f"{both.http_url}{SERVICE}/SolveRoutes"
    body = {"state": SAMPLE[0]["state"]}
    _, allowed, _ = post_json(url, body, {"Origin": ALLOWED_ORIGIN})
    _, other, _ = post_json(url, body, {"Origin": "https://elsewhere.example"})
    assert allowed.get("access-control-allow-origin") == ALLOWED_ORIGIN
    assert "access-control-allow-origin" not in {k.lower() for k in other}
    preflight = urllib.request.Request(url, method="OPTIONS", headers={
        "Origin": ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,connect-protocol-version",
    })
    with urllib.request.urlopen(preflight, timeout=10) as response:
        assert response.headers["access-control-allow-origin"] == ALLOWED_ORIGIN


def test_grpc_web_call(both: RouteServer, grpc_stub: Any) -> None:
    request = converters.solve_request_to_proto(SAMPLE[1]["state"])
    with RouteServiceClientSync(both.http_url or "", protocol=ProtocolType.GRPC_WEB) as client:
        response = client.solve_routes(request, timeout_ms=30_000)
        assert _without_timing(response) == _without_timing(grpc_stub.SolveRoutes(request, timeout=30))
        bad = converters.solve_request_to_proto({**SAMPLE[1]["state"], "corporation": "XXX"})
        with pytest.raises(ConnectError) as info:
            client.solve_routes(bad, timeout_ms=30_000)
    assert info.value.code.name == "INVALID_ARGUMENT"
    assert "corporation" in info.value.message


def test_the_deadline_applies_over_http(both: RouteServer) -> None:
    """Connect-Timeout-Ms bounds the call as a gRPC deadline does."""
    from tests.server.abuse import log_with_undos

    request = pb.SolveRoutesRequest(game_log=log_with_undos(16_000), action_id=728)
    status, body = post_json_raw(  # the deadline may end during the upload: answered early
        f"{both.http_url}{SERVICE}/SolveRoutes", json_format.MessageToDict(request),
        {"Connect-Timeout-Ms": "1", "Connect-Protocol-Version": "1"},
    )
    assert status != 200
    assert body["code"] in ("deadline_exceeded", "invalid_argument"), body


def test_render_and_replay_over_json_equal_grpc(both: RouteServer, grpc_stub: Any) -> None:
    """The two calls of the web page answer over HTTP as over gRPC."""
    from tests.server.abuse import game_log_text

    text = game_log_text("1888_game_end_bankrupt")
    replay = pb.ReplayGameRequest(game_log=text, skip_solve=True)
    status, _, body = post_json(f"{both.http_url}{SERVICE}/ReplayGame",
                                json_format.MessageToDict(replay))
    assert status == 200, body
    assert json_format.ParseDict(body, pb.ReplayGameResponse()) == grpc_stub.ReplayGame(
        replay, timeout=60)
    run = grpc_stub.ReplayGame(replay, timeout=60).runs[-1]
    render = pb.RenderBoardRequest(game_log=text, action_id=run.action_id,
                                   routes_mode=pb.ROUTES_MODE_RECORDED)
    status, _, body = post_json(f"{both.http_url}{SERVICE}/RenderBoard",
                                json_format.MessageToDict(render))
    assert status == 200, body
    assert body["svg"] == grpc_stub.RenderBoard(render, timeout=60).svg
    assert body["svg"].lstrip().startswith("<")
