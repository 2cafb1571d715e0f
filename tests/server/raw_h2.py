"""A hostile HTTP/2 client, frame by frame: it opens streams past the server's limit (issue 20).

A gRPC client queues its calls beyond a connection's SETTINGS_MAX_CONCURRENT_STREAMS,
so it cannot show that the server enforces the limit; this one ignores it. It
sends the calls' headers and never a message, as the stalled-call attacker does.
"""

from __future__ import annotations

import socket
import struct
import time
from collections import Counter
from dataclasses import dataclass

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
HEADERS, RST_STREAM, SETTINGS = 0x1, 0x3, 0x4
END_HEADERS, ACK = 0x4, 0x1


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _literal(name: str, value: str) -> bytes:
    """An HPACK literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2)."""
    raw_name, raw_value = name.encode(), value.encode()
    assert len(raw_name) < 127 and len(raw_value) < 127
    return b"\x00" + bytes([len(raw_name)]) + raw_name + bytes([len(raw_value)]) + raw_value


@dataclass
class Opened:
    """What the server answered to the streams: its SETTINGS and the streams it refused."""

    max_concurrent_streams: int | None
    refused: int
    connection: socket.socket


def open_streams(target: str, path: str, count: int, listen_s: float = 1.0) -> Opened:
    """``count`` streams at once on one connection (headers only); the connection stays open."""
    host, port = target.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=5)
    sock.sendall(PREFACE + _frame(SETTINGS, 0, 0))
    block = b"".join(_literal(k, v) for k, v in (
        (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", target),
        ("content-type", "application/grpc"), ("te", "trailers"),
    ))
    streams = b"".join(_frame(HEADERS, END_HEADERS, 1 + 2 * i, block) for i in range(count))
    data = b""
    while len(data) < 9 or len(data) < 9 + int.from_bytes(data[:3], "big"):
        chunk = sock.recv(65536)  # the server's SETTINGS come first (RFC 9113 §3.4)
        assert chunk, "the server closed the connection"
        data += chunk
    sock.sendall(_frame(SETTINGS, ACK, 0) + streams)  # acknowledged, then ignored
    end = time.monotonic() + listen_s
    while (left := end - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
    kinds: Counter[int] = Counter()
    limit, at = None, 0
    while at + 9 <= len(data):
        length, kind, flags = int.from_bytes(data[at:at + 3], "big"), data[at + 3], data[at + 4]
        payload = data[at + 9:at + 9 + length]
        if kind == SETTINGS and not flags & ACK:
            values = {int.from_bytes(payload[i:i + 2], "big"): int.from_bytes(payload[i + 2:i + 6], "big")
                      for i in range(0, len(payload), 6)}
            limit = values.get(0x3)  # SETTINGS_MAX_CONCURRENT_STREAMS
        kinds[kind] += 1
        at += 9 + length
    return Opened(limit, kinds[RST_STREAM], sock)
