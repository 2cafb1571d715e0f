"""connect-python's ASGI application, held as the gRPC door is held (issue 20, items 1, 3, 5).

``BoundedRouteServiceApp`` is the generated ``RouteServiceASGIApplication``
with four of its steps replaced; connect-python 0.9.0 (pinned) offers no
hook for them, so they are overridden here, each in a few lines that call the
library's own method:

* the body: read through ``server.http_body.BoundedBody`` (size and time
  bounded, envelope checked) and decompressed by ``CappedGzip``;
* the decoding: the request reaches the service undecoded (``Wire``, its
  bytes and codec), so that JSON and protobuf are decoded off the event loop,
  in the lane, as gRPC requests are (``server.calls.Encoded``). The library's
  codec is wrapped (``DeferredCodec``): its ``decode`` only keeps the bytes;
  its ``encode`` writes the response as before;
* the errors raised before the service is reached (a bad timeout header, an
  unknown encoding, a content type the server cannot serve) go through the
  one error table, in the request's protocol: never 5xx, ``unknown`` or
  Python's exception text;
* the call's end: every call to a method path, failed or not, is counted
  and logged as gRPC calls are (``CallCore.finish``), with the outcome the
  service recorded or, for a call refused before it, the code answered;
* a client that goes away: once the request's body is read, the connection is
  watched, and a call whose client closed it before any answer began is
  cancelled (its lane slot and worker freed at once, as a cancelled gRPC call's
  are). A page abandons a view's calls by aborting their fetches (issue 34: a
  hurried player's abandoned calls filled the suggest lane).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import re
import time
from dataclasses import dataclass, replace
from http import HTTPStatus
from typing import Any, Awaitable, Callable, Mapping

from connectrpc._codec import Codec
from connectrpc._protocol import ConnectWireError, HTTPException
from connectrpc._protocol_grpc import GRPCWebEnvelopeWriter
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.request import Headers, RequestContext

from route18xx.server.core.calls import METHODS_BY_NAME, SERVICE_NAME, CallCore, Encoded
from route18xx.server.core.errors import BadMessage
from route18xx.server.httpd.http_body import BoundedBody, CappedGzip, connect_error
from route18xx.server.core.runner import Limits, call_deadline
from route18xx.v1.route_service_connect import RouteServiceASGIApplication

log = logging.getLogger("route18xx.server")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: Timeout headers as the protocols define them: Connect's positive milliseconds (≤ 10
#: digits), gRPC's ≤ 8 digits and a unit. Anything else is INVALID_ARGUMENT, not a
#: negative deadline (which connect-python would accept).
CONNECT_TIMEOUT = re.compile(r"[0-9]{1,10}")
GRPC_TIMEOUT = re.compile(r"[0-9]{1,8}[HMSmun]")
#: Request compressions the server reads (connect-python's own list, gzip capped).
ENCODINGS = ("identity", "gzip")
_GRPC_CODE = {  # gRPC status number → name, for reading gRPC-Web trailers
    0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED",
    5: "NOT_FOUND", 6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION", 10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED",
    13: "INTERNAL", 14: "UNAVAILABLE", 15: "DATA_LOSS", 16: "UNAUTHENTICATED",
}


@dataclass
class Wire:
    """A request as it arrived: its bytes and the codec they are in (decoded later, in the lane)."""

    data: bytes = b""
    codec: str = "proto"

    def encoded(self) -> Encoded:
        return Encoded(self.data, "json" if self.codec == "json" else "proto")


class DeferredCodec:
    """connect-python's codec for one call, keeping the request's bytes instead of decoding them."""

    def __init__(self, codec: Codec[Any, Any]) -> None:
        self._codec = codec

    def name(self) -> str:
        return self._codec.name()

    def encode(self, message: Any) -> bytes:
        data: bytes = self._codec.encode(message)
        return data

    def decode(self, data: bytes | bytearray, message: Any) -> Any:
        assert isinstance(message, Wire), "DeferredCodec serves Wire requests only"
        message.data = bytes(data)
        message.codec = "json" if self._codec.name() == "json" else "proto"
        return message


@dataclass
class CallRecord:
    """One HTTP call's facts for its log line: the service sets ``outcome`` when it answers."""

    path: str
    enveloped: bool
    started: float
    outcome: str | None = None
    body: BoundedBody | None = None
    peer: str | None = None


CURRENT: contextvars.ContextVar[CallRecord | None] = contextvars.ContextVar(
    "route18xx_http_call", default=None
)


def record_outcome(outcome: str) -> None:
    """The service's outcome for the current HTTP call (OK, a status name, CANCELLED …)."""
    record = CURRENT.get()
    if record is not None:
        record.outcome = outcome


class BoundedRouteServiceApp(RouteServiceASGIApplication):
    """The RouteService over Connect and gRPC-Web with bounded bodies (module docstring)."""

    def __init__(self, service: Any, *, limit: int, core: CallCore) -> None:
        super().__init__(service, read_max_bytes=limit, compressions=[CappedGzip(limit)])
        self._limit = limit
        self._limits: Limits = core.limits
        self._core = core

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await super().__call__(scope, receive, send)
            return
        content_type = _header(scope, "content-type")
        record = CallRecord(
            scope.get("path", ""),
            content_type.startswith(("application/grpc-web", "application/connect+")),
            time.perf_counter(),
            peer=_peer(scope),
        )
        token = CURRENT.set(record)
        answered: dict[str, Any] = {}

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                answered["status"] = message["status"]
                if record.body is not None and not record.body.complete:
                    # The body was refused partway: the connection cannot carry another request.
                    message = {**message, "headers": [*message["headers"], (b"connection", b"close")]}
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                answered["last"] = message.get("body", b"")
            await send(message)

        read = asyncio.Event()

        async def reading() -> Message:
            message: Message = await receive()
            if message["type"] != "http.request" or not message.get("more_body"):
                read.set()  # the body is whole (or the client left): what follows is a hang-up
            return message

        try:
            with self._core.in_flight("http"):
                await _unless_hung_up(super().__call__(scope, reading, watched), receive, read, answered)
        finally:
            CURRENT.reset(token)
            _log(self._core, record, answered)

    def _resolve_endpoints(self, service: Any) -> Mapping[str, Any]:
        endpoints = super()._resolve_endpoints(service)
        return {
            path: replace(endpoint, method=replace(endpoint.method, input=Wire))
            for path, endpoint in endpoints.items()
        }

    def _bounded(self, receive: Any, headers: Headers, ctx: RequestContext[Any, Any],
                 encoding_header: str) -> BoundedBody:
        timeout_ms = ctx.timeout_ms()
        body = BoundedBody(
            receive, dict(headers.items()), limit=self._limit,
            timeout_s=self._limits.receive_timeout_s,
            deadline=call_deadline(None if timeout_ms is None else timeout_ms / 1000, self._limits),
            enveloped=encoding_header != "content-encoding", encoding_header=encoding_header,
        )
        record = CURRENT.get()
        if record is not None:
            record.body = body
        return body

    async def _handle_unary_connect(
        self, http_method: str, headers: Headers, codec: Codec[Any, Any],
        query_params: dict[str, list[str]], endpoint: Any, receive: Any, send: Any,
        ctx: RequestContext[Any, Any],
    ) -> None:
        encoding = headers.get("content-encoding", "identity").lower()
        if encoding not in ENCODINGS:
            raise _unknown_encoding(encoding)
        if not _valid_timeout(headers.get("connect-timeout-ms"), CONNECT_TIMEOUT):
            raise _bad_timeout()
        body = self._bounded(receive, headers, ctx, "content-encoding")
        await super()._handle_unary_connect(  # the body arrives decompressed
            http_method, _without(headers, "content-encoding"), DeferredCodec(codec),
            query_params, endpoint, body, send, ctx,
        )

    async def _handle_stream(
        self, receive: Any, send: Any, protocol: Any, endpoint: Any, codec: Codec[Any, Any],
        headers: Headers, ctx: Any,
    ) -> None:
        name = "grpc-encoding" if "grpc-encoding" in headers else "connect-content-encoding"
        body: Any = self._bounded(receive, headers, ctx, name)
        encoding = headers.get(name, "identity").lower()
        if encoding not in ENCODINGS:  # refused by the body, inside the library's error handling
            body = _Refusing(_unknown_encoding(encoding))
        elif not _valid_timeout(headers.get("grpc-timeout"), GRPC_TIMEOUT):
            body = _Refusing(_bad_timeout())
        await super()._handle_stream(  # the body's message arrives decompressed
            body, send, protocol, endpoint, DeferredCodec(codec), _without(headers, name), ctx
        )

    async def _handle_error(self, exc: Exception, ctx: Any, send: Any) -> None:
        record = CURRENT.get()
        if record is None or record.outcome is None:  # refused before the service answered
            exc = _plain(exc)
        if record is not None and record.enveloped and not isinstance(exc, HTTPException):
            await _grpc_web_error(exc, send)
            return
        await super()._handle_error(exc, ctx, send)


async def _unless_hung_up(call: Awaitable[None], receive: Receive, read: asyncio.Event,
                          answered: dict[str, Any]) -> None:
    """Run ``call``; cancel it if the client hangs up after its body was ``read`` and before
    an answer began (``answered``). The cancelled service records the call as CANCELLED."""
    task = asyncio.ensure_future(call)
    watch = asyncio.ensure_future(_hang_up(receive, read))
    try:
        await asyncio.wait((task, watch), return_when=asyncio.FIRST_COMPLETED)
        if not task.done() and "status" not in answered:
            task.cancel()  # the client is gone: nobody reads an answer
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return
        await task
    finally:
        watch.cancel()
        if not task.done():
            task.cancel()


async def _hang_up(receive: Receive, read: asyncio.Event) -> None:
    """Returns when the client closes the connection (ASGI ``http.disconnect``) after the
    request's body was read; uvicorn's ``receive`` waits until then."""
    await read.wait()
    while (await receive())["type"] != "http.disconnect":
        pass


def _without(headers: Headers, name: str) -> Headers:
    """``headers`` less ``name`` (the body's encoding, once the body is decompressed)."""
    return Headers([(k, v) for k, v in headers.allitems() if k.lower() != name])


class _Refusing:
    """A ``receive`` that refuses the request with ``error`` when first read."""

    complete = False

    def __init__(self, error: ConnectError) -> None:
        self._error = error

    async def __call__(self) -> Message:
        raise self._error


def _valid_timeout(value: str | None, form: re.Pattern[str]) -> bool:
    """No timeout header, or one in its protocol's form (connect-python lets ``-5`` through)."""
    return value is None or form.fullmatch(value) is not None


def _bad_timeout() -> ConnectError:
    return connect_error(BadMessage("the timeout header is not a valid timeout"))


def _unknown_encoding(encoding: str) -> ConnectError:
    shown = encoding[:40]
    return connect_error(BadMessage(f"unknown request encoding '{shown}' (identity or gzip)"))


def _plain(exc: Exception) -> Exception:
    """An error raised before the service, as this service words it (never Python's text)."""
    if isinstance(exc, HTTPException):
        return exc
    if isinstance(exc, ConnectError):
        if exc.code in (Code.UNKNOWN, Code.INTERNAL, Code.UNIMPLEMENTED):
            log.debug("request refused by connect-python: %s", exc.message)
            return connect_error(BadMessage("the request could not be read"))
        if exc.code == Code.INVALID_ARGUMENT and "timeout" in exc.message.lower():
            return _bad_timeout()
        return exc
    if isinstance(exc, RuntimeError) and "trailers" in str(exc):  # native gRPC over HTTP/1.1
        return HTTPException(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, [
            ("accept-post", "application/json, application/proto, application/grpc-web+proto"),
        ])
    if isinstance(exc, ValueError) and "timeout" in str(exc):
        return _bad_timeout()
    log.debug("request refused before the service", exc_info=exc)
    return connect_error(BadMessage("the request's headers could not be read"))


async def _grpc_web_error(exc: Exception, send: Send) -> None:
    """A gRPC-Web answer carrying only ``exc``'s status (its trailers, in the body)."""
    wire = ConnectWireError.from_exception(exc)
    body = GRPCWebEnvelopeWriter(_NO_CODEC, None).end(Headers(), wire)
    headers = [(b"content-type", b"application/grpc-web+proto")]
    await send({"type": "http.response.start", "status": 200, "headers": headers,
                "trailers": False})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class _NoCodec:
    def name(self) -> str:
        return "proto"

    def encode(self, message: Any) -> bytes:
        return b""

    def decode(self, data: bytes | bytearray, message: Any) -> Any:
        return message


_NO_CODEC: Any = _NoCodec()


def _header(scope: Scope, name: str) -> str:
    key = name.encode()
    for k, v in scope.get("headers", ()):
        if k.lower() == key:
            return bytes(v).decode("latin-1").lower()
    return ""


def _peer(scope: Scope) -> str | None:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else None


def _log(core: CallCore, record: CallRecord, answered: dict[str, Any]) -> None:
    """The call's end (``CallCore.finish``): a log line only for paths that are not methods."""
    prefix = f"/{SERVICE_NAME}/"
    if not record.path.startswith(prefix):
        return
    name = record.path[len(prefix):]
    outcome = record.outcome or _answered_outcome(record, answered)
    method = METHODS_BY_NAME.get(name)
    if method is None:
        log.info("http %s %s %.1f ms", record.path[:80], outcome,
                 (time.perf_counter() - record.started) * 1000.0)
        return
    size = record.body.received if record.body is not None else None
    core.finish("http", method, outcome, record.started, request_bytes=size, peer=record.peer)


def _answered_outcome(record: CallRecord, answered: dict[str, Any]) -> str:
    """The code a call refused before the service was answered with (from the response)."""
    status = answered.get("status")
    last = answered.get("last", b"")
    if status is None:
        return "CANCELLED"  # no answer: the client went away
    if status != 200:
        try:
            code = json.loads(last).get("code", "")
        except (ValueError, AttributeError):
            code = ""
        return str(code).upper() or f"HTTP_{status}"
    if record.enveloped and last[:1] and last[0] & 0x80:  # gRPC-Web trailers
        for line in last[5:].decode("latin-1").split("\r\n"):
            key, _, value = line.partition(":")
            if key.strip().lower() == "grpc-status" and value.strip().isdigit():
                return _GRPC_CODE.get(int(value.strip()), "UNKNOWN")
    if record.enveloped and last[:1] and last[0] & 0x02:  # Connect streaming end
        try:
            error = json.loads(last[5:]).get("error") or {}
        except ValueError:
            error = {}
        return str(error.get("code", "OK")).upper()
    return "OK"
