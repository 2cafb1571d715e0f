"""The service port's call caps, with health checks outside the service's (issue 20, item 3).

gRPC's own ``maximum_concurrent_rpcs`` counts every call from its headers on,
health checks included, before the method is even known: calls stalled before
their message (re-opened as the receive timeout ends them) from 8 connections
× 32 streams filled it, and an orchestrator probing health on the service port
was refused (3 of 38 probes answered) and would restart a healthy server.

``CallCap`` is a server interceptor that counts each call in the group of its
method, each group with a cap of its own: the RouteService's calls (``limit``,
256 by default), health checks (``HEALTH_LIMIT``) and anything else, i.e.
reflection (``OTHER_LIMIT``). The call past its group's cap is refused with
``RESOURCE_EXHAUSTED`` and a retry hint, as a full lane does. Every handler
counted takes a request stream, so it runs, and is counted, from the call's
start, stalled calls included (health checks on this port are served so:
``server.health_calls``). gRPC's own cap stays as the last bound on everything
the port holds, above the sum (``HEADROOM`` more), so that a call always
reaches its group's cap, which can make room:

at a group's cap, a stalled call makes room (as an idle HTTP connection does at
the connection cap): a new call takes the place of the call of its group that
has waited longest for its request message, if that one has waited at least
``EVICTABLE_AFTER_S``; it is answered ``RESOURCE_EXHAUSTED`` with a retry hint.
A client sends its message as soon as the call starts, so only calls that
send nothing lose their place: 8 connections × 32 calls that never send their
message no longer lock other clients out. A call that has sent its message is
never ended for room (its lane bounds it). The handlers mark the wait
(``Slot.waiting``, ``server.receive``).
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

from route18xx.server.core.calls import METHODS_BY_NAME, SERVICE_NAME, Method
from route18xx.server.core.errors import Overloaded, status_for

#: The end of a call refused at its cap: (transport, method, outcome, ``time.perf_counter``
#: at its start) → its log line (the server passes ``CallCore.finish``: metrics and log line).
Finish = Callable[[str, Method, str, float], None]

#: Health checks at once on the service port (``Watch`` streams included).
HEALTH_LIMIT = 64
#: Calls of other services (reflection) at once.
OTHER_LIMIT = 16
#: gRPC's own cap is the groups' sum plus this: room for the calls being refused or evicted.
HEADROOM = 64
#: At its group's cap, a call that has waited this long for its request message makes room.
EVICTABLE_AFTER_S = 1.0
HEALTH_PREFIX = "/grpc.health.v1.Health/"


class Group:
    """The calls of one kind counted against one cap."""

    def __init__(self, name: str, limit: int) -> None:
        self.name = name
        self.limit = limit
        self.active = 0  # the event loop's thread only: no lock needed
        #: Calls waiting for their request message, the longest-waiting first.
        self.waiting: dict[Slot, None] = {}
        self.evictions = 0

    def admit(self) -> Slot | None:
        """A place for a new call: a free one, or a stalled call's (None: refuse the call)."""
        if self.active < self.limit:
            self.active += 1
            return Slot(self)
        oldest = next(iter(self.waiting), None)
        if oldest is None or time.monotonic() - oldest.since < EVICTABLE_AFTER_S:
            return None
        del self.waiting[oldest]
        oldest.released = True  # its place passes to the new call
        oldest.evicted.set()
        self.evictions += 1
        return Slot(self)

    def release(self, slot: Slot) -> None:
        self.waiting.pop(slot, None)
        if not slot.released:
            slot.released = True
            self.active -= 1


class Slot:
    """One counted call's place in its group; ``evicted`` is set when it must make room."""

    def __init__(self, group: Group) -> None:
        self.group = group
        self.evicted = asyncio.Event()
        self.released = False
        self.since = 0.0  # when it began to wait for its message

    @contextmanager
    def waiting(self) -> Iterator[asyncio.Event]:
        """While the call awaits its request message: it may make room (``evicted`` is set)."""
        self.since = time.monotonic()
        self.group.waiting[self] = None
        try:
            yield self.evicted
        finally:
            self.group.waiting.pop(self, None)


#: The current call's slot (set by ``CallCap`` for the handler it wraps).
CURRENT_SLOT: contextvars.ContextVar[Slot | None] = contextvars.ContextVar(
    "route18xx_call_slot", default=None
)


class CallCap(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts each call against its group's cap (module docstring)."""

    def __init__(self, limit: int, finish: Finish) -> None:
        self.finish = finish
        self.service = Group("service", limit)
        self.health = Group("health", HEALTH_LIMIT)
        self.other = Group("other", OTHER_LIMIT)

    @property
    def hard_limit(self) -> int:
        """gRPC's own cap for the port: every group full, plus ``HEADROOM``."""
        return self.service.limit + self.health.limit + self.other.limit + HEADROOM

    def group(self, method: str) -> Group:
        if method.startswith(f"/{SERVICE_NAME}/"):
            return self.service
        if method.startswith(HEALTH_PREFIX):
            return self.health
        return self.other

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return handler
        method: str = details.method
        return self._counted(handler, method, self.group(method))

    async def _refuse(self, group: Group, method: str, context: Any) -> None:
        started = time.perf_counter()
        status = rpc_status.to_status(status_for(Overloaded(
            f"the service is busy: {group.limit} {group.name} calls at once; retry in 1 s", 1.0
        )))
        name = method.rsplit("/", 1)[-1]
        if group.name == "service" and name in METHODS_BY_NAME:
            self.finish("grpc", METHODS_BY_NAME[name], status.code.name, started)
        await context.abort(status.code, status.details, status.trailing_metadata)

    def _counted(
        self, handler: grpc.RpcMethodHandler, method: str, group: Group
    ) -> grpc.RpcMethodHandler:
        """``handler`` whose behaviour is admitted to ``group`` first and released when it ends."""
        return _wrapped(handler, method, group, self._refuse)


def _wrapped(
    handler: grpc.RpcMethodHandler, method: str, group: Group,
    refuse: Callable[[Group, str, Any], Awaitable[None]],
) -> grpc.RpcMethodHandler:
    """``handler`` admitted to ``group`` first (``refuse`` when it is full), released at its end."""
    if handler.request_streaming and handler.response_streaming:
        inner, make = handler.stream_stream, grpc.stream_stream_rpc_method_handler
    elif handler.request_streaming:
        inner, make = handler.stream_unary, grpc.stream_unary_rpc_method_handler
    elif handler.response_streaming:
        inner, make = handler.unary_stream, grpc.unary_stream_rpc_method_handler
    else:
        inner, make = handler.unary_unary, grpc.unary_unary_rpc_method_handler

    if inspect.isasyncgenfunction(inner):
        async def streamed(request: Any, context: Any) -> AsyncIterator[Any]:
            slot = group.admit()
            if slot is None:
                await refuse(group, method, context)
                return
            token = CURRENT_SLOT.set(slot)
            try:
                async for response in inner(request, context):
                    yield response
            finally:
                CURRENT_SLOT.reset(token)
                group.release(slot)

        behaviour: Any = streamed
    else:
        async def called(request: Any, context: Any) -> Any:
            slot = group.admit()
            if slot is None:
                await refuse(group, method, context)
                return None
            token = CURRENT_SLOT.set(slot)
            try:
                return await inner(request, context)
            finally:
                CURRENT_SLOT.reset(token)
                group.release(slot)

        behaviour = called
    return make(behaviour, request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer)
