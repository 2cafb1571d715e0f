"""One budget for a whole answer (issue 21 item 4: a call's budget is the call's).

A solve answer may make several solves: the requested objective, the other
objective when the board pays a subsidy (``objectives``), the optimum without
pins, each what-if train set. ``time_limit_s`` bounds all of them together: an
``AnswerBudget`` holds one deadline (the limit from the answer's start, or the
caller's own deadline when sooner) in a ``CancelToken`` that every solve gets,
and the caller's token, when cancelled, cancels it too.

Each solve is still handed the request's ``time_limit_s``, not what is left:
the solver chooses its stages from that figure alone, so the same request does
the same work under any load (issue 21 item 3); the shared deadline only stops
a search that runs out of time.

The budget also keeps each solve's timing (``SolveTiming``) for the answer's
``stats["solves"]``, beside ``solve_ms``: the engine's time of the whole
answer, from the parsed state to the report.
"""

from __future__ import annotations

import time
from types import TracebackType

from route18xx.engine.declared import Declared
from route18xx.solver import CancelToken, Solution


class SolveTiming(Declared, frozen=True):
    """One solve of an answer: what it maximised for which trains, and its cost.

    ``solve_ms`` is the engine's time for it (the problem with pins taken out, the
    solver's reduce, model and search, the routes re-judged); ``solver_ms`` the
    solver's reduce, model and search; ``search_ms`` the CP-SAT search alone (times in ms,
    rounded to 3 decimals as printed); ``branches``/``conflicts`` CP-SAT's work (0: no
    search); ``floor`` the figure the solve had to beat (``engine.objectives``; 0: none).
    """

    purpose: str
    objective: str
    trains: tuple[str, ...]
    status: str
    solve_ms: float
    solver_ms: float
    search_ms: float
    branches: int
    conflicts: int
    floor: int = 0

    @classmethod
    def of(cls, purpose: str, objective: str, trains: tuple[str, ...], solution: Solution,
           ms: float, floor: int = 0) -> SolveTiming:
        """A solve above a floor (``engine.objectives``) that proved nothing reaches it
        settled its objective: its status is ``OPTIMAL`` (the answer it was to beat)."""
        stats = solution.stats
        status = "OPTIMAL" if solution.status == "INFEASIBLE" else solution.status
        return cls(purpose, objective, trains, status, round(ms, 3),
                   round(stats.build_ms + stats.reduce_ms + stats.solver_ms, 3),
                   round(stats.solver_ms, 3), stats.branches, stats.conflicts, floor)


class _SearchToken(CancelToken):
    """The budget's token: its ``deadline`` ends every search (the solver caps CP-SAT
    at it), but it reads as ``cancelled`` only when cancelled or past the caller's
    own deadline, so model building and the re-checks still finish within the call
    and a search cut short still answers with its best routes (issue 11)."""

    def __init__(self, deadline: float, call_deadline: float | None) -> None:
        super().__init__(deadline)
        self.call_deadline = call_deadline

    @property
    def cancelled(self) -> bool:
        return self._cancelled or self.expired

    @property
    def expired(self) -> bool:
        return self.call_deadline is not None and time.monotonic() >= self.call_deadline


class _Forward:
    """Stops the budget's token when the caller's is cancelled (``CancelToken.attach``)."""

    def __init__(self, token: CancelToken) -> None:
        self.token = token

    def stop_search(self) -> None:
        self.token.cancel()


class AnswerBudget:
    """The deadline every solve of one answer shares, and their timings.

    Use as a context manager: on exit the caller's token forgets the budget's.

    >>> with AnswerBudget(2.0) as budget:
    ...     0 < budget.token.time_left() <= 2.0
    True
    """

    def __init__(self, time_limit_s: float, cancel: CancelToken | None = None,
                 deadline: float | None = None) -> None:
        """``deadline`` (``time.monotonic()``) replaces ``time_limit_s`` from now as
        the end of the budget; the caller's deadline, when sooner, still ends it."""
        self.started = time.perf_counter()
        self.time_limit_s = time_limit_s
        if deadline is None:
            deadline = time.monotonic() + max(time_limit_s, 0.0)
        call_deadline = None if cancel is None else cancel.deadline
        if call_deadline is not None:
            deadline = min(deadline, call_deadline)
        self.token: CancelToken = _SearchToken(deadline, call_deadline)
        self.solves: list[SolveTiming] = []
        self._parent = cancel
        self._forward = _Forward(self.token)
        if cancel is not None and not cancel.attach(self._forward):
            self.token.cancel()

    def __enter__(self) -> AnswerBudget:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._parent is not None:
            self._parent.detach(self._forward)

    def record(self, timing: SolveTiming) -> None:
        self.solves.append(timing)

    def elapsed_ms(self) -> float:
        """The engine's time since the answer started."""
        return (time.perf_counter() - self.started) * 1000.0
