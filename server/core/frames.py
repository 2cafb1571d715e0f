"""The frames between the server and its engine worker processes (``server.workers``).

A frame is a 13-byte header — kind (1 byte), job id (8 bytes), body length
(4 bytes), network order — and its body. Kinds:

* ``READY`` worker → server, once: the worker has warmed up;
* ``JOB`` server → worker: a pickled (method name, request bytes, deadline);
* ``CANCEL`` server → worker: stop job ``id`` (no body);
* ``ANSWER`` worker → server: the serialized response of job ``id``;
* ``ERROR`` worker → server: the pickled exception job ``id`` raised;
* ``SOLVES`` worker → server, before job ``id``'s answer when it solved: the JSON list
  of its solves' [status, seconds] (``solver.tally``, the server's solver metrics).

Both ends are this package's own processes, started by the server: the bodies
are trusted (pickle), the client's bytes travel inside them untouched.
"""

from __future__ import annotations

import socket
import struct

READY, JOB, CANCEL, ANSWER, ERROR, SOLVES = range(6)
HEADER = struct.Struct("!BQI")


def frame(kind: int, job_id: int, body: bytes) -> bytes:
    """A frame's bytes."""
    return HEADER.pack(kind, job_id, len(body)) + body


def write_frame(sock: socket.socket, kind: int, job_id: int, body: bytes) -> None:
    """Send one frame on a blocking socket."""
    sock.sendall(frame(kind, job_id, body))


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(sock: socket.socket) -> tuple[int, int, bytes] | None:
    """The next frame from a blocking socket: (kind, job id, body); None at end of file."""
    header = _read_exactly(sock, HEADER.size)
    if header is None:
        return None
    kind, job_id, size = HEADER.unpack(header)
    body = _read_exactly(sock, size) if size else b""
    if body is None:
        return None
    return kind, job_id, body
