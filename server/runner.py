"""Engine calls on a bounded worker pool, with the call's deadline as the time limit.

Solves run on a ``ThreadPoolExecutor`` of a fixed size (CP-SAT releases the
GIL, so threads run in parallel); requests beyond it wait in the pool's queue,
and their time limit is taken from what is left of the deadline when they
start. The search stops early when the call ends (client cancel, deadline):
the call's ``CancelToken`` is handed to the engine.

DESIGN.md §4: a solve that cannot prove optimality in time is
``DEADLINE_EXCEEDED``, unless the request allows a partial answer: then the
best routes found come back with ``proven_optimal`` false.
"""

from __future__ import annotations

import time
from concurrent.futures import CancelledError, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine import api
from engine.state_file import parse_state
from server.converters import SolveArgs
from server.errors import DeadlineExceeded, ServerStopping
from engine.routes import check_route_references, parse_route_specs

if TYPE_CHECKING:
    from solver.cancel import CancelToken  # the engine hands these out: api.new_cancel_token

SolveFn = Callable[..., dict[str, Any]]
CheckFn = Callable[[Any, Any], dict[str, Any]]


@dataclass(frozen=True)
class Limits:
    """Time bounds for one solve, in seconds."""

    #: Used when the request gives no time limit (and the deadline allows it).
    default_time_limit_s: float = 10.0
    #: No request may ask for more.
    max_time_limit_s: float = 60.0
    #: Kept back from the client's deadline for building and sending the answer.
    deadline_margin_s: float = 0.05


class EngineRunner:
    """Runs engine calls on ``workers`` threads; one instance per server."""

    def __init__(
        self,
        workers: int,
        limits: Limits = Limits(),
        solve_fn: SolveFn = api.solve_routes,
        check_fn: CheckFn = api.check_routes,
    ) -> None:
        self.workers = workers
        self.limits = limits
        self._solve_fn = solve_fn
        self._check_fn = check_fn
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="route18xx-engine")

    def time_limit(self, requested: float | None, deadline: float | None) -> float:
        """The solver's time limit now: the request's (or default), capped by the deadline."""
        limit = min(requested or self.limits.default_time_limit_s, self.limits.max_time_limit_s)
        if deadline is not None:
            left = deadline - time.monotonic() - self.limits.deadline_margin_s
            if left <= 0:
                raise DeadlineExceeded("the deadline leaves no time to solve")
            limit = min(limit, left)
        return limit

    def solve(
        self, args: SolveArgs, deadline: float | None, cancel: CancelToken
    ) -> dict[str, Any]:
        """Solve on the pool; raise ``DeadlineExceeded`` unless proven (or partial allowed)."""

        def job() -> tuple[dict[str, Any], float]:
            limit = self.time_limit(args.time_limit_s, deadline)
            if cancel.cancelled:
                raise DeadlineExceeded("the call ended before the solve started")
            report = self._solve_fn(
                args.state, objective=args.objective, time_limit_s=limit, cancel=cancel
            )
            return report, limit

        report, limit = self._run(job)
        if report.get("proven_optimal"):
            return report
        if args.allow_partial and report.get("status") == "FEASIBLE":
            return report
        found = "no routes" if report.get("status") == "UNKNOWN" else "no proof of optimality"
        hint = "" if args.allow_partial else "; set allow_partial for the best routes found"
        raise DeadlineExceeded(f"{found} within the {limit:.3f} s time limit{hint}")

    def check(self, state_raw: Any, routes: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Judge routes on the pool; names of hexes and nodes must exist on the board."""

        def job() -> dict[str, Any]:
            state = parse_state(state_raw)
            check_route_references(state, parse_route_specs(list(routes)), hexes_key=".hexes")
            return self._check_fn(state, list(routes))

        return self._run(job)

    def _run(self, job: Callable[[], Any]) -> Any:
        try:
            future = self._pool.submit(job)
        except RuntimeError:
            raise ServerStopping("the server is shutting down") from None
        try:
            return future.result()
        except CancelledError:
            raise ServerStopping("the server is shutting down") from None

    def shutdown(self) -> None:
        """Stop taking work; queued jobs are dropped, running ones finish."""
        self._pool.shutdown(wait=False, cancel_futures=True)
