"""One GET from the log site under a total deadline, cancellable (issue 34, item 2).

``urllib``'s ``timeout`` bounds each socket operation, not the whole fetch: a
site that trickled its answer a byte at a time kept a ``FetchGameLog`` (and its
fetch lane) until the site stopped, 120 s in the test, past its 10 s cap; the
four fetch lanes stayed held, and SIGTERM waited for them (118.6 s). Here one
GET is bounded as a whole:

* the deadline covers connecting, the request, the answer's head and its body:
  when it passes, a timer shuts the socket down, which wakes the read blocked
  on it, and the GET fails as timed out (no read waits longer than what is left);
* the call's cancel (the client went away) and the server's shutdown
  (``OpenGets.stop``) shut it down the same way, so its lane is free at once and
  SIGTERM does not wait for the site;
* an answer whose head ``http.client`` cannot read (a bad status line, a line
  over 64 KiB, over 100 headers) is the site's failure (``SiteError``), not an
  unexpected error.

No proxy from the environment and no redirect is followed (``http.client``
follows none): the server talks to the configured site only.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, Mapping

#: Bytes read at once from the body.
CHUNK = 64 * 1024


class SiteError(Exception):
    """The site did not give an answer: ``kind`` is ``timeout``, ``unreachable``,
    ``malformed`` or ``too large``; the message says what happened."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class GetStopped(Exception):
    """The GET was cut short by its call's cancel or by the server's shutdown."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Answer:
    """The site's answer: its status and body (read whole only for 200)."""

    status: int
    body: bytes


class _Closer:
    """Shuts one GET's socket down once, for the first reason that comes (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.reason: str | None = None

    def arm(self, sock: socket.socket) -> socket.socket:
        """The GET's socket, shut down at once if a reason came while it connected."""
        with self._lock:
            self._sock = sock
            if self.reason is not None:
                _shut(sock)
        return sock

    def close(self, reason: str) -> None:
        with self._lock:
            if self.reason is not None:
                return
            self.reason = reason
            if self._sock is not None:
                _shut(self._sock)

    def stop_search(self) -> None:
        """The call's ``CancelToken`` hook (its ``cancel()`` calls it): the client went away."""
        self.close("cancelled")


def _shut(sock: socket.socket) -> None:
    try:  # the base class's: an SSL socket's own would drop its state under a reader
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:  # already closed, or never connected
        pass


class OpenGets:
    """The GETs in flight, so that the server's shutdown cuts them short (``stop``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: set[_Closer] = set()
        self.stopped = False

    def add(self, closer: _Closer) -> None:
        with self._lock:
            self._open.add(closer)
            if self.stopped:
                closer.close("stopping")

    def discard(self, closer: _Closer) -> None:
        with self._lock:
            self._open.discard(closer)

    def stop(self) -> None:
        """Cut every GET in flight short, and any later one as it starts."""
        with self._lock:
            self.stopped = True
            for closer in self._open:
                closer.close("stopping")


def get(
    origin: str, path: str, headers: Mapping[str, str], *, budget_s: float, max_bytes: int,
    cancel: Any = None, gets: OpenGets | None = None,
) -> Answer:
    """GET ``origin + path`` within ``budget_s`` seconds in all; a 200 body up to ``max_bytes``.

    ``cancel``: the call's ``CancelToken`` (its cancel cuts the GET short);
    ``gets``: the server's registry (its ``stop`` cuts it short). Raises
    ``SiteError`` when the site fails and ``GetStopped`` when cut short.
    """
    closer = _Closer()
    timer = threading.Timer(budget_s, closer.close, args=("deadline",))
    timer.daemon = True
    if gets is not None:
        gets.add(closer)
    attached = cancel is not None and cancel.attach(closer)
    if cancel is not None and not attached:
        closer.close("cancelled")
    timer.start()
    try:
        return _exchange(origin, path, headers, budget_s, max_bytes, closer)
    finally:
        timer.cancel()
        if attached:
            cancel.detach(closer)
        if gets is not None:
            gets.discard(closer)


def _exchange(origin: str, path: str, headers: Mapping[str, str], budget_s: float,
              max_bytes: int, closer: _Closer) -> Answer:
    ends = time.monotonic() + budget_s
    scheme, _, netloc = origin.partition("://")
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = http.client.HTTPSConnection(netloc, timeout=budget_s,
                                           context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(netloc, timeout=budget_s)
    # Every socket the connection opens is armed: the deadline reaches the TLS handshake too.
    connect = conn._create_connection  # type: ignore[attr-defined]
    conn._create_connection = (  # type: ignore[attr-defined]
        lambda *args, **kwargs: closer.arm(connect(*args, **kwargs)))
    try:
        conn.request("GET", path, headers=dict(headers))
        response = conn.getresponse()
        if response.status != 200:
            return Answer(response.status, b"")
        length = response.headers.get("Content-Length")
        if length is not None and length.isdigit() and int(length) > max_bytes:
            raise SiteError("too large", f"is {length} bytes long")
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read(min(CHUNK, max_bytes + 1 - size)):
            size += len(chunk)
            if size > max_bytes:
                raise SiteError("too large", f"is over {max_bytes} bytes long")
            chunks.append(chunk)
            if time.monotonic() > ends:
                closer.close("deadline")
                break
    except (OSError, http.client.HTTPException) as exc:
        _raise_cut_short(closer)
        raise _site_error(exc) from None
    finally:
        conn.close()
    _raise_cut_short(closer)  # a body cut at the deadline reads as a short one: not an answer
    return Answer(200, b"".join(chunks))


def _raise_cut_short(closer: _Closer) -> None:
    if closer.reason == "deadline":
        raise SiteError("timeout", "did not answer in time")
    if closer.reason is not None:
        raise GetStopped(closer.reason)


def _site_error(exc: Exception) -> SiteError:
    """The site's failure ``exc`` as a ``SiteError`` of its kind."""
    if isinstance(exc, TimeoutError) or "timed out" in str(exc):
        return SiteError("timeout", "did not answer in time")
    if isinstance(exc, http.client.HTTPException):  # a head or a body it cannot read
        return SiteError("malformed", f"sent an answer that is not HTTP ({type(exc).__name__})")
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
    return SiteError("unreachable", f"cannot be reached ({reason})")
