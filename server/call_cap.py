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

At the cap, a stalled call makes room (as an idle HTTP connection does at the
connection cap): a new call takes the place of the call that has waited
longest for its request message, if that one has waited at least
``EVICTABLE_AFTER_S``; it is answered ``RESOURCE_EXHAUSTED`` with a retry hint.
A client sends its message as soon as the call starts, so only calls that
send nothing lose their place: 8 connections × 32 calls that never send their
message no longer lock other clients out. A call that has sent its message is
never ended for room (its lane bounds it), nor is a call of another kind
(reflection). The servicer marks the wait (``Slot.waiting``).
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import time
from contextlib import contextmanager
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator

import grpc
from grpc_status import rpc_status

from route18xx.server.calls import METHODS_BY_NAME, SERVICE_NAME, log_call
from route18xx.server.errors import Overloaded, status_for

#: Calls at once that the service's calls can never take from health checks (grpc's own cap
#: is the service cap plus this).
HEALTH_RESERVE = 64
#: Calls not counted: the standard health service (its two methods).
UNCOUNTED_PREFIX = "/grpc.health.v1.Health/"
#: At the cap, a call that has waited this long for its request message makes room.
EVICTABLE_AFTER_S = 1.0


class Slot:
    """One counted call's place in the cap; ``evicted`` is set when it must make room."""

    def __init__(self, cap: CallCap) -> None:
        self.cap = cap
        self.evicted = asyncio.Event()
        self.released = False
        self.since = 0.0  # when it began to wait for its message

    @contextmanager
    def waiting(self) -> Iterator[asyncio.Event]:
        """While the call awaits its request message: it may make room (``evicted`` is set)."""
        self.since = time.monotonic()
        self.cap.waiting[self] = None
        try:
            yield self.evicted
        finally:
            self.cap.waiting.pop(self, None)


#: The current call's slot (set by ``CallCap`` for the handler it wraps).
CURRENT_SLOT: contextvars.ContextVar[Slot | None] = contextvars.ContextVar(
    "route18xx_call_slot", default=None
)


class CallCap(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts every call but health checks against ``limit`` (module docstring)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active = 0
        #: Calls waiting for their request message, the longest-waiting first.
        self.waiting: dict[Slot, None] = {}
        self.evictions = 0

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

    def _admit(self) -> Slot | None:
        """A place for a new call: a free one, or a stalled call's (None: refuse the call)."""
        if self.active < self.limit:
            self.active += 1  # the event loop's thread only: no lock needed
            return Slot(self)
        oldest = next(iter(self.waiting), None)
        if oldest is None or time.monotonic() - oldest.since < EVICTABLE_AFTER_S:
            return None
        del self.waiting[oldest]
        oldest.released = True  # its place passes to the new call
        oldest.evicted.set()
        self.evictions += 1
        return Slot(self)

    def _release(self, slot: Slot) -> None:
        self.waiting.pop(slot, None)
        if not slot.released:
            slot.released = True
            self.active -= 1

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
                slot = cap._admit()
                if slot is None:
                    await cap._refuse(method, context)
                    return
                token = CURRENT_SLOT.set(slot)
                try:
                    async for response in inner(request, context):
                        yield response
                finally:
                    CURRENT_SLOT.reset(token)
                    cap._release(slot)

            behaviour: Any = streamed
        else:
            async def called(request: Any, context: Any) -> Any:
                slot = cap._admit()
                if slot is None:
                    await cap._refuse(method, context)
                    return None
                token = CURRENT_SLOT.set(slot)
                try:
                    return await inner(request, context)
                finally:
                    CURRENT_SLOT.reset(token)
                    cap._release(slot)

            behaviour = called
        return make(behaviour, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)
