"""The ``route18xx.v1.RouteService`` methods on the asyncio gRPC server (issue 9).

Each method is one ``Method`` row: its request type, the lane it runs in and
the job that converts, calls the engine and converts back. The handlers are
registered with raw bytes in and out, so that

* a request that is not a message of its type is ``INVALID_ARGUMENT`` naming
  ``request`` (gRPC's own deserializer would answer INTERNAL and log a
  traceback per request);
* the request message is awaited with a receive timeout: a call that sends its
  headers and then nothing holds no thread and ends after
  ``Limits.receive_timeout_s`` (or its deadline);
* decoding, conversion and encoding run on the lane's worker, not on the event
  loop, so a large request never stalls other calls.

Every call gets a ``CancelToken`` whose deadline is the client's (or the
server's maximum per call), minus a margin for sending the answer; it is
cancelled when the call ends for any reason. One log line per call records its
real outcome: OK, the error's status code, CANCELLED or DEADLINE_EXCEEDED.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, Mapping

import grpc
from google.protobuf.message import DecodeError, Message
from grpc_status import rpc_status

from route18xx.engine import api
from route18xx.v1 import route_service_pb2 as pb
from route18xx.server import converters, suggest_converters
from route18xx.server.errors import BadMessage, DeadlineExceeded, status_for
from route18xx.server.lanes import Lane
from route18xx.server.runner import EngineRunner, Limits, call_deadline

log = logging.getLogger("route18xx.calls")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RouteService"].full_name

#: A method's work on the lane: the decoded request and the call's token → the response.
Job = Callable[[EngineRunner, Any, Any], Message]


def _solve(runner: EngineRunner, request: pb.SolveRoutesRequest, cancel: Any) -> Message:
    args = converters.solve_request_from_proto(request)
    return converters.solve_report_to_proto(runner.solve(args, cancel))


def _validate(runner: EngineRunner, request: pb.ValidateRoutesRequest, cancel: Any) -> Message:
    source = converters.request_source(request)
    report = runner.check(source, converters.routes_from_proto(request.routes), cancel)
    return converters.check_report_to_proto(report)


def _suggest(runner: EngineRunner, request: pb.SuggestMovesRequest, cancel: Any) -> Message:
    args = suggest_converters.suggest_request_from_proto(request)
    return suggest_converters.suggest_report_to_proto(runner.suggest(args, cancel))


@dataclass(frozen=True)
class Method:
    """One RPC: its name, request type, lane and job."""

    name: str
    request_type: type[Message]
    lane: str
    job: Job


def _serialize(message: Message) -> bytes:
    """The wire bytes of a response (protobuf is untyped: the type is stated here)."""
    data: bytes = message.SerializeToString()
    return data


METHODS = (
    Method("SolveRoutes", pb.SolveRoutesRequest, "solve", _solve),
    Method("ValidateRoutes", pb.ValidateRoutesRequest, "solve", _validate),
    Method("SuggestMoves", pb.SuggestMovesRequest, "suggest", _suggest),
)


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


class RouteService:
    """The RouteService handlers over an ``EngineRunner`` and its lanes."""

    def __init__(self, runner: EngineRunner, lanes: Mapping[str, Lane], limits: Limits) -> None:
        self._runner = runner
        self._lanes = lanes
        self._limits = limits

    def generic_handler(self) -> grpc.GenericRpcHandler:
        """The service's handlers: raw bytes in (read with a timeout) and out."""
        handlers = {
            m.name: grpc.stream_unary_rpc_method_handler(self._handler(m)) for m in METHODS
        }
        return grpc.method_handlers_generic_handler(SERVICE_NAME, handlers)

    def _handler(
        self, method: Method
    ) -> Callable[[AsyncIterator[bytes], grpc.aio.ServicerContext[bytes, bytes]], Any]:
        async def handle(
            requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
        ) -> bytes:
            return await self._serve(method, requests, context)

        return handle

    async def _serve(
        self,
        method: Method,
        requests: AsyncIterator[bytes],
        context: grpc.aio.ServicerContext[bytes, bytes],
    ) -> bytes:
        started = time.perf_counter()
        deadline = call_deadline(context.time_remaining(), self._limits)
        cancel = api.new_cancel_token(deadline - self._limits.deadline_margin_s)
        context.add_done_callback(lambda _: cancel.cancel())
        try:
            data = await self._receive(requests, deadline)
            lane = self._lanes[method.lane]
            response = await lane.run(
                lambda: _serialize(method.job(self._runner, decode(method, data), cancel)),
                cancel,
            )
        except asyncio.CancelledError:
            cancel.cancel()
            self._log(method, "CANCELLED", started)
            raise
        except Exception as exc:  # the table decides; unexpected → INTERNAL, logged there
            status = rpc_status.to_status(status_for(exc))
            self._log(method, status.code.name, started)  # before the client hears it
            await context.abort(status.code, status.details, status.trailing_metadata)
            raise  # pragma: no cover  (abort raises)
        self._log(method, "OK", started)
        return response

    @staticmethod
    def _log(method: Method, outcome: str, started: float) -> None:
        ms = (time.perf_counter() - started) * 1000.0
        log.info("/%s/%s %s %.1f ms", SERVICE_NAME, method.name, outcome, ms)

    async def _receive(self, requests: AsyncIterator[bytes], deadline: float) -> bytes:
        """The call's one request message, awaited no longer than the receive timeout."""
        left = max(0.0, deadline - time.monotonic())
        wait = min(self._limits.receive_timeout_s, left)
        try:
            return await asyncio.wait_for(anext(requests), wait)
        except asyncio.TimeoutError:
            if wait >= left:
                raise DeadlineExceeded("the request message did not arrive before the deadline") from None
            raise BadMessage(
                f"no request message arrived within {wait:.1f} s of the call's start"
            ) from None
        except StopAsyncIteration:
            raise BadMessage("the call carried no request message") from None
