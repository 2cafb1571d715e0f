"""Fuzzing the HTTP door (issue 20, item 7): Connect JSON, Connect binary and gRPC-Web bodies.

Hypothesis builds requests from real states (mutated as in ``test_fuzz``),
then damages them at each layer a client can get wrong: JSON values of the
wrong type or shape in random places, unknown keys, bytes flipped, cut or
inserted, gzip or not, a gRPC-Web envelope whose flags or length lie. Sent
to a real ``route18xx serve``, every answer is one a client can act on:

* never 500, ``unknown`` or ``internal``, and never Python's exception text;
  429 only as ``resource_exhausted``;
* 5xx only as Connect's HTTP form of ``deadline_exceeded`` (504, the Connect
  spec's mapping), and only when the request asked for it: one request in
  ``TINY_ONE_IN`` sets a tiny timeout (1 ms), the others a generous one
  (``TIMEOUT_S``) and ``allow_partial`` (a solve whose time limit ends answers
  its best routes); a damaged request whose own ``time_limit_s`` ran out
  (``… within the 0.001 s time limit``) is the only other ``deadline_exceeded``;
* within the call's deadline (``Connect-Timeout-Ms``/``grpc-timeout``) + 100 ms;
* and the server is SERVING afterwards.

``ROUTE18XX_FUZZ_EXAMPLES`` sets the examples per protocol (default 30 here,
so that ``make test`` stays quick; the gRPC fuzz's default is 60).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from hypothesis import given
from hypothesis import strategies as st

from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb
from tests.server.abuse import ServerProcess, start_server
from tests.server.http_calls import GRPC_WEB, JSON, PROTO, SERVICE, Answer, envelope, gzip, leaks, post
from tests.server.test_fuzz import (
    STATES,
    TIMEOUT_S,
    draw_hex_paths,
    fuzz_settings,
    states,
    within_deadline,
)
from tests.timing import slowdown

FUZZ = fuzz_settings(30)
#: One request in this many sets a tiny timeout (``TINY_MS``): it may be deadline_exceeded.
TINY_ONE_IN = 6
TINY_MS = 1
#: Codes a client can act on (Connect's names); ``unknown`` and ``internal`` are bugs.
ALLOWED = {"ok", "invalid_argument", "failed_precondition", "deadline_exceeded",
           "resource_exhausted"}
#: The HTTP status Connect gives each allowed code (gRPC-Web answers 200 with trailers).
HTTP_STATUS = {"ok": 200, "invalid_argument": 400, "failed_precondition": 400,
               "deadline_exceeded": 504, "resource_exhausted": 429}
METHODS = ["SolveRoutes", "ValidateRoutes", "SuggestMoves", "SuggestTurn", "RenderBoard",
           "FetchGameLog", "GetInfo"]
#: FetchGameLog's one site, a closed loopback port: no fuzzed request leaves this machine.
LOG_SITE = "http://127.0.0.1:9"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    yield from start_server("--workers", "2", "--log-source-url", LOG_SITE, http=True)


def _request(method: str, state: dict[str, Any]) -> Message:
    """A valid request of ``method`` for ``state`` (cheap settings: the fuzz is about the door)."""
    proto_state = converters.state_to_proto(state)
    if method == "SolveRoutes":
        return pb.SolveRoutesRequest(state=proto_state, time_limit_s=0.5, allow_partial=True)
    if method == "ValidateRoutes":
        return pb.ValidateRoutesRequest(state=proto_state)
    if method == "SuggestMoves":
        return pb.SuggestMovesRequest(state=proto_state, time_limit_s=0.3)
    if method == "SuggestTurn":
        return pb.SuggestTurnRequest(state=proto_state, time_limit_s=0.3)
    if method == "FetchGameLog":
        return pb.FetchGameLogRequest(game_id="129026")
    if method == "GetInfo":
        return pb.GetInfoRequest()
    return pb.RenderBoardRequest(state=proto_state)


def _mutate_json(draw: Any, value: dict[str, Any]) -> Any:
    """``value`` with 0-3 places replaced by random JSON, or keys added (unknown names)."""
    for _ in range(draw(st.integers(0, 3))):
        node: Any = value
        for _ in range(draw(st.integers(0, 4))):  # walk down a few random steps
            children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
                if isinstance(node, list) else []
            containers = [(k, v) for k, v in children if isinstance(v, (dict, list)) and v]
            if not containers:
                break
            node = draw(st.sampled_from(containers))[1]
        if isinstance(node, dict) and node and draw(st.booleans()):
            node[draw(st.sampled_from(sorted(node)))] = draw(json_values)
        elif isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(json_values)
    if draw(st.integers(0, 9)) == 0:  # now and then the whole request is not an object
        return draw(json_values)
    return value


def _damage(draw: Any, data: bytes) -> bytes:
    """``data``, or (one time in three) with bytes flipped, cut or inserted."""
    kind = draw(st.sampled_from(["none", "none", "flip", "cut", "insert"]))
    if not data or kind == "none":
        return data
    at = draw(st.integers(0, len(data) - 1))
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    if kind == "cut":
        return data[:at]
    return data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]


#: A fuzzed request: method, body, headers, and whether it set a tiny timeout.
Case = tuple[str, bytes, dict[str, str], bool]


def _timeout_ms(draw: Any) -> tuple[int, bool]:
    """The call's timeout (ms): ``TIMEOUT_S``, or ``TINY_MS`` one time in ``TINY_ONE_IN``."""
    tiny = draw(st.integers(0, TINY_ONE_IN - 1)) == 0
    return (TINY_MS if tiny else int(TIMEOUT_S * 1000)), tiny


def _connect_case(draw: Any, method: str, content_type: str, body: bytes) -> Case:
    """A Connect call of ``body``: its timeout, and one time in two gzipped (then maybe
    damaged)."""
    timeout_ms, tiny = _timeout_ms(draw)
    headers = {"Content-Type": content_type, "Connect-Timeout-Ms": str(timeout_ms)}
    if draw(st.booleans()):
        body, headers["Content-Encoding"] = _damage(draw, gzip(body)), "gzip"
    return method, body, headers, tiny


def _drawn_request(draw: Any, method: str) -> Message:
    """A valid request of ``method`` on a drawn state; a ValidateRoutes one time in two with
    drawn ``hex_paths`` instead of no routes (issue 34: the page's own-route call)."""
    base = draw(st.sampled_from(STATES))
    request = _request(method, draw(states()))
    if method == "ValidateRoutes" and draw(st.booleans()):
        request.hex_paths.extend(converters.hex_paths_to_proto(draw_hex_paths(draw, base)))
    return request


@st.composite
def connect_json(draw: Any) -> Case:
    method = draw(st.sampled_from(METHODS))
    value = _mutate_json(draw, json_format.MessageToDict(_drawn_request(draw, method)))
    text = json.dumps(value, ensure_ascii=draw(st.booleans())).encode()
    return _connect_case(draw, method, JSON, _damage(draw, text))


@st.composite
def connect_binary(draw: Any) -> Case:
    method = draw(st.sampled_from(METHODS))
    if draw(st.integers(0, 4)) == 0:
        data = draw(st.binary(max_size=2048))
    else:
        data = _damage(draw, _drawn_request(draw, method).SerializeToString())
    return _connect_case(draw, method, PROTO, data)


@st.composite
def grpc_web(draw: Any) -> Case:
    method = draw(st.sampled_from(METHODS))
    request = _drawn_request(draw, method)
    codec = draw(st.sampled_from(["proto", "proto", "json"]))
    if codec == "json":
        data = json.dumps(_mutate_json(draw, json_format.MessageToDict(request))).encode()
    else:
        data = _damage(draw, request.SerializeToString())
    timeout_ms, tiny = _timeout_ms(draw)
    headers = {"Content-Type": f"{GRPC_WEB[:-len('+proto')]}+{codec}",
               "grpc-timeout": f"{timeout_ms}m"}
    flags = 0
    if draw(st.booleans()):
        data, flags, headers["grpc-encoding"] = _damage(draw, gzip(data)), 1, "gzip"
    body = envelope(data, flags)
    lie = draw(st.sampled_from(["none", "none", "none", "flags", "length", "two", "cut"]))
    if lie == "flags":
        body = bytes([draw(st.integers(0, 255))]) + body[1:]
    elif lie == "length":
        body = body[:1] + draw(st.integers(0, 2**32 - 1)).to_bytes(4, "big") + body[5:]
    elif lie == "two":
        body += envelope(draw(st.binary(max_size=32)))
    elif lie == "cut":
        body = body[:draw(st.integers(0, len(body)))]
    return method, body, headers, tiny


def _check(answer: Answer, tiny: bool, before: float,
           control: Callable[[], float] | None = None) -> None:
    assert answer.code in ALLOWED, (answer.status, answer.code, answer.message, answer.body[:200])
    grpc_web_answer = answer.grpc_status is not None
    assert answer.status == (200 if grpc_web_answer else HTTP_STATUS[answer.code]), answer
    if answer.code == "deadline_exceeded":  # asked for by the request: its timeout or time limit
        assert tiny or "s time limit" in answer.message, answer
    assert not leaks(answer.message), answer.message
    # the deadline is wall time; the work around it is scaled by the run's slowdown (issue 34)
    within_deadline(answer.seconds, TINY_MS / 1000 if tiny else TIMEOUT_S, before, control)


def _send(served: ServerProcess, case: Case) -> None:
    method, body, headers, tiny = case
    before = slowdown(0.01)

    def control() -> float:  # a request the door refuses at once: what the door costs now
        return post(served.http_url, f"{SERVICE}/GetInfo", b"{", {"Content-Type": "application/json"},
                    timeout=TIMEOUT_S + 10).seconds

    _check(post(served.http_url, f"{SERVICE}/{method}", body, headers, timeout=TIMEOUT_S + 10),
           tiny, before, control)


@FUZZ
@given(case=connect_json())
def test_connect_json(served: ServerProcess, case: Case) -> None:
    _send(served, case)


@FUZZ
@given(case=connect_binary())
def test_connect_binary(served: ServerProcess, case: Case) -> None:
    _send(served, case)


@FUZZ
@given(case=grpc_web())
def test_grpc_web(served: ServerProcess, case: Case) -> None:
    _send(served, case)


def test_serving_after_the_fuzz(served: ServerProcess) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(served.target) as channel:
        status = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=5).status
    assert status == health_pb2.HealthCheckResponse.SERVING
    answer = post(served.http_url, f"{SERVICE}/SolveRoutes", b"{}", {"Content-Type": JSON})
    assert answer.code == "invalid_argument", answer  # no state: refused, by a server that answers
    assert served.alive()
