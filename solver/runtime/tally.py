"""A count of this process's solves, by status, for a server's metrics (issue 23).

The server's metrics count every solve (``route18xx_solves_total`` by status,
``route18xx_solve_duration_seconds``), not only the SolveRoutes answers that
carry a status: the solves inside validations, suggestions and turns, and those
of calls that failed, count too. ``solve`` records each here, while counting is
on (``SolveTally.enable``: a server and its engine workers turn it on; the command
line never does, so nothing grows there); the server takes what was recorded at
the end of each call and at each scrape, and a worker process sends its records
back with each job's answer. ``uncounted`` leaves out the solves of one thread
(a warm-up solve is not a client's).

Each record is (status, seconds): status ``OPTIMAL``, ``FEASIBLE``, ``INFEASIBLE``,
``UNKNOWN``, or ``ERROR`` when the solve raised; seconds from the call to its end.

>>> t = SolveTally()
>>> t.record("OPTIMAL", 0.01)
>>> t.take()
[]
>>> t.enable(); t.record("OPTIMAL", 0.01); t.take(), t.take()
([('OPTIMAL', 0.01)], [])
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterable, Iterator

#: One solve: its status and its time (seconds).
Record = tuple[str, float]
#: Records kept untaken at most (a server takes them at every call's end; past this, a
#: process that turned counting on and never takes them drops the newest).
MAX_RECORDS = 100_000


class SolveTally:
    """Solves recorded since they were last taken (module docstring); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[Record] = []
        self._enabled = False
        self._local = threading.local()

    def enable(self, on: bool = True) -> None:
        """Count solves from now on (``on=False``: stop, and forget what was not taken)."""
        with self._lock:
            self._enabled = on
            if not on:
                self._records.clear()

    def record(self, status: str, seconds: float) -> None:
        """One solve ended (ignored while counting is off or in an ``uncounted`` thread)."""
        if not self._enabled or getattr(self._local, "uncounted", False):
            return
        with self._lock:
            if self._enabled and len(self._records) < MAX_RECORDS:
                self._records.append((status, seconds))

    def add(self, records: Iterable[Record]) -> None:
        """Solves another process recorded (a worker's, sent with its answer)."""
        with self._lock:
            if self._enabled:
                self._records.extend(records)
                del self._records[MAX_RECORDS:]

    def take(self) -> list[Record]:
        """The solves recorded since the last ``take``, oldest first."""
        with self._lock:
            records, self._records = self._records, []
        return records

    @contextmanager
    def uncounted(self) -> Iterator[None]:
        """Solves of this thread inside the block are not recorded."""
        before = getattr(self._local, "uncounted", False)
        self._local.uncounted = True
        try:
            yield
        finally:
            self._local.uncounted = before


#: The process's tally.
solve_tally = SolveTally()
