"""Stalled gRPC calls for the call-cap and health tests (issue 20): calls that send their
headers and never their request message, from connections of their own."""

from __future__ import annotations

import threading
import time
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
