"""The SolveRoutes answer, made in one place (issue 32): prepare, first objective, the other
objective, pins and train sets, the report (issue 14: answers that explain a choice).

``explained_solve`` is called once per request: it prepares the board (or takes the
prepared one), solves the first objective, pins and train sets on it, asks
``engine.answer.objectives`` for the other objective where the board pays a subsidy, and
returns one ``SolveReport`` with its explanations. ``comparison`` sets recorded routes
against the optimum (a ``CheckReport`` beside a ``SolveReport``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from msgspec.structs import replace

from route18xx.engine.answer.budget import AnswerBudget
from route18xx.engine.answer.objectives import both_objectives, other_objective
from route18xx.engine.answer.optimize import typed_report
from route18xx.engine.answer.prepared import (
    Prepared, parse_pins, parse_train_set, prepare, solve_prepared,
)
from route18xx.engine.answer.reports import (
    CheckReport, Comparison, ObjectiveChoice, PinnedExplanation, RouteReport, SolveReport,
    TrainComparison,
)
from route18xx.engine.deadline import check_time
from route18xx.engine.facts.gamedata import TrainDef
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.routes.route_judge import train_type
from route18xx.solver import CancelToken


def objective_value(report: SolveReport | Any, objective: str) -> int:
    """What ``objective`` maximises: revenue + subsidy, or revenue."""
    return int(report.revenue + (report.subsidy if objective == "total" else 0))


def explained_solve(
    state: RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    pinned_routes: Any = None,
    train_sets: Sequence[Any] | None = None,
    objectives: bool = True,
    prep: Callable[[], Prepared] | None = None,
) -> SolveReport:
    """The solve answer with its explanations (issue 14 items 4-6), each in its own field
    (``prep``: ``state``'s prepared board, built once per content by
    ``engine.prepared_cache``; called within the answer's time):

    * ``pinned`` (with ``pinned_routes``): the pinned trains, the optimum without
      pins and what the pins cost (``cost``: in the objective, ``revenue_cost``,
      ``subsidy_cost``); the answer itself is the pinned routes plus the optimum
      of the other trains;
    * ``alternatives`` (with ``train_sets``): per set, its trains and its optimum;
    * ``objectives`` (``objectives`` and a subsidy on the board): the best
      revenue and the best revenue + subsidy when they differ, and what each
      costs in the other (``dividend_cost``, ``treasury_cost``).
    """
    with AnswerBudget(time_limit_s, cancel) as budget:
        board = prepare(state) if prep is None else prep()
        report, extras = _explained(board, objective, time_limit_s, cancel, budget,
                                    pinned_routes, train_sets, objectives)
        stats = dataclasses.replace(report.stats, solves=tuple(budget.solves))
        return replace(report, solve_ms=round(budget.elapsed_ms(), 3), stats=stats, **extras)


def _explained(
    prep: Prepared,
    objective: str,
    time_limit_s: float,
    cancel: CancelToken | None,
    budget: AnswerBudget,
    pinned_routes: Any,
    train_sets: Sequence[Any] | None,
    objectives: bool,
) -> tuple[SolveReport, dict[str, Any]]:
    """``explained_solve``'s answer and its explanations by field name, every solve on
    ``budget``."""
    state = prep.state
    pins = parse_pins(state, pinned_routes) if pinned_routes is not None else []
    sets = [parse_train_set(state, raw, f"train_sets[{i}]") for i, raw in enumerate(train_sets or [])]
    solved: dict[tuple[tuple[str, ...], str], SolveReport] = {}
    listed: dict[tuple[tuple[str, ...], str], int] = {}  # routes the solver listed

    def optimum(trains: tuple[TrainDef, ...], goal: str, purpose: str) -> SolveReport:
        key = (tuple(t.name for t in trains), goal)
        if key not in solved:
            check_time(cancel, "the solves")
            s, opt = solve_prepared(prep, trains=trains, objective=goal,
                                    time_limit_s=time_limit_s, budget=budget, purpose=purpose)
            solved[key] = typed_report(s, opt, goal)
            listed[key] = opt.solution.listed_routes
        return solved[key]

    extras: dict[str, Any] = {}
    both_wanted = objectives and not pins and any(s.subsidy for s in prep.built.problem.stops)
    #: the other objective's answer, where one search answered both
    answered: SolveReport | None = None
    if both_wanted:
        check_time(cancel, "the solves")
        both = both_objectives(prep, objective, time_limit_s, budget)
        if both is not None:
            solved[(tuple(t.name for t in state.trains), objective)], answered = both
    if pins:
        s, opt = solve_prepared(prep, pins=pins, objective=objective,
                                time_limit_s=time_limit_s, budget=budget)
        report = typed_report(s, opt, objective)
        free = optimum(state.trains, objective, "unpinned")
        extras["pinned"] = PinnedExplanation(
            trains=tuple(p.train for p in pins),
            unpinned=free.brief(),
            cost=objective_value(free, objective) - objective_value(report, objective),
            revenue_cost=free.revenue - report.revenue,
            subsidy_cost=free.subsidy - report.subsidy,
        )
    else:
        report = optimum(state.trains, objective, "answer")
    if sets:
        extras["alternatives"] = tuple(
            replace(optimum(trains, objective, f"train_sets[{i}]"),
                    trains=tuple(t.name for t in trains))
            for i, trains in enumerate(sets)
        )
    if both_wanted:
        other: SolveReport | None = answered
        if other is None:
            circuits = listed.get((tuple(t.name for t in state.trains), objective), -1) == 0
            other = other_objective(prep, report, objective, time_limit_s, budget, circuits)
        if other is not None:
            best_total, best_revenue = (report, other) if objective == "total" else (other, report)
            if (best_total.revenue, best_total.subsidy) != (best_revenue.revenue,
                                                            best_revenue.subsidy):
                extras["objectives"] = ObjectiveChoice(
                    total=best_total.brief(),
                    revenue=best_revenue.brief(),
                    # choosing the best total gives up this much dividend revenue …
                    dividend_cost=best_revenue.revenue - best_total.revenue,
                    # … and choosing the best revenue this much treasury subsidy
                    treasury_cost=best_total.subsidy - best_revenue.subsidy,
                    total_cost=objective_value(best_total, "total")
                    - objective_value(best_revenue, "total"),
                )
    return report, extras


def comparison(judged: CheckReport, best: SolveReport) -> Comparison:
    """Recorded (judged) routes against the optimum (issue 14 item 3).

    Per train, what the optimum does differently: the stops it adds and drops,
    and the difference in revenue and subsidy. Trains of one type are
    interchangeable, so each recorded route is paired with the optimal route of
    a train of its type that shares most stops (the others in order).
    """
    optimal = list(best.routes)
    trains = []
    for route in judged.routes:
        kind = train_type(route.train)
        mates = [r for r in optimal if train_type(r.train) == kind]
        mate = max(mates, key=lambda r: len(set(r.nodes) & set(route.nodes)), default=None)
        if mate is not None:
            optimal.remove(mate)
        trains.append(_train_diff(route.train, route.nodes, route.revenue, route.subsidy, mate))
    for mate in optimal:  # trains the record leaves idle
        trains.append(_train_diff(mate.train, (), 0, 0, mate))
    return Comparison(
        objective=best.objective,
        recorded_revenue=judged.revenue,
        recorded_subsidy=judged.subsidy,
        optimal_revenue=best.revenue,
        optimal_subsidy=best.subsidy,
        proven_optimal=best.proven_optimal,
        revenue_difference=best.revenue - judged.revenue,
        subsidy_difference=best.subsidy - judged.subsidy,
        trains=tuple(trains),
        optimal_routes=best.routes,
    )


def _train_diff(
    train: str, nodes: Sequence[str], revenue: int, subsidy: int, mate: RouteReport | None
) -> TrainComparison:
    best_nodes = mate.nodes if mate is not None else ()
    return TrainComparison(
        train=train,
        recorded_nodes=tuple(nodes),
        optimal_nodes=best_nodes,
        added=tuple(n for n in best_nodes if n not in nodes),
        dropped=tuple(n for n in nodes if n not in best_nodes),
        revenue_difference=(mate.revenue if mate else 0) - revenue,
        subsidy_difference=(mate.subsidy if mate else 0) - subsidy,
    )
