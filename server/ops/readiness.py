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

A dependency never makes the server unready (issue 34, item 2): a slow or
failing log site marks only ``FetchGameLog`` unavailable (``unavailable``,
listed by ``/readyz`` while it stays 200, and its own health status), as a full
lane refuses only its own calls. An orchestrator restarting a healthy server
would not bring the site back.
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
        self._unavailable: set[str] = set()

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

    def set_unavailable(self, call: str, unavailable: bool) -> None:
        """The calls named ``call`` cannot be answered now (a dependency fails), or can again."""
        with self._lock:
            if unavailable:
                self._unavailable.add(call)
            else:
                self._unavailable.discard(call)

    def unavailable(self) -> list[str]:
        """The calls a dependency keeps from answering now; readiness does not depend on them."""
        with self._lock:
            return sorted(self._unavailable)

    @property
    def ready(self) -> bool:
        return not self.reasons()
