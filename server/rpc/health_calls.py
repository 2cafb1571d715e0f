"""Health checking on the service port, each check's request read as the service's are (issue 20).

gRPC's standard registration reads a health request before any handler runs,
and waits for it without end: a check that sends its headers and nothing more
held its place until the connection closed, out of sight of the call caps.
Here ``Check`` and ``Watch`` take a request stream of raw bytes, as the
RouteService's handlers do, so that each is counted in the health group of the
call cap from its start, its request must arrive within the receive timeout
(``server.receive``), and a stalled one makes room at the cap
(``server.call_cap``). The answers are the shared ``HealthServicer``'s (the
readiness the health port also serves); a request that is not a
``HealthCheckRequest`` is ``INVALID_ARGUMENT``.
"""

from __future__ import annotations

import time
from typing import Any, AsyncIterator

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2
from grpc_status import rpc_status

from route18xx.server.core.errors import BadMessage, status_for
from route18xx.server.rpc.receive import receive_first

SERVICE = "grpc.health.v1.Health"


def health_handler(servicer: health.aio.HealthServicer, receive_timeout_s: float,
                   max_call_s: float) -> grpc.GenericRpcHandler:
    """``grpc.health.v1.Health`` over ``servicer``, each request awaited with a timeout."""

    async def request_of(requests: AsyncIterator[bytes], context: Any) -> Any:
        remaining = context.time_remaining()
        deadline = time.monotonic() + (max_call_s if remaining is None else remaining)
        try:
            data = await receive_first(requests, deadline, receive_timeout_s)
            request = health_pb2.HealthCheckRequest()
            try:
                request.ParseFromString(data)
            except (DecodeError, RuntimeError, ValueError):
                raise BadMessage("the request is not a grpc.health.v1.HealthCheckRequest") from None
        except Exception as exc:  # the one error table, as for the service's calls
            status = rpc_status.to_status(status_for(exc))
            await context.abort(status.code, status.details, status.trailing_metadata)
        return request

    async def check(requests: AsyncIterator[bytes], context: Any) -> bytes:
        response = await servicer.Check(await request_of(requests, context), context)
        answer: bytes = response.SerializeToString()
        return answer

    async def watch(requests: AsyncIterator[bytes], context: Any) -> None:
        await servicer.Watch(await request_of(requests, context), context)

    return grpc.method_handlers_generic_handler(SERVICE, {
        "Check": grpc.stream_unary_rpc_method_handler(check),
        "Watch": grpc.stream_stream_rpc_method_handler(
            watch, response_serializer=health_pb2.HealthCheckResponse.SerializeToString),
    })
