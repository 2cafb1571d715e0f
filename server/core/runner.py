"""Engine calls bounded by the call's deadline (DESIGN.md §4, §8; issue 9).

An ``EngineRunner`` runs on a lane's worker thread (``server.lanes``) and does
one call's engine work: build the board (a state file as is, a game log
replayed), then solve, judge or rank. Every step reads its time from the call's
``CancelToken``, whose deadline is the client's (or the server's maximum per
call when the client sets none): the replay and the validation poll it, the
solver's time limit is what is left of it, and a suggestion ranking gets it
whole (minus a share kept for the routes of its top moves).

DESIGN.md §4: a solve that cannot prove optimality in time is
``DEADLINE_EXCEEDED``, unless the request allows a partial answer: then the
best routes found come back with ``proven_optimal`` false. A suggestion
ranking cut short returns the moves ranked so far (``not_evaluated`` lists
the rest); only when no move could be ranked is it ``DEADLINE_EXCEEDED``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from msgspec.structs import replace

from route18xx.engine import api
from route18xx.engine.api import MalformedInput, SuggestReport
from route18xx.server.core.log_source import LogSite, LogSourceConfig
from route18xx.server.convert import converters
from route18xx.server.convert.converters import CheckArgs, LogSource, Source, SolveArgs, board
from route18xx.server.core.errors import DeadlineExceeded
from route18xx.server.convert.suggest_converters import SuggestArgs
from route18xx.server.convert.turn_converters import TurnArgs

if TYPE_CHECKING:
    from route18xx.engine.api import CancelToken  # the engine hands these out: api.new_cancel_token

SolveFn = Callable[..., api.SolveReport | dict[str, Any]]
CheckFn = Callable[..., api.CheckReport | dict[str, Any]]
SuggestFn = Callable[..., SuggestReport]


@dataclass(frozen=True)
class Limits:
    """Time bounds of one call, in seconds."""

    #: Used when a solve request gives no time limit (and the deadline allows it).
    default_time_limit_s: float = 10.0
    #: No request may ask for more.
    max_time_limit_s: float = 60.0
    #: The deadline of a call whose client sets none: no call runs longer.
    max_call_s: float = 30.0
    #: Kept back from the client's deadline for building and sending the answer.
    deadline_margin_s: float = 0.05
    #: Used for a SuggestMoves request without a time limit (as ``route18xx suggest``).
    default_suggest_time_limit_s: float = 30.0
    #: Share of what is left of a deadline kept back from the suggestion ranking:
    #: after the ranking the engine solves again the few top moves that shared
    #: another board's solve, for their own routes (a few ms each).
    suggest_report_share: float = 0.1
    #: How long a call may take to send its request message after its headers.
    receive_timeout_s: float = 5.0


class EngineRunner:
    """The engine's three calls, each bounded by its ``CancelToken``'s deadline."""

    def __init__(
        self,
        limits: Limits = Limits(),
        solve_fn: SolveFn = api.solve_report,
        check_fn: CheckFn = api.check_report,
        suggest_fn: SuggestFn = api.suggest_moves,
        suggest_workers: int = 2,
        log_source: LogSourceConfig = LogSourceConfig(),
    ) -> None:
        self.limits = limits
        self.suggest_workers = suggest_workers
        #: the one site game logs are fetched from (``FetchGameLog``, ``server.log_source``).
        self.log_source = log_source
        #: its fetches in flight and whether it answers (issue 34: a slow site is the fetch's
        #: trouble alone).
        self.log_site = LogSite(log_source)
        self._solve_fn = solve_fn
        self._check_fn = check_fn
        self._suggest_fn = suggest_fn

    def time_limit(
        self, requested: float | None, cancel: CancelToken, *,
        default: float | None = None, keep_back: float = 0.0,
    ) -> float:
        """The engine's time limit now: the request's (or ``default``), capped by the deadline.

        ``keep_back`` is the share of the time left before the deadline that the
        engine may not use (for work it does after its limit).
        """
        limit = requested or (self.limits.default_time_limit_s if default is None else default)
        limit = min(limit, self.limits.max_time_limit_s)
        left = cancel.time_left()
        if left is not None:
            if left <= 0:
                raise DeadlineExceeded("the deadline leaves no time to solve")
            limit = min(limit, left * (1.0 - keep_back))
        return limit

    def solve(self, args: SolveArgs, cancel: CancelToken) -> api.SolveReport:
        """Solve; raise ``DeadlineExceeded`` unless proven (or a partial answer is allowed)."""
        state = board(args.state, cancel)
        limit = self.time_limit(args.time_limit_s, cancel)
        options: dict[str, Any] = {}
        if args.pinned_routes is not None:
            options["pinned_routes"] = args.pinned_routes
        if args.train_sets is not None:
            options["train_sets"] = args.train_sets
        answer = self._solve_fn(
            state, objective=args.objective, time_limit_s=limit, cancel=cancel, **options
        )
        report = answer if isinstance(answer, api.SolveReport) else api.SolveReport.from_json(answer)
        if report.proven_optimal:
            return report
        if args.allow_partial and report.status == "FEASIBLE":
            return report
        found = "no routes" if report.status == "UNKNOWN" else "no proof of optimality"
        hint = "" if args.allow_partial else "; set allow_partial for the best routes found"
        raise DeadlineExceeded(f"{found} within the {limit:.3f} s time limit{hint}")

    def suggest(self, args: SuggestArgs, cancel: CancelToken) -> SuggestReport:
        """Rank the moves; ``DeadlineExceeded`` only if none could be ranked."""
        state = board(args.state, cancel)
        limit = self.time_limit(
            args.time_limit_s, cancel,
            default=self.limits.default_suggest_time_limit_s,
            keep_back=self.limits.suggest_report_share,
        )
        # issue 22's options go to the engine only when asked (stand-in engines lack them)
        extra = {k: v for k, v in (("improving_only", args.improving_only),
                                   ("merge_equal", args.merge_equal),
                                   ("combined", args.combined)) if v}
        report = self._suggest_fn(
            state, top=args.top, include_tokens=args.include_tokens,
            subtract_cost=args.subtract_cost, objective=args.objective,
            time_limit_s=limit, workers=self.suggest_workers, cancel=cancel, **extra,
        )
        ranked_nothing = not args.improving_only or report.solved + report.reused == 0
        if report.not_evaluated and not report.suggestions and ranked_nothing:
            raise DeadlineExceeded(
                f"no move could be ranked within the {limit:.3f} s time limit "
                f"({len(report.not_evaluated)} of {report.candidates} not evaluated)"
            )
        if isinstance(args.state, converters.LogSource) and self._suggest_fn is api.suggest_moves:
            # what the player did at this turn, beside the suggestions (issue 22)
            recorded = api.recorded_turn(
                args.state.log, args.state.action_id, api.read_state(state), report.base_income,
                objective=args.objective, time_limit_s=self.time_limit(None, cancel),
                cancel=cancel, rules_as_of=args.state.rules_as_of or None)
            report = replace(report, recorded=recorded)
        return report

    def suggest_turn(self, args: TurnArgs, cancel: CancelToken) -> api.TurnReport:
        """Rank the turn's plans (issue 24); ``DeadlineExceeded`` only if none could be ranked."""
        limit = self.time_limit(
            args.time_limit_s, cancel,
            default=self.limits.default_suggest_time_limit_s,
            keep_back=self.limits.suggest_report_share,
        )
        options: dict[str, Any] = dict(
            top=args.top, subtract_cost=args.subtract_cost, objective=args.objective,
            time_limit_s=limit, trains=args.trains, cancel=cancel,
        )
        if isinstance(args.state, LogSource):
            report = api.suggest_turn(None, game_log=args.state.log, action_id=args.state.action_id,
                                      rules_as_of=args.state.rules_as_of or None, **options)
        else:
            report = api.suggest_turn(args.state, market=args.market, **options)
        if report.unranked and not report.plans:
            raise DeadlineExceeded(
                f"no plan could be ranked within the {limit:.3f} s time limit "
                f"({len(report.unranked)} of {report.candidates} unranked)"
            )
        return report

    def check(
        self, source: Source, routes: Sequence[dict[str, Any]], cancel: CancelToken,
        args: CheckArgs = CheckArgs(),
    ) -> api.CheckReport:
        """Judge routes; names of hexes and nodes must exist on the board. With
        ``args.compare`` the engine also solves the board, within the deadline."""
        return self._check(board(source, cancel), routes, cancel, args)

    def _check(
        self, state: dict[str, Any] | api.RouteState, routes: Sequence[dict[str, Any]],
        cancel: CancelToken, args: CheckArgs,
    ) -> api.CheckReport:
        options: dict[str, Any] = {}
        if args.compare:
            options = {"compare": True, "objective": args.objective,
                       "time_limit_s": self.time_limit(args.time_limit_s, cancel)}
        try:
            answer = self._check_fn(state, list(routes), cancel=cancel, **options)
        except MalformedInput as exc:
            raise converters.proto_route_field(exc) from None
        return answer if isinstance(answer, api.CheckReport) else api.CheckReport.from_json(answer)


    def check_paths(
        self, source: Source, paths: list[dict[str, Any]], cancel: CancelToken,
        args: CheckArgs = CheckArgs(),
    ) -> tuple[api.CheckReport, list[api.HexPathReading]]:
        """Judge each train's hex path as the engine reads it (``api.read_hex_paths``: cut
        where the track lets it stop); the readings come back beside the judgement, and a
        route's field in an error names the path it was read from (``hex_paths[i]``)."""
        state = board(source, cancel)
        options: dict[str, Any] = {}
        if args.compare:
            options = {"compare": True, "objective": args.objective,
                       "time_limit_s": self.time_limit(args.time_limit_s, cancel)}
        return api.check_hex_paths(state, paths, cancel=cancel, **options)


def call_deadline(client_remaining_s: float | None, limits: Limits) -> float:
    """A call's deadline on the ``time.monotonic`` clock: the client's, or the server's maximum."""
    budget = limits.max_call_s
    if client_remaining_s is not None:
        budget = min(budget, client_remaining_s)
    return time.monotonic() + budget
