"""Cancelling a running solve from another thread (DESIGN.md §7 CP-SAT notes).

CP-SAT releases the GIL while it searches, so a server can run ``solve`` on a
worker thread and stop it when the client goes away: pass a ``CancelToken`` to
``solve`` and call ``token.cancel()`` from any thread. A cancelled solve
returns at once with the best routes found so far (status ``FEASIBLE``) or
none (``UNKNOWN``); a token cancelled before the search starts skips it.

A token may also carry a deadline (on the ``time.monotonic`` clock): once it
has passed, the token reads as cancelled, so every loop that polls
``cancelled`` (model building, route listing, the engine's replay and
validation) stops at the deadline as well as on an explicit cancel.
``time_left()`` tells a search how long it may run.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

#: Steps between two looks at a cancel token in the solver's walks (its deadline reads
#: the clock, ~60 ns; a step costs 1-40 µs, so a cancelled walk stops within about
#: 10 ms); the walks also look before the walk from each first stop.
CANCEL_POLL = 256


class Stoppable(Protocol):
    """A running search that can be asked to stop (CP-SAT's ``SolveWrapper``)."""

    def stop_search(self) -> None: ...


class CancelToken:
    """A thread-safe "stop searching" switch for one or more solves.

    >>> token = CancelToken()
    >>> token.cancelled
    False
    >>> token.cancel()
    >>> token.cancelled
    True
    """

    def __init__(self, deadline: float | None = None) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._solvers: list[Stoppable] = []
        #: ``time.monotonic()`` value after which the token reads as cancelled.
        self.deadline = deadline

    @property
    def cancelled(self) -> bool:
        """True once ``cancel()`` was called or the deadline has passed."""
        if self._cancelled:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    @property
    def expired(self) -> bool:
        """True when the deadline (not an explicit cancel) is what ended the work."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def time_left(self) -> float | None:
        """Seconds until the deadline (may be negative), or None without one."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def cancel(self) -> None:
        """Stop every solve using this token now, and any later one before it starts."""
        with self._lock:
            self._cancelled = True
            for solver in self._solvers:
                solver.stop_search()

    def attach(self, solver: Stoppable) -> bool:
        """Register a search about to start; False if already cancelled (skip it).

        A stop requested between ``attach`` and the start of the search is not
        lost: CP-SAT's ``SolveWrapper`` keeps the request for its next solve.
        """
        with self._lock:
            if self._cancelled:
                return False
            self._solvers.append(solver)
            return True

    def detach(self, solver: Stoppable) -> None:
        """Forget a solver whose search has ended."""
        with self._lock:
            if solver in self._solvers:
                self._solvers.remove(solver)
