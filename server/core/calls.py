"""The RouteService calls, independent of the transport that carries them (issue 9, 13).

Each method is one ``Method`` row: its request type, the lane it runs in and
the job that converts, calls the engine and converts back. ``CallCore.run``
does what every transport (gRPC, Connect, gRPC-Web) needs for one call: the
call's deadline (the client's, or the server's maximum per call) in a
``CancelToken`` minus a margin for sending the answer, admission to the lane,
decoding the request on the lane's worker when it arrives as bytes, and the
job. Transports map the exceptions it raises through ``server.errors``.

Decoding, conversion and encoding run on the lane's worker, not on the event
loop, so a large request never stalls other calls; a large JSON request is first
decoded in the decode lane (its own worker process, ``DECODE_LANE_MIN_BYTES``),
so that it does not hold a worker the cheap calls need either. ``GetInfo`` alone
has no lane: its answer is made once, when the server starts, and given at once.

``CallCore.finish`` is the one end of every call, whatever its transport: its
metrics (``server.metrics``) and its log line (``log_call``: text, or one JSON
object with ``--log-format json``, ``server.log_format``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal, Mapping

from google.protobuf.message import DecodeError, Message

from route18xx.engine import api
from route18xx.server.convert import converters, draw_converters, replay_converters, suggest_converters, turn_converters
from route18xx.server.core.errors import BadMessage
from route18xx.server.core.json_decode import decode_json_request
from route18xx.server.core.lanes import Lane
from route18xx.server.ops.metrics import ServerMetrics
from route18xx.server.core.runner import EngineRunner, Limits, call_deadline
from route18xx.v1 import route_service_pb2 as pb

log = logging.getLogger("route18xx.calls")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RouteService"].full_name

#: A method's work on the lane: the decoded request and the call's token → the response.
Job = Callable[[EngineRunner, Any, Any], Message]


def _solve(runner: EngineRunner, request: pb.SolveRoutesRequest, cancel: Any) -> Message:
    args = converters.solve_request_from_proto(request)
    return converters.solve_report_to_proto(runner.solve(args, cancel))


def _validate(runner: EngineRunner, request: pb.ValidateRoutesRequest, cancel: Any) -> Message:
    source = converters.request_source(request)
    routes = converters.routes_from_proto(request.routes)
    if not routes and isinstance(source, converters.LogSource) and api.is_run_routes(
            source.log, source.action_id):  # the run's own routes, as RenderBoard draws them
        routes = api.recorded_routes(source.log, source.action_id)
    report = runner.check(source, routes, cancel, converters.check_args_from_proto(request))
    return converters.check_report_to_proto(report)


def _fetch_log(runner: EngineRunner, request: pb.FetchGameLogRequest, cancel: Any) -> Message:
    """``FetchGameLog``: the game's JSON from the configured site (``server.log_source``)."""
    from route18xx.server.core.log_source import fetch_game_log

    which = request.WhichOneof("game")
    number, url, text = fetch_game_log(
        runner.log_site, request.game_id if which == "game_id" else None,
        request.url if which == "url" else None, cancel.time_left(), cancel)
    return pb.FetchGameLogResponse(game_id=number, source_url=url, game_log=text)


def _suggest(runner: EngineRunner, request: pb.SuggestMovesRequest, cancel: Any) -> Message:
    args = suggest_converters.suggest_request_from_proto(request)
    return suggest_converters.suggest_report_to_proto(runner.suggest(args, cancel))


def _no_job(runner: EngineRunner, request: Any, cancel: Any) -> Message:
    raise AssertionError("GetInfo is answered by the CallCore, not on a lane")


def _suggest_turn(runner: EngineRunner, request: pb.SuggestTurnRequest, cancel: Any) -> Message:
    args = turn_converters.turn_request_from_proto(request)
    return turn_converters.turn_report_to_proto(runner.suggest_turn(args, cancel))


@dataclass(frozen=True)
class Method:
    """One RPC: its name, request type, lane and job (no lane: answered at once by the core)."""

    name: str
    request_type: type[Message]
    response_type: type[Message]
    lane: str
    job: Job


METHODS = (
    Method("SolveRoutes", pb.SolveRoutesRequest, pb.SolveRoutesResponse, "solve", _solve),
    Method("ValidateRoutes", pb.ValidateRoutesRequest, pb.ValidateRoutesResponse, "solve",
           _validate),
    Method("SuggestMoves", pb.SuggestMovesRequest, pb.SuggestMovesResponse, "suggest", _suggest),
    Method("RenderBoard", pb.RenderBoardRequest, pb.RenderBoardResponse, "solve",
           draw_converters.render_board),
    Method("ReplayGame", pb.ReplayGameRequest, pb.ReplayGameResponse, "suggest",
           replay_converters.replay_job),
    Method("GetInfo", pb.GetInfoRequest, pb.GetInfoResponse, "", _no_job),
    Method("SuggestTurn", pb.SuggestTurnRequest, pb.SuggestTurnResponse, "suggest",
           _suggest_turn),
    Method("FetchGameLog", pb.FetchGameLogRequest, pb.FetchGameLogResponse, "fetch", _fetch_log),
)
METHODS_BY_NAME = {m.name: m for m in METHODS}


def decode(method: Method, data: bytes) -> Message:
    """The request message in ``data``; ``BadMessage`` when the bytes are not one."""
    request = method.request_type()
    try:
        request.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError):  # RuntimeError: recursion too deep
        raise BadMessage(
            f"the request is not a {method.request_type.DESCRIPTOR.full_name} message"
        ) from None
    return request


@dataclass(frozen=True)
class Encoded:
    """A request still in its wire form: protobuf binary (``proto``) or protobuf JSON (``json``).

    The HTTP front end hands requests over undecoded, so that decoding runs
    where gRPC's does, off the event loop (issue 20: 4 MB JSON bodies decoded on
    the loop stalled every other call).
    """

    data: bytes
    codec: Literal["proto", "json"]


def decode_encoded(method: Method, request: Encoded) -> Message:
    """The message in ``request``; ``MalformedInput``/``BadMessage`` when it is not one."""
    if request.codec == "json":
        return decode_json_request(request.data, method.request_type())
    return decode(method, request.data)


class CallCore:
    """One call's work on the engine, for any transport."""

    def __init__(
        self, runner: EngineRunner, lanes: Mapping[str, Lane], limits: Limits,
        metrics: ServerMetrics | None = None, info: pb.GetInfoResponse | None = None,
    ) -> None:
        self.runner = runner
        self.lanes = lanes
        self.limits = limits
        self.metrics = metrics or ServerMetrics()
        self.metrics.lanes.watch(lanes)
        self.info = info or pb.GetInfoResponse()

    @contextlib.contextmanager
    def in_flight(self, transport: str) -> Iterator[None]:
        """Counts a call as in flight (``route18xx_calls_in_flight``) while in this block."""
        gauge = self.metrics.in_flight.labels(transport)
        gauge.inc()
        try:
            yield
        finally:
            gauge.dec()

    def finish(
        self, transport: str, method: Method, outcome: str, started: float, *,
        request_bytes: int | None = None, peer: str | None = None,
    ) -> None:
        """The end of a call (``started``: its ``time.perf_counter``): its metrics and log line."""
        duration_s = time.perf_counter() - started
        self.metrics.call(method.name, transport, outcome, duration_s)
        self.metrics.take_solves()  # the solves it ran, whatever its outcome
        log_call(transport, method, outcome, duration_s, request_bytes=request_bytes, peer=peer)

    def token(self, client_remaining_s: float | None) -> tuple[float, Any]:
        """The call's deadline (``time.monotonic``) and a cancel token that fires a margin before."""
        deadline = call_deadline(client_remaining_s, self.limits)
        return deadline, api.new_cancel_token(deadline - self.limits.deadline_margin_s)

    async def run(self, method: Method, request: bytes | Encoded | Message, cancel: Any) -> Message:
        """The response to ``request`` (bytes are decoded on the lane's worker)."""
        if not method.lane:  # GetInfo: the answer is ready
            if isinstance(request, (bytes, Encoded)):
                decode_encoded(method, request if isinstance(request, Encoded)
                               else Encoded(request, "proto"))
            answer = method.response_type()
            answer.CopyFrom(self.info)
            return answer
        lane = self.lanes[method.lane]
        if isinstance(request, Encoded) and request.codec == "proto":
            request = request.data
        decoder = self.lanes.get("decode")
        if (isinstance(request, Encoded) and decoder is not None and decoder.in_processes
                and len(request.data) >= DECODE_LANE_MIN_BYTES):
            # A large JSON body: decoded in a process of its own lane, so the solve lane's
            # workers (and the calls waiting for them) never wait on it.
            name = worker_job_name(method, DECODE_ONLY)
            request = await decoder.run_in_worker(name, request.data, cancel)
        if lane.in_processes:  # bytes cross to the worker process, and back
            name = method.name
            if isinstance(request, Encoded):  # JSON: decoded by the worker, as binary is
                name, request = worker_job_name(method, "json"), request.data
            payload = request if isinstance(request, bytes) else request.SerializeToString()
            answer = await lane.run_in_worker(name, payload, cancel)
            response = method.response_type()
            response.ParseFromString(answer)
            return response

        def job() -> Message:
            if isinstance(request, bytes):
                message = decode(method, request)
            elif isinstance(request, Encoded):
                message = decode_encoded(method, request)
            else:
                message = request
            return method.job(self.runner, message, cancel)

        return await lane.run(job, cancel)


#: A worker job that only decodes: ``Name:json>proto`` turns the method's JSON request into
#: its protobuf bytes (the decode lane, ``CallCore.run``).
DECODE_ONLY = "json>proto"
#: JSON requests of at least this many bytes are decoded in the decode lane first (issue 20:
#: 4 MB bodies decoded by the solve lane's workers held them ~40 ms of CPU each, so cheap
#: calls queued behind them). Smaller ones cost less to decode than the extra hop.
DECODE_LANE_MIN_BYTES = 64 * 1024


def worker_job_name(method: Method, codec: str) -> str:
    """The job name a worker process reads as "``method``'s request in ``codec``" (``Name:json``)."""
    return method.name if codec == "proto" else f"{method.name}:{codec}"


def job_method(job_name: str) -> tuple[Method, str]:
    """The method and the request's codec a worker job name (``worker_job_name``) stands for."""
    name, _, codec = job_name.partition(":")
    return METHODS_BY_NAME[name], codec or "proto"


def log_call(
    transport: str, method: Method, outcome: str, duration_s: float, *,
    request_bytes: int | None = None, peer: str | None = None,
) -> None:
    """One line per call: transport, method, real outcome, latency.

    The record carries the call's facts (``call``) for the JSON format
    (``server.log_format``); the text format prints the message alone.
    """
    ms = duration_s * 1000.0
    facts = {
        "method": method.name, "transport": transport, "outcome": outcome,
        "duration_ms": round(ms, 3), "request_bytes": request_bytes, "peer": peer,
    }
    log.info("%s /%s/%s %s %.1f ms", transport, SERVICE_NAME, method.name, outcome, ms,
             extra={"call": facts})
