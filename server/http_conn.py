"""HTTP connections, bounded in number and in time (issue 20, item 2).

uvicorn's HTTP/1.1 protocol (h11) closes a connection that stays idle after a
response (``timeout_keep_alive``) but never one that has sent nothing yet, or
that trickles its headers: 600 idle connections were all open after 20 s, and
20 200 of them used up the process's file descriptors, after which no gRPC
call, health check or HTTP call could be accepted. ``bounded_protocol``
returns uvicorn's ``H11Protocol`` with two bounds added:

* at most ``max_connections`` open at once: at the cap, a connection that is
  between requests (idle, or still sending its head) is closed to make room
  for the new one, so idle connections cannot lock clients out; when every
  one is in a call, the new one is closed as soon as it is accepted (its
  descriptor is freed at once);
* a request's head (line and headers) must be complete within ``head_timeout_s``
  of the connection's start or of the previous answer, else the connection is
  closed (the body's own time limit is the call's, ``server.http_body``).

``AcceptErrorLog`` is the event loop's exception handler: asyncio reports
every failed ``accept()`` (out of descriptors: EMFILE) with a traceback; it
logs the first of each kind, then a count once per interval.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("route18xx.server")


def bounded_protocol(max_connections: int, head_timeout_s: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a connection cap and a request-head timeout (module docstring)."""

    class BoundedH11Protocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None
        _refused = False

        def connection_made(self, transport: Any) -> None:
            if len(self.connections) >= max_connections:
                idle = next((c for c in self.connections if _between_requests(c)), None)
                if idle is None:
                    self._refused = True
                    transport.abort()  # before uvicorn counts it: the descriptor is freed now
                    return
                idle.transport.abort()
                self.connections.discard(idle)
            super().connection_made(transport)
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_timer()
            if self._refused:
                return
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            super().data_received(data)
            if self.cycle is not cycle:  # a request's head arrived whole
                self._stop_head_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._head_timer is None:
                self._await_head()

        def _await_head(self) -> None:
            self._stop_head_timer()
            self._head_timer = self.loop.call_later(head_timeout_s, self._head_timed_out)

        def _stop_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            in_request = self.cycle is not None and not self.cycle.response_complete
            if not in_request and not self.transport.is_closing():
                self.transport.close()

    return BoundedH11Protocol


def _between_requests(protocol: object) -> bool:
    """A connection with no call in progress (idle, or sending a request's head)."""
    if not isinstance(protocol, H11Protocol) or protocol.transport is None:
        return False
    cycle = protocol.cycle
    return (cycle is None or cycle.response_complete) and not protocol.transport.is_closing()


class AcceptErrorLog:
    """An event loop exception handler logging accept() failures once per ``interval_s``."""

    def __init__(self, interval_s: float = 10.0) -> None:
        self.interval_s = interval_s
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if "accept" not in message:
            loop.default_exception_handler(context)
            return
        exc = context.get("exception")
        kind = f"{message}: {exc.strerror if isinstance(exc, OSError) else exc}"
        now = time.monotonic()
        self._count[kind] = self._count.get(kind, 0) + 1
        last = self._last.get(kind)
        if last is None or now - last >= self.interval_s:
            count = self._count.pop(kind)
            self._last[kind] = now
            log.error("%s (%d time(s) in the last %g s; accepting resumes when it can)",
                      kind, count, self.interval_s)
