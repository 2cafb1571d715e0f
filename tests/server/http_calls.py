"""Raw HTTP calls for the HTTP door's abuse and fuzz tests (issue 20).

Plain ``http.client`` and sockets, so that a test sends exactly the bytes it
means (bad gzip, lying Content-Length, broken gRPC-Web envelopes) and reads
exactly what the server answers.
"""

from __future__ import annotations

import http.client
import json
import struct
import time
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

SERVICE = "/route18xx.v1.RouteService"
JSON = "application/json"
PROTO = "application/proto"
GRPC_WEB = "application/grpc-web+proto"
#: Words of Python's own error texts that no answer may carry (issue 20, item 4).
LEAKS = ("Traceback", "Error", "object is not", "codec can't", "recursion", "Exception",
         "_ByNameMap", "NoneType", "line 1 column")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float
    #: gRPC-Web: the status and message from the trailers (None for Connect answers).
    grpc_status: int | None = None
    grpc_message: str = ""
    json: dict[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> str:
        """The call's status, Connect's way (``invalid_argument``) for either protocol."""
        if self.grpc_status is not None:
            return GRPC_CODES.get(self.grpc_status, f"grpc-{self.grpc_status}")
        if self.status == 200:
            return "ok"
        return str(self.json.get("code", f"http-{self.status}"))

    @property
    def message(self) -> str:
        return self.grpc_message if self.grpc_status is not None else str(self.json.get("message", ""))


GRPC_CODES = {
    0: "ok", 1: "canceled", 2: "unknown", 3: "invalid_argument", 4: "deadline_exceeded",
    5: "not_found", 8: "resource_exhausted", 9: "failed_precondition", 12: "unimplemented",
    13: "internal", 14: "unavailable",
}


def post(url: str, path: str, body: bytes, headers: dict[str, str], timeout: float = 30) -> Answer:
    """POST ``body`` to ``path``; the answer, decoded for Connect JSON or gRPC-Web."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    started = time.monotonic()
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data,
                    time.monotonic() - started)
    if answer.headers.get("content-type", "").startswith("application/grpc-web"):
        _read_trailers(answer)
    elif data[:1] == b"{":
        try:
            answer.json = json.loads(data)
        except ValueError:
            pass
    return answer


def _read_trailers(answer: Answer) -> None:
    from urllib.parse import unquote

    if "grpc-status" in answer.headers:  # trailers-only
        answer.grpc_status = int(answer.headers["grpc-status"])
        answer.grpc_message = unquote(answer.headers.get("grpc-message", ""))
        return
    data = answer.body
    while len(data) >= 5:
        flags, length = data[0], int.from_bytes(data[1:5], "big")
        frame, data = data[5:5 + length], data[5 + length:]
        if flags & 0x80:
            for line in frame.decode("latin-1").split("\r\n"):
                key, _, value = line.partition(":")
                if key.strip() == "grpc-status":
                    answer.grpc_status = int(value.strip())
                elif key.strip() == "grpc-message":
                    answer.grpc_message = unquote(value.strip())


def envelope(message: bytes, flags: int = 0) -> bytes:
    """One gRPC-Web message frame."""
    return struct.pack(">BI", flags, len(message)) + message


def gzip_bomb(size: int, chunk: int = 1 << 20) -> bytes:
    """``size`` zero bytes as one valid gzip member (~1 000:1): a body that inflates ``size``.

    After a full flush the compressor starts afresh, so every chunk of zeros
    compresses to the same bytes: one chunk is compressed and repeated (fast),
    then the trailer's CRC and length make the member valid.
    """
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    zeros = bytes(chunk)
    block = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(size // chunk):
        crc = zlib.crc32(zeros, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    final = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS).flush()  # an empty last block
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return header + block * (size // chunk) + final + trailer


def gzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def leaks(text: str) -> list[str]:
    """The words of Python's error texts in ``text`` (none expected)."""
    return [word for word in LEAKS if word in text]
