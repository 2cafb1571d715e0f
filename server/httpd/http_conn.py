"""HTTP connections, bounded in number and in time (issue 20, item 2).

uvicorn's HTTP/1.1 protocol (h11) closes a connection that stays idle after a
response (``timeout_keep_alive``) but never one that has sent nothing yet, or
that trickles its headers: 600 idle connections were all open after 20 s, and
20 200 of them used up the process's file descriptors, after which no gRPC
call, health check or HTTP call could be accepted. ``bounded_protocol``
returns uvicorn's HTTP protocol with two bounds added:

* at most ``max_connections`` open at once: at the cap, a connection between
  requests (idle, or still sending its head) is closed to make room for the
  new one: of the client address holding the most connections, the one that
  has waited longest. So idle connections cannot lock clients out, a client
  that sends its request at once is never the one closed (issue 34: a flood of
  silent connections), and a flood from one address makes room from its own
  connections before any other client's (per-peer fairness); when every
  one is in a call, the new one is closed as soon as it is accepted (its
  descriptor is freed at once);
* a request's head (line and headers) must be complete within ``head_timeout_s``
  of the connection's start or of the previous answer, else the connection is
  closed (the body's own time limit is the call's, ``server.http_body``).

The protocol is uvicorn's ``HttpToolsProtocol`` (``httptools``, the C parser of
Node's llhttp) by default, or its ``H11Protocol`` (pure Python h11), as
``parser_protocol`` names them (``--http-parser``): the bounds hook the same
methods of either. httptools parses a 3.7 MB JSON body's arrival in a fraction
of h11's event-loop time (README, "HTTP door").

``AcceptErrorLog`` is the event loop's exception handler: asyncio reports
every failed ``accept()`` (out of descriptors: EMFILE) with a traceback; it
logs the first of each kind, then a count once per interval.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import httptools
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from route18xx.server.httpd.ops_http import OPS_PATHS

log = logging.getLogger("route18xx.server")


#: uvicorn's HTTP/1.1 protocols by the name of their parser (``--http-parser``):
#: ``httptools`` (C; the declared dependency, version ``HTTPTOOLS_VERSION``) or ``h11``.
PARSERS: dict[str, type[Any]] = {"httptools": HttpToolsProtocol, "h11": H11Protocol}
HTTPTOOLS_VERSION: str = httptools.__version__


def parser_protocol(name: str) -> type[Any]:
    """uvicorn's protocol class for the parser ``name`` (a key of ``PARSERS``)."""
    if name == "httptools":
        log.debug("HTTP parser: httptools %s", HTTPTOOLS_VERSION)
    return PARSERS[name]


#: Connections kept beyond the cap for the operator's pages (``OPS_PATHS``): a scrape
#: or a readiness probe answers while every API connection is in a call (issue 23).
OPS_CONNECTIONS = 4


def bounded_protocol(
    max_connections: int, head_timeout_s: float, base: type[Any] = H11Protocol
) -> type[Any]:
    """uvicorn's HTTP protocol ``base`` with a connection cap and a request-head timeout.

    ``base`` is ``H11Protocol`` or ``HttpToolsProtocol`` (module docstring): both keep the
    same ``connections``, ``cycle``, ``app`` and ``on_response_complete`` this relies on.
    """
    reserved: set[Any] = set()  # the open connections kept for the operator's pages
    #: the connections awaiting a request's head by the client's address, oldest first (a
    #: dict keeps that order)
    awaiting: dict[str, dict[Any, None]] = {}
    #: open connections by the client's address
    peers: dict[str, int] = {}

    class BoundedProtocol(base):  # type: ignore[misc]
        app: Any  # uvicorn's ASGI application, set by the base class
        _head_timer: asyncio.TimerHandle | None = None
        _refused = False
        _peer = ""

        def connection_made(self, transport: Any) -> None:
            if len(self.connections) - len(reserved) >= max_connections:
                idle = _idle_to_close(awaiting, reserved, peers)
                if idle is not None:
                    _drop(idle, self.connections)
                    awaiting.get(idle._peer, {}).pop(idle, None)
                elif not self._reserve():
                    self._refused = True
                    transport.abort()  # before uvicorn counts it: the descriptor is freed now
                    return
            address = transport.get_extra_info("peername")
            self._peer = str(address[0]) if isinstance(address, tuple) and address else ""
            peers[self._peer] = peers.get(self._peer, 0) + 1
            super().connection_made(transport)
            self._await_head()

        def _reserve(self) -> bool:
            """Past the cap with every API connection in a call: keep this one for ops pages."""
            if len(reserved) >= OPS_CONNECTIONS:
                idle = next((c for c in reserved if _between_requests(c)), None)
                if idle is None:
                    return False
                _drop(idle, self.connections)
                reserved.discard(idle)
            reserved.add(self)
            self.app = ops_only(self.app)
            return True

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_timer()
            reserved.discard(self)
            self._not_awaiting()
            if self._refused:
                return
            left = peers.get(self._peer, 1) - 1
            if left > 0:
                peers[self._peer] = left
            else:
                peers.pop(self._peer, None)
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
            awaiting.setdefault(self._peer, {})[self] = None  # the newest: the last to go

        def _not_awaiting(self) -> None:
            waiting = awaiting.get(self._peer)
            if waiting is not None:
                waiting.pop(self, None)
                if not waiting:
                    del awaiting[self._peer]

        def _stop_head_timer(self) -> None:
            self._not_awaiting()
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            in_request = self.cycle is not None and not self.cycle.response_complete
            if not in_request and not self.transport.is_closing():
                self.transport.close()

    return BoundedProtocol


def _idle_to_close(awaiting: dict[str, dict[Any, None]], reserved: set[Any],
                   peers: dict[str, int]) -> Any:
    """Of the client address holding the most connections, its connection that has waited
    longest for a request's head (not one kept for the operator's pages); None if none waits.

    Issue 34, item 1: at the cap a connection flood's silent connections make room for a
    new one, oldest first, so a client that sends its request as soon as it connects is
    never the one closed (any idle one was, before: a fresh client's among them); and a
    flood from one address makes room from its own connections, not from another client's
    idle keep-alive connections (per-peer fairness).
    """
    for peer in sorted(awaiting, key=lambda p: -peers.get(p, 0)):
        waiting = awaiting[peer]
        for protocol in list(waiting):
            if protocol not in reserved and _between_requests(protocol):
                return protocol
            waiting.pop(protocol, None)  # closing, in a call, or kept for the ops pages
        if not waiting:
            del awaiting[peer]
    return None


def _drop(protocol: Any, connections: set[Any]) -> None:
    """Close a connection between requests to make room for a new one."""
    protocol.transport.abort()
    connections.discard(protocol)


def _between_requests(protocol: Any) -> bool:
    """A connection with no call in progress (idle, or sending a request's head)."""
    if getattr(protocol, "transport", None) is None:
        return False
    cycle = protocol.cycle
    return (cycle is None or cycle.response_complete) and not protocol.transport.is_closing()


#: The reserved connections' answer to anything but ``OPS_PATHS``: Connect's
#: ``resource_exhausted`` (HTTP 429), and the connection is closed.
_BUSY = json.dumps({
    "code": "resource_exhausted",
    "message": "max-http-connections: every HTTP connection is in a call; retry in 1 s",
}).encode()


def ops_only(app: ASGIApp) -> ASGIApp:
    """``app`` for ``OPS_PATHS`` alone; any other request is refused as the cap does."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in OPS_PATHS:
            await app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", b"1"),
            (b"content-length", str(len(_BUSY)).encode()), (b"connection", b"close"),
        ]})
        await send({"type": "http.response.body", "body": _BUSY})

    return guarded


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
