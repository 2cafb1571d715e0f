"""A RouteService started in this process for a test (port 0 unless its config says else)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server


@contextmanager
def started_server(config: ServerConfig, *, stop_wait_s: float | None = None,
                   **stand_ins: Any) -> Iterator[RouteServer]:
    """A server of ``config`` (solves by the real engine, or by ``stand_ins`` such as
    ``solve_fn=``), started; stopped at once when the block ends, waiting up to
    ``stop_wait_s`` (None: until it has stopped)."""
    srv = create_server(config, **stand_ins)
    srv.start()
    srv.wait_booted(120)  # the tests' calls reach the worker processes, not the boot-time threads
    try:
        yield srv
    finally:
        srv.stop(0).wait(stop_wait_s)
