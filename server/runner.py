"""Engine calls on a bounded worker pool, with the call's deadline as the time limit.

Solves run on a ``ThreadPoolExecutor`` of a fixed size (CP-SAT releases the
GIL, so threads run in parallel); requests beyond it wait in the pool's queue,
and their time limit is taken from what is left of the deadline when they
start. The search stops early when the call ends (client cancel, deadline):
the call's ``CancelToken`` is handed to the engine.

DESIGN.md §4: a solve that cannot prove optimality in time is
``DEADLINE_EXCEEDED``, unless the request allows a partial answer: then the
best routes found come back with ``proven_optimal`` false.

Move suggestions (issue 6) rank many boards in one job, on the engine's own
small thread pool (``suggest_workers`` solves at once). When the time runs
out the moves ranked so far come back and ``not_evaluated`` lists the rest;
only when no move at all could be ranked is it ``DEADLINE_EXCEEDED``. The
call's ``CancelToken`` stops the ranking when the call ends.

A request may give its board as a game log and an action id (issues 5 and 6):
the engine replays the log on the worker (``engine.api.state_from_log``, a
few hundred ms at most for a whole game) before the time limit is taken from
what is left of the deadline.
"""

from __future__ import annotations

import time
from concurrent.futures import CancelledError, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine import api
from engine.state_file import parse_state
from engine.routes import check_route_references, parse_route_specs
from engine.state_file import RouteState
from server.converters import LogSource, Source, SolveArgs
from server.errors import DeadlineExceeded, ServerStopping
from server.suggest_converters import SuggestArgs

if TYPE_CHECKING:
    from solver.cancel import CancelToken  # the engine hands these out: api.new_cancel_token

SolveFn = Callable[..., dict[str, Any]]
CheckFn = Callable[[Any, Any], dict[str, Any]]
SuggestFn = Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class Limits:
    """Time bounds for one solve, in seconds."""

    #: Used when the request gives no time limit (and the deadline allows it).
    default_time_limit_s: float = 10.0
    #: No request may ask for more.
    max_time_limit_s: float = 60.0
    #: Kept back from the client's deadline for building and sending the answer.
    deadline_margin_s: float = 0.05
    #: Used for a SuggestMoves request without a time limit (as ``route18xx suggest``).
    default_suggest_time_limit_s: float = 30.0
    #: Share of what is left of a deadline kept back from the suggestion ranking:
    #: after the ranking the engine solves again the few top moves that shared
    #: another board's solve, for their own routes (a few ms each).
    suggest_report_share: float = 0.1


def board(source: Source) -> dict[str, Any] | RouteState:
    """A request's board for the engine: a state file as is, a game log replayed."""
    if isinstance(source, LogSource):
        return api.state_from_log(source.log, source.action_id)
    return source


class EngineRunner:
    """Runs engine calls on ``workers`` threads; one instance per server."""

    def __init__(
        self,
        workers: int,
        limits: Limits = Limits(),
        solve_fn: SolveFn = api.solve_routes,
        check_fn: CheckFn = api.check_routes,
        suggest_fn: SuggestFn = api.suggest_moves,
        suggest_workers: int = 2,
    ) -> None:
        self.workers = workers
        self.suggest_workers = suggest_workers
        self.limits = limits
        self._solve_fn = solve_fn
        self._check_fn = check_fn
        self._suggest_fn = suggest_fn
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="route18xx-engine")

    def time_limit(
        self, requested: float | None, deadline: float | None, *,
        default: float | None = None, keep_back: float = 0.0,
    ) -> float:
        """The engine's time limit now: the request's (or ``default``), capped by the deadline.

        ``keep_back`` is the share of the time left before the deadline that the
        engine may not use (for work it does after its limit).
        """
        limit = requested or (self.limits.default_time_limit_s if default is None else default)
        limit = min(limit, self.limits.max_time_limit_s)
        if deadline is not None:
            left = deadline - time.monotonic() - self.limits.deadline_margin_s
            if left <= 0:
                raise DeadlineExceeded("the deadline leaves no time to solve")
            limit = min(limit, left * (1.0 - keep_back))
        return limit

    def solve(
        self, args: SolveArgs, deadline: float | None, cancel: CancelToken
    ) -> dict[str, Any]:
        """Solve on the pool; raise ``DeadlineExceeded`` unless proven (or partial allowed)."""

        def job() -> tuple[dict[str, Any], float]:
            state = board(args.state)
            limit = self.time_limit(args.time_limit_s, deadline)
            if cancel.cancelled:
                raise DeadlineExceeded("the call ended before the solve started")
            report = self._solve_fn(
                state, objective=args.objective, time_limit_s=limit, cancel=cancel
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

    def suggest(
        self, args: SuggestArgs, deadline: float | None, cancel: CancelToken | None = None
    ) -> dict[str, Any]:
        """Rank the moves on the pool; ``DeadlineExceeded`` only if none could be ranked."""

        def job() -> tuple[dict[str, Any], float]:
            state = board(args.state)
            limit = self.time_limit(
                args.time_limit_s, deadline,
                default=self.limits.default_suggest_time_limit_s,
                keep_back=self.limits.suggest_report_share,
            )
            report = self._suggest_fn(
                state, top=args.top, include_tokens=args.include_tokens,
                subtract_cost=args.subtract_cost, objective=args.objective,
                time_limit_s=limit, workers=self.suggest_workers,
                cancel=cancel,
            )
            return report, limit

        report, limit = self._run(job)
        if report["not_evaluated"] and not report["suggestions"]:
            raise DeadlineExceeded(
                f"no move could be ranked within the {limit:.3f} s time limit "
                f"({len(report['not_evaluated'])} of {report['candidates']} not evaluated)"
            )
        return report

    def check(self, source: Source, routes: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Judge routes on the pool; names of hexes and nodes must exist on the board."""

        def job() -> dict[str, Any]:
            state = board(source)
            if not isinstance(state, RouteState):
                state = parse_state(state)
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
