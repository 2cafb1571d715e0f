"""Stalled gRPC calls for the call-cap and health tests (issue 20): calls that send their
headers and never their request message, from connections of their own."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc

SOLVE = "/route18xx.v1.RouteService/SolveRoutes"
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
#: A subchannel pool of its own: each channel opened with it is a connection nobody shares.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def never(release: threading.Event, within_s: float) -> Iterator[bytes]:
    """A request stream that sends no message: it ends once ``release`` is set (or after
    ``within_s``)."""
    release.wait(within_s)
    return
    yield b""  # pragma: no cover


def wait_until(test: Callable[[], Any], within_s: float = 10, what: str = "timed out") -> None:
    """Return once ``test()`` is true; fail with ``what`` if it is not within ``within_s``."""
    end = time.monotonic() + within_s
    while not test():
        assert time.monotonic() < end, what
        time.sleep(0.02)


@contextmanager
def stalled_on(channel: grpc.Channel, calls: int, *, method: str = SOLVE,
               timeout_s: float = 30) -> Iterator[list[Any]]:
    """``calls`` calls of ``method`` on ``channel`` (the caller's: its other calls share the
    connection) that never send their message; released and cancelled when the block ends."""
    release = threading.Event()
    stream = channel.stream_unary(method)
    stalled = [stream.future(never(release, timeout_s), timeout=timeout_s) for _ in range(calls)]
    try:
        yield stalled
    finally:
        release.set()
        for call in stalled:
            call.cancel()


class Reopening:
    """An attacker that keeps ``calls`` silent calls open on each of ``channels``, re-opening
    each one the server ends (issue 34), until ``stop``; ``opened`` counts the calls."""

    def __init__(self, channels: list[grpc.Channel], calls: int, method: str = SOLVE) -> None:
        self._release = threading.Event()
        self._streams = [channel.stream_unary(method) for channel in channels]
        self._calls = calls
        self.opened = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _open(self, stream: Any) -> Any:
        self.opened += 1
        return stream.future(never(self._release, 60), timeout=60)

    def _run(self) -> None:
        held = [[self._open(stream) for _ in range(self._calls)] for stream in self._streams]
        while not self._release.wait(0.02):
            for stream, calls in zip(self._streams, held):
                calls[:] = [c if not c.done() else self._open(stream) for c in calls]
        for calls in held:
            for call in calls:
                call.cancel()

    def stop(self) -> None:
        self._release.set()
        self._thread.join(10)


@contextmanager
def stalled_calls(target: str, calls: int, *, connections: int = 1, method: str = SOLVE,
                  timeout_s: float = 30) -> Iterator[list[Any]]:
    """``calls`` calls of ``method`` to ``target`` that never send their message, spread in
    turn over ``connections`` connections of their own (each call's deadline ``timeout_s``).
    When the block ends the calls are released and cancelled and the connections closed."""
    release = threading.Event()
    channels = [grpc.insecure_channel(target, options=OWN_CONNECTION) for _ in range(connections)]
    stalled: list[Any] = []
    try:
        for i in range(calls):
            stream = channels[i % connections].stream_unary(method)
            stalled.append(stream.future(never(release, timeout_s), timeout=timeout_s))
        yield stalled
    finally:
        release.set()
        for call in stalled:
            call.cancel()
        for channel in channels:
            channel.close()


def reopening_process(target: str, connections: int, calls: int) -> subprocess.Popen[bytes]:
    """A ``Reopening`` attacker in a process of its own (a separate client: its threads do
    not share the test's interpreter), ``calls`` silent calls on each of ``connections``
    connections of its own, until the process is terminated."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.server.stalled", target, str(connections), str(calls)],
        cwd=Path(__file__).resolve().parents[2], stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    _target, _connections, _calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    _channels = [grpc.insecure_channel(_target, options=OWN_CONNECTION)
                 for _ in range(_connections)]
    Reopening(_channels, _calls)
    threading.Event().wait()
