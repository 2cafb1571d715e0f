"""Readiness: may this server be sent calls now? (issue 23, item 5)

Liveness is gRPC health's overall status (``""``), as before: SERVING once
started, NOT_SERVING while a lane is stalled or the server is stopping.
Readiness is what a load balancer should route by: ``/readyz`` on HTTP and the
health service's per-service status (``route18xx.v1.RouteService``). It is
false

* while warming up: the engine is loaded and solves once, and the engine
  worker processes boot (calls sent meanwhile are served, but wait or pay for
  the loading);
* while draining: after SIGTERM, calls in flight get their grace and new ones
  are refused;
* while a lane is stalled (the watchdog in ``server.app``).
"""

from __future__ import annotations

import threading

WARMING_UP = "warming up"
DRAINING = "draining"
STALLED = "a lane is stalled"


class Readiness:
    """The reasons the server is not ready; ready when there are none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reasons: set[str] = {WARMING_UP}

    def set(self, reason: str, present: bool) -> None:
        """``reason`` holds (``present``) or no longer does."""
        with self._lock:
            if present:
                self._reasons.add(reason)
            else:
                self._reasons.discard(reason)

    def reasons(self) -> list[str]:
        """Why the server is not ready, in a fixed order (empty: ready)."""
        with self._lock:
            return [r for r in (WARMING_UP, DRAINING, STALLED) if r in self._reasons]

    @property
    def ready(self) -> bool:
        return not self.reasons()
