"""The service port's call cap, with health checks outside it (issue 20, item 3).

gRPC's own ``maximum_concurrent_rpcs`` counts every call from its headers on,
health checks included, before the method is even known: calls stalled before
their message (re-opened as the receive timeout ends them) from 8 connections
× 32 streams filled it, and an orchestrator probing health on the service port
was refused (3 of 38 probes answered) and would restart a healthy server.

``CallCap`` is a server interceptor that counts the calls of every service but
``grpc.health.v1.Health`` against ``limit`` (the RouteService's calls, whose
handlers take a request stream and so run from the call's start, stalled ones
included; reflection's), refusing the one past it with ``RESOURCE_EXHAUSTED``
and a retry hint, as a full lane does. Health checks are not counted: they are
tiny and answered at once. gRPC's own cap stays, at ``limit`` +
``HEALTH_RESERVE``, as the hard bound on everything the port holds: stalled
service calls can take at most ``limit`` of it, so at least ``HEALTH_RESERVE``
calls at once are left for health checks.
"""

from __future__ import annotations

import inspect
import time
from typing import Any, AsyncIterator, Awaitable, Callable

import grpc
from grpc_status import rpc_status

from route18xx.server.calls import METHODS_BY_NAME, SERVICE_NAME, log_call
from route18xx.server.errors import Overloaded, status_for

#: Calls at once that the service's calls can never take from health checks (grpc's own cap
#: is the service cap plus this).
HEALTH_RESERVE = 64
#: Calls not counted: the standard health service (its two methods).
UNCOUNTED_PREFIX = "/grpc.health.v1.Health/"


class CallCap(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts every call but health checks against ``limit`` (module docstring)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active = 0

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        method: str = details.method
        if handler is None or method.startswith(UNCOUNTED_PREFIX):
            return handler
        return self._counted(handler, method)

    def _admit(self) -> bool:
        if self.active >= self.limit:
            return False
        self.active += 1  # the event loop's thread only: no lock needed
        return True

    async def _refuse(self, method: str, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        started = time.perf_counter()
        status = rpc_status.to_status(status_for(Overloaded(
            f"the service is busy: {self.limit} calls at once; retry in 1 s", 1.0
        )))
        name = method.rsplit("/", 1)[-1]
        if method.startswith(f"/{SERVICE_NAME}/") and name in METHODS_BY_NAME:
            log_call("grpc", METHODS_BY_NAME[name], status.code.name, started)
        await context.abort(status.code, status.details, status.trailing_metadata)

    def _counted(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        """``handler`` whose behaviour is admitted first and released when it ends."""
        cap = self
        if handler.request_streaming and handler.response_streaming:
            inner = handler.stream_stream
            make = grpc.stream_stream_rpc_method_handler
        elif handler.request_streaming:
            inner, make = handler.stream_unary, grpc.stream_unary_rpc_method_handler
        elif handler.response_streaming:
            inner, make = handler.unary_stream, grpc.unary_stream_rpc_method_handler
        else:
            inner, make = handler.unary_unary, grpc.unary_unary_rpc_method_handler

        if inspect.isasyncgenfunction(inner):
            async def streamed(request: Any, context: Any) -> AsyncIterator[Any]:
                if not cap._admit():
                    await cap._refuse(method, context)
                try:
                    async for response in inner(request, context):
                        yield response
                finally:
                    cap.active -= 1

            behaviour: Any = streamed
        else:
            async def called(request: Any, context: Any) -> Any:
                if not cap._admit():
                    await cap._refuse(method, context)
                try:
                    return await inner(request, context)
                finally:
                    cap.active -= 1

            behaviour = called
        return make(behaviour, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)
