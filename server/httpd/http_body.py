"""HTTP request bodies, bounded before they are read whole (issue 20, items 1 and 5).

connect-python reads a request's whole body, decompresses it whole and only
then compares its size with ``read_max_bytes``: a 1 MB gzip body inflating to
1 GiB took 13.6 s and +2 GiB on the event loop that also serves gRPC. Here:

* ``BoundedBody`` is the ``receive`` connect-python reads the body through.
  A ``Content-Length`` over the limit is refused before a byte is read; the
  body is counted as it arrives and refused as soon as it passes the limit;
  it must arrive within the receive timeout (the gRPC ``--receive-timeout-s``)
  of the call's start, as a gRPC request message must. The body is then
  handed over in one piece (at most the limit). For the enveloped protocols
  (gRPC-Web, Connect streaming) the envelope is checked first: exactly one
  message frame whose length matches the body, so connect-python's envelope
  reader never meets a malformed one (it answers those INTERNAL/UNIMPLEMENTED).
* gzip bodies are decompressed here, in a thread (zlib lets go of the
  interpreter lock), by ``CappedGzip``: incremental, stopping as soon as the
  output passes the limit, so compressed and decompressed sizes are both
  bounded. connect-python then sees the plain body (``decompressed`` tells
  the caller to drop the encoding header); it keeps ``CappedGzip`` as its own
  gzip for anything else it decompresses.

Every refusal is a ``connectrpc`` ``ConnectError`` built from this service's
one error table (``server.errors``): ``RESOURCE_EXHAUSTED`` naming the limit,
``INVALID_ARGUMENT`` naming ``request``. connect-python writes it in the
request's protocol (Connect JSON with HTTP 429/400, gRPC-Web trailers).
"""

from __future__ import annotations

import asyncio
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

from connectrpc.code import Code
from connectrpc.errors import ConnectError

from route18xx.engine.api import MalformedInput
from route18xx.server.core.errors import BadMessage, DeadlineExceeded, TooLarge, call_error

Receive = Callable[[], Awaitable[dict[str, Any]]]

#: gRPC-Web / Connect streaming: flags (1 byte) and message length (4 bytes, big-endian).
ENVELOPE_HEADER = 5
_COMPRESSED = 0x01


def connect_error(exc: Exception) -> ConnectError:
    """``exc`` as connect-python's error, through the one table (code, message, details)."""
    error = call_error(exc)
    return ConnectError(Code[error.code.name], error.message, error.details)


def size_text(size: int) -> str:
    """``4 MiB`` or ``1000 bytes``: a limit as people read it."""
    mib = size / (1024 * 1024)
    return f"{mib:g} MiB" if size >= 1024 * 1024 and mib == int(mib) else f"{size} bytes"


def too_large(what: str, limit: int) -> ConnectError:
    """``RESOURCE_EXHAUSTED``: ``what`` (``the request body``) passes the message limit."""
    return connect_error(TooLarge(f"{what} is larger than the {size_text(limit)} message limit"))


class BoundedBody:
    """An ASGI ``receive`` that reads the body once, bounded in size and time (module docstring)."""

    def __init__(
        self, receive: Receive, headers: dict[str, str], *, limit: int, timeout_s: float,
        deadline: float, enveloped: bool, encoding_header: str,
    ) -> None:
        self._receive = receive
        self._headers = headers
        self._enveloped = enveloped
        #: The largest body: the message limit, plus the envelope's header when enveloped.
        self._cap = limit + (ENVELOPE_HEADER if enveloped else 0)
        self._limit = limit
        self._timeout_s = timeout_s
        self._deadline = deadline
        self._started = time.monotonic()
        self._done = False
        self._encoding = headers.get(encoding_header, "identity").lower()
        #: The whole body was read (False: the request was refused partway: close the connection).
        self.complete = False
        #: Bytes of the body read so far, as sent (before decompression).
        self.received = 0

    async def __call__(self) -> dict[str, Any]:
        if self._done:  # after the body: what the server says next (a disconnect)
            return await self._receive()
        self._done = True
        body = await self._read()
        self.complete = True
        if self._enveloped:
            body = await self._plain_envelope(body)
        elif self._encoding == "gzip" and body:
            body = await _in_thread(CappedGzip(self._limit).decompress, body)
        return {"type": "http.request", "body": body, "more_body": False}

    async def _read(self) -> bytes:
        declared = self._headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                raise connect_error(BadMessage("the Content-Length header is not a number"))
            if int(declared) > self._cap:
                raise too_large("the request body", self._limit)
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await self._next()
            if message["type"] != "http.request":  # http.disconnect
                raise ConnectError(Code.CANCELED, "the client went away before the request arrived")
            chunk = message.get("body", b"")
            size += len(chunk)
            self.received = size
            if size > self._cap:
                raise too_large("the request body", self._limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _next(self) -> dict[str, Any]:
        now = time.monotonic()
        until_deadline = self._deadline - now
        wait = min(self._started + self._timeout_s - now, until_deadline)
        try:
            return await asyncio.wait_for(self._receive(), max(0.0, wait))
        except asyncio.TimeoutError:
            if wait >= until_deadline:
                raise connect_error(DeadlineExceeded(
                    "the request did not arrive before the deadline"
                )) from None
            raise connect_error(BadMessage(
                f"the request did not arrive within {self._timeout_s:g} s of the call's start"
            )) from None

    async def _plain_envelope(self, body: bytes) -> bytes:
        """The body's one message frame, checked and decompressed (flag 0)."""
        if len(body) < ENVELOPE_HEADER:
            raise connect_error(BadMessage("the request is not one enveloped message"))
        flags = body[0]
        length = int.from_bytes(body[1:ENVELOPE_HEADER], "big")
        if length != len(body) - ENVELOPE_HEADER:
            raise connect_error(BadMessage(
                "the request is not one enveloped message (its length does not match the body)"
            ))
        if flags & ~_COMPRESSED:
            raise connect_error(BadMessage("the request's envelope has unknown flags"))
        if not flags & _COMPRESSED:
            return body
        if self._encoding != "gzip":
            raise connect_error(BadMessage("the request is marked compressed but names no encoding"))
        message = await _in_thread(CappedGzip(self._limit).decompress, body[ENVELOPE_HEADER:])
        return len(message).to_bytes(ENVELOPE_HEADER, "big") + message  # flags 0, then the length


#: The one thread that inflates gzip bodies. One, not the loop's default pool: bodies are
#: inflated one at a time, so at most one output buffer (the limit) is held at once, and the
#: allocator keeps no more than that for later (4 clients looping 1 GiB bombs through the
#: default pool's threads left the server ~25 MiB larger; issue 20 allows 20).
_GZIP_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="route18xx-gzip")


async def _in_thread(work: Callable[[bytes], bytes], data: bytes) -> bytes:
    return await asyncio.get_running_loop().run_in_executor(_GZIP_THREAD, work, data)


class CappedGzip:
    """connect-python's ``Compression`` for gzip, decompressing no more than ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self._limit = limit

    def name(self) -> str:
        return "gzip"

    def compress(self, data: bytes | bytearray | memoryview) -> bytes:
        compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        return compressor.compress(data) + compressor.flush()

    def decompress(self, data: bytes | bytearray | memoryview) -> bytes:
        """The decompressed bytes; ``RESOURCE_EXHAUSTED`` past the limit, ``INVALID_ARGUMENT`` if not gzip."""
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            # At most limit + 1 bytes out: one more than allowed proves it is too large.
            out = inflater.decompress(data, self._limit + 1)
        except zlib.error:
            raise connect_error(BadMessage("the request is not valid gzip")) from None
        if len(out) > self._limit:
            raise too_large("the decompressed request", self._limit)
        if not inflater.eof:
            raise connect_error(BadMessage("the request's gzip data is incomplete"))
        if inflater.unused_data:  # concatenated gzip members: not what any client sends
            raise connect_error(MalformedInput("request", "more than one gzip member"))
        return out
