"""The service port's call caps, with health checks outside the service's (issue 20, item 3;
issue 34, item 1: no call waits behind another's silence).

gRPC's own ``maximum_concurrent_rpcs`` counts every call from its headers on,
health checks included, before the method is even known: calls stalled before
their message (re-opened as the receive timeout ends them) from 8 connections
× 32 streams filled it, and an orchestrator probing health on the service port
was refused (3 of 38 probes answered) and would restart a healthy server.

``CallCap`` is a server interceptor that counts each call in the group of its
method, each group with a cap of its own: the RouteService's calls (``limit``,
256 by default), health checks (``HEALTH_LIMIT``) and anything else, i.e.
reflection (``OTHER_LIMIT``). Every handler counted takes a request stream, so
it runs, and is counted, from the call's start, stalled calls included (health
checks on this port are served so: ``server.health_calls``). gRPC's own cap
stays as the last bound on everything the port holds, above the sum
(``HEADROOM`` more), so that a call always reaches its group's cap.

A call that has not sent its request message (*silent*; the handlers mark the
wait, ``Slot.waiting``, ``server.receive``) holds nothing a ready call needs:

* at a group's cap, the new call takes the place of the call of its group that
  has been silent longest, whatever its age (it is answered
  ``RESOURCE_EXHAUSTED`` with a retry hint); a call is refused only when every
  place is held by a call that has sent its message (its lane bounds those);
* one connection keeps at most ``connection_share`` silent calls of a group,
  one peer (a client address, all its connections) ``peer_share``: beyond
  those, the longest silent ones make room once they have been silent
  ``EVICTABLE_AFTER_S``, even below the cap, so that they do not hold the
  connection's streams (its ``SETTINGS_MAX_CONCURRENT_STREAMS``, beyond which
  a gRPC client queues its calls, ready ones behind silent ones) nor the
  group's places. A client sends its message as soon as a call starts: 40 or
  256 calls that never send theirs, or an attacker re-opening them, cost other
  clients, and other calls of the same connection, no wait (they waited for the
  receive timeout, 4.4 s, before). A call that has sent its message is never
  ended for room.
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
#: A connection's or a peer's silent calls beyond its share make room once silent this long
#: (a client's message follows its headers at once: a burst of calls is not silent so long).
EVICTABLE_AFTER_S = 0.25
#: A connection's silent calls kept, as a share of its streams (the rest stay for ready calls).
CONNECTION_SHARE = 0.25
#: A peer's silent calls kept, as a share of its group's cap.
PEER_SHARE = 0.25
HEALTH_PREFIX = "/grpc.health.v1.Health/"


class Group:
    """The calls of one kind counted against one cap, silent ones shared out fairly."""

    def __init__(self, name: str, limit: int, connection_share: int = 1 << 30,
                 peer_share: int = 1 << 30) -> None:
        self.name = name
        self.limit = limit
        self.connection_share = connection_share
        self.peer_share = peer_share
        self.active = 0  # the event loop's thread only: no lock needed
        #: Calls waiting for their request message, the longest-waiting first; and by
        #: connection and by peer.
        self.waiting: dict[Slot, None] = {}
        self._by: dict[str, dict[Slot, None]] = {}
        self.evictions = 0
        self._sweep: asyncio.TimerHandle | None = None

    def admit(self, connection: str = "") -> Slot | None:
        """A place for a new call: a free one, or the longest silent call's (None: refuse)."""
        if self.active >= self.limit:
            oldest = next(iter(self.waiting), None)
            if oldest is None:
                return None
            self._evict(oldest)
        self.active += 1
        return Slot(self, connection)

    def release(self, slot: Slot) -> None:
        self.forget(slot)
        if not slot.released:
            slot.released = True
            self.active -= 1

    def wait(self, slot: Slot) -> None:
        """``slot`` waits for its message: counted against its connection's and peer's shares."""
        self.waiting[slot] = None
        over = False
        for key, share in self._keys(slot):
            silent = self._by.setdefault(key, {})
            silent[slot] = None
            over = over or len(silent) > share
        if over and self._sweep is None:
            self._sweep = asyncio.get_running_loop().call_later(EVICTABLE_AFTER_S, self.sweep)

    def _keys(self, slot: Slot) -> tuple[tuple[str, int], tuple[str, int]]:
        return (("c" + slot.connection, self.connection_share),
                ("p" + slot.connection.rpartition(":")[0], self.peer_share))

    def forget(self, slot: Slot) -> None:
        """``slot`` no longer waits for its message (it came, or the call ended)."""
        if slot not in self.waiting:
            return
        del self.waiting[slot]
        for key, _ in self._keys(slot):
            silent = self._by.get(key)
            if silent is not None:
                silent.pop(slot, None)
                if not silent:
                    del self._by[key]

    def _evict(self, slot: Slot) -> None:
        """``slot``'s call makes room: its place is free now, and it is told to retry."""
        self.forget(slot)
        slot.released = True
        self.active -= 1
        slot.evicted.set()
        self.evictions += 1

    def sweep(self) -> None:
        """Connections' and peers' silent calls beyond their shares, silent
        ``EVICTABLE_AFTER_S`` or more, make room (the longest silent first)."""
        self._sweep = None
        oldest = time.monotonic() - EVICTABLE_AFTER_S
        again = False
        for key in list(self._by):
            share = self.connection_share if key[0] == "c" else self.peer_share
            while len(silent := self._by.get(key, {})) > share:
                first = next(iter(silent))
                if first.since > oldest:
                    again = True
                    break
                self._evict(first)
        if again:
            self._sweep = asyncio.get_running_loop().call_later(EVICTABLE_AFTER_S, self.sweep)


class Slot:
    """One counted call's place in its group; ``evicted`` is set when it must make room."""

    def __init__(self, group: Group, connection: str = "") -> None:
        self.group = group
        #: Its connection, as gRPC names the peer (``ipv4:127.0.0.1:50211``).
        self.connection = connection
        self.evicted = asyncio.Event()
        self.released = False
        self.since = 0.0  # when it began to wait for its message

    @contextmanager
    def waiting(self) -> Iterator[asyncio.Event]:
        """While the call awaits its request message: it may make room (``evicted`` is set)."""
        self.since = time.monotonic()
        if not self.released:
            self.group.wait(self)
        try:
            yield self.evicted
        finally:
            self.group.forget(self)


#: The current call's slot (set by ``CallCap`` for the handler it wraps).
CURRENT_SLOT: contextvars.ContextVar[Slot | None] = contextvars.ContextVar(
    "route18xx_call_slot", default=None
)


class CallCap(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts each call against its group's cap (module docstring)."""

    def __init__(self, limit: int, finish: Finish, streams_per_connection: int = 1 << 30) -> None:
        """``streams_per_connection``: the connections' stream limit, of which silent calls
        keep ``CONNECTION_SHARE``."""
        self.finish = finish
        connection_share = max(1, int(streams_per_connection * CONNECTION_SHARE))

        def group(name: str, cap: int) -> Group:
            return Group(name, cap, connection_share, max(1, int(cap * PEER_SHARE)))

        self.service = group("service", limit)
        self.health = group("health", HEALTH_LIMIT)
        self.other = group("other", OTHER_LIMIT)

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
            slot = group.admit(context.peer())
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
            slot = group.admit(context.peer())
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
