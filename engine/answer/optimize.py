"""Optimal routes for a state: build the problem, solve it, re-check every answer.

DESIGN.md §1: the engine builds a ``RouteProblem``, calls the game-agnostic
solver, then turns the answer back into 18xx.games ``run_routes`` routes and
judges them with the same validator that judges recorded routes. A solution
the engine rejects, or prices differently, raises ``EngineMismatch``: the
answer is never returned unchecked (STYLE.md §6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from route18xx.engine.answer import tuning
from route18xx.engine.answer.budget import AnswerBudget, SolveTiming
from route18xx.engine.errors import EngineMismatch, MalformedInput
from route18xx.engine.answer.problem_builder import BuiltProblem, build_problem
from route18xx.engine.answer.reports import (
    AnswerBreakdown, AnswerStats, RouteBreakdown, RouteReport, SolveReport,
)
from route18xx.engine.routes.route_judge import Judgement, JudgedRoute, RouteSpec, judge_routes
from route18xx.engine.board.names import company_train_ids
from route18xx.engine.inputs.state_file import RouteState
from route18xx.solver import OBJECTIVES, CancelToken, RouteResult, Solution, solve


@dataclass(frozen=True)
class Optimum:
    """A checked optimum: the solver's solution, its routes as specs, the engine's judgement.

    ``solve_ms`` is the engine's time for the answer, re-check included; ``solves``
    each solve it made (issue 21 item 4: ``stats["solves"]``).
    """

    solution: Solution
    specs: tuple[RouteSpec, ...]
    judgement: Judgement
    solve_ms: float
    solves: tuple[SolveTiming, ...] = ()


def route_spec(built: BuiltProblem, route: RouteResult, train_id: str) -> RouteSpec:
    """One solver route in the 18xx.games ``run_routes`` shape (ROUTES.md §6)."""
    problem = built.problem
    segments = problem.segments
    paths = built.segment_paths
    # ``RouteProblem.is_stop`` inlined: a node is a stop when its index is below the
    # stop count (route_spec ~-40 % CPU over the real states' 182 solved routes, issue 21)
    stops = len(problem.stops)
    connections: list[tuple[str, ...]] = []
    current: list[str] = []
    for seg_index in route.segments:
        segment = segments[seg_index]
        current.append(paths[seg_index][0])
        a_stop = segment.a < stops
        b_stop = segment.b < stops
        if (a_stop and b_stop) or ((a_stop or b_stop) and len(current) > 1):
            connections.append(tuple(current))
            current = []
    nodes = tuple(built.stop_ids[s] for s in route.stops)
    return RouteSpec(train_id, tuple(connections), nodes)


def train_ids(state: RouteState) -> list[str]:
    """18xx.games-style ids for the company's trains: the game's own when the state
    carries them (``RouteState.train_ids``, a state from a log: "3-3"), else ``2-0``,
    ``2-1``, ``D-0`` … (``names.company_train_ids``, the one home of the numbering)."""
    return list(company_train_ids([t.name for t in state.trains], state.train_ids))


def optimize(
    state: RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
) -> Optimum:
    """Solve and re-check. Raises ``EngineMismatch`` if the engine disagrees.

    ``solve_ms`` is the engine's time from the state to the checked answer: the
    problem, the solve and the re-check (issue 21: the whole answer's time).
    """
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"{objective!r} is not one of {list(OBJECTIVES)}")
    with AnswerBudget(time_limit_s, cancel) as budget:
        built = build_problem(state)
        solution = solve(
            built.problem,
            objective=objective,  # narrowed to an Objective by the check above
            time_limit_s=time_limit_s,
            cancel=budget.token,
            options=tuning.SOLVE_OPTIONS,
        )
        ids = train_ids(state)
        specs = tuple(route_spec(built, r, ids[r.train]) for r in solution.routes)
        judgement = judge_routes(state, specs)
        if not judgement.legal:
            raise EngineMismatch(f"solver routes rejected by the engine: {judgement.violations}")
        if judgement.revenue != solution.revenue or judgement.subsidy != solution.subsidy:
            raise EngineMismatch(
                f"solver priced {solution.revenue}+{solution.subsidy}, engine "
                f"{judgement.revenue}+{judgement.subsidy}"
            )
        solve_ms = budget.elapsed_ms()
        timing = SolveTiming.of("answer", objective, tuple(t.name for t in state.trains),
                                solution, solve_ms)
    return Optimum(solution, specs, judgement, solve_ms, (timing,))


def solve_report(
    state: RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """The JSON object ``route18xx solve --json`` prints (DESIGN.md §5)."""
    opt = optimize(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    return optimum_report(state, opt, objective)


def routes_report(opt: Optimum) -> tuple[RouteReport, ...]:
    """The checked routes of an optimum in the 18xx.games ``run_routes`` shape (no breakdowns)."""
    return tuple(_route_report(spec, judged) for spec, judged in zip(opt.specs, opt.judgement.routes))


def _route_report(spec: RouteSpec, judged: JudgedRoute,
                  breakdown: RouteBreakdown | None = None) -> RouteReport:
    hexes = judged.hexes
    return RouteReport(
        train=spec.train,
        revenue=judged.revenue,
        subsidy=judged.subsidy,
        hexes=tuple(hexes),
        nodes=tuple(judged.stops),
        connections=tuple(tuple(c) for c in spec.connections),
        revenue_str="-".join(hexes) + (" (dest)" if judged.bonus else ""),
        breakdown=breakdown,
    )


def optimum_report(state: RouteState, opt: Optimum, objective: str) -> dict[str, Any]:
    """An optimum as the ``solve --json`` object."""
    return typed_report(state, opt, objective).to_json()


def route_reports(state: RouteState, opt: Optimum) -> tuple[RouteReport, ...]:
    """An optimum's judged routes as the typed answer's, each with its breakdown."""
    from route18xx.engine.answer.explain import route_breakdown

    return tuple(_route_report(spec, judged, route_breakdown(state, judged))
                 for spec, judged in zip(opt.specs, opt.judgement.routes))


def typed_report(
    state: RouteState, opt: Optimum, objective: str,
    routes: tuple[RouteReport, ...] | None = None,
) -> SolveReport:
    """An optimum as the typed ``solve`` answer, each route with its breakdown.

    ``routes``: ``route_reports(state, opt)`` when the caller has them already (another
    optimum of the same answer with the very same specs and judgement).
    """
    sol = opt.solution
    if routes is None:
        routes = route_reports(state, opt)
    return SolveReport(
        corporation=state.corporation.sym,
        objective=objective,
        revenue=opt.judgement.revenue,
        subsidy=opt.judgement.subsidy,
        proven_optimal=sol.status == "OPTIMAL",
        status=sol.status,
        bound=sol.bound,
        solve_ms=round(opt.solve_ms, 3),
        routes=routes,
        stats=AnswerStats.of(sol.stats, opt.solves),
        breakdown=AnswerBreakdown.of(tuple(r.breakdown for r in routes if r.breakdown)),
    )
