"""Answers that explain a choice (issue 14): pinned routes, what-if trains,
dividend against treasury, and recorded routes against the optimum.

All of them solve on one prepared board (``Prepared``: the state parsed and its
``RouteProblem`` built once). Pinned routes take their track away as data
(``BuiltProblem.without_track``: forbidden junctions and segments, ROUTES.md
§3.7), and a train set replaces the problem's trains; the solver never sees a
hex. Every answer is re-judged whole (pins and solved routes together) by the
one validator, as ``engine.optimize`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from route18xx.engine import state_rules as rules
from route18xx.engine.budget import AnswerBudget, SolveTiming
from route18xx.engine.deadline import check_time
from route18xx.engine.errors import EngineMismatch, MalformedInput, excerpt
from route18xx.engine.gamedata import TrainDef
from route18xx.engine.optimize import Optimum, route_spec, train_ids, typed_report
from route18xx.engine.problem_builder import BuiltProblem, build_problem
from route18xx.engine.reports import CheckReport, RouteReport, SolveReport
from route18xx.engine.route_judge import (
    Judgement,
    RouteSpec, check_route_references, judge_routes, parse_route_specs, train_type,
)
from route18xx.engine.state_file import RouteState
from route18xx.solver import (
    OBJECTIVES, CancelToken, Method, Objective, Solution, solve, solve_both,
)


@dataclass(frozen=True)
class Prepared:
    """A board ready to solve many times: the state and its problem, built once."""

    state: RouteState
    built: BuiltProblem


def prepare(state: RouteState) -> Prepared:
    return Prepared(state, build_problem(state))


def _renamed(exc: MalformedInput, old: str, new: str) -> MalformedInput:
    field = new + exc.field[len(old):] if exc.field.startswith(old) else new
    return MalformedInput(field, exc.reason)


def parse_train_set(state: RouteState, raw: Any, where: str) -> tuple[TrainDef, ...]:
    """One what-if train set (``["4", "D"]``), checked as the state's trains are
    (engine.state_rules: on sale in the phase, not rusted, limit, supply)."""
    data = state.data
    if not isinstance(raw, list) or not raw:
        raise MalformedInput(where, "must be a non-empty list of train names such as '4'")
    try:
        rules.check_train_count(raw, state.phase, data)
    except MalformedInput as exc:
        raise _renamed(exc, "trains", where) from None
    trains: list[TrainDef] = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in data.trains:
            raise MalformedInput(
                f"{where}[{i}]", f"unknown train {excerpt(name)}; expected one of {sorted(data.trains)}"
            )
        train = data.trains[name]
        try:
            rules.check_train(i, train, state.phase, data, sum(1 for t in trains if t is train),
                              state.rules)
        except MalformedInput as exc:
            raise _renamed(exc, "trains", where) from None
        trains.append(train)
    return tuple(trains)


def parse_pins(state: RouteState, raw: Any, where: str = "pinned_routes") -> list[RouteSpec]:
    """Pinned routes (a run_routes ``routes`` array): readable, of trains the company
    owns (any id of the type: ``2-0``, or a game's ``2-5``), and legal together."""
    try:
        specs = parse_route_specs(raw, where)
        check_route_references(state, specs)
    except MalformedInput as exc:
        raise _renamed(exc, "routes", where) from None
    judgement = judge_routes(state, specs)
    for i, route in enumerate(judgement.routes):
        if route.violations:
            raise MalformedInput(f"{where}[{i}]", f"is not a legal route: {route.violations[0]}")
    return specs


def solve_prepared(
    prep: Prepared,
    *,
    trains: tuple[TrainDef, ...] | None = None,
    pins: Sequence[RouteSpec] = (),
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    budget: AnswerBudget | None = None,
    purpose: str = "answer",
    floor: Floor | None = None,
) -> tuple[RouteState, Optimum]:
    """The proven optimum of the free trains (all but the pinned ones) on the track
    the pins leave free, judged together with the pins. ``trains`` replaces the
    state's trains (a what-if set). With ``budget`` the solve stops at its shared
    deadline (``cancel`` is then not used) and its timing is recorded there as
    ``purpose``. With ``floor`` only answers reaching it are searched
    (``engine.objectives``): none is status ``INFEASIBLE``, no routes."""
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"{objective!r} is not one of {list(OBJECTIVES)}")
    if budget is None:
        with AnswerBudget(time_limit_s, cancel) as own:
            return _solve_on_budget(prep, trains, pins, objective, time_limit_s, own, purpose,
                                    floor)
    return _solve_on_budget(prep, trains, pins, objective, time_limit_s, budget, purpose, floor)


@dataclass(frozen=True)
class Floor:
    """What a solve must beat (issue 21: the second objective's search): only answers
    whose objective reaches ``value``; with ``avoid_subsidy`` only routes through no
    stop that pays a subsidy (the track at those stops taken away); ``method`` the
    solver's (``solve``)."""

    value: int
    avoid_subsidy: bool = False
    method: Method = "auto"


def _solve_on_budget(
    prep: Prepared,
    trains: tuple[TrainDef, ...] | None,
    pins: Sequence[RouteSpec],
    objective: Objective,
    time_limit_s: float,
    budget: AnswerBudget,
    purpose: str,
    floor: Floor | None = None,
) -> tuple[RouteState, Optimum]:
    started = budget.elapsed_ms()
    state, free, built = _board(prep, trains, pins, floor)
    if free:
        solution = solve(built.problem, objective=objective, time_limit_s=time_limit_s,
                         cancel=budget.token, floor=None if floor is None else floor.value,
                         method="auto" if floor is None else floor.method)
    else:
        solution = Solution((), 0, 0, "OPTIMAL", 0, 0)
    specs, judgement = _judged(state, built, pins, free, solution)
    ms = budget.elapsed_ms() - started
    timing = SolveTiming.of(purpose, objective, tuple(t.name for t in state.trains), solution, ms,
                            0 if floor is None else floor.value)
    budget.record(timing)
    return state, Optimum(solution, specs, judgement, ms, (timing,))


def solve_prepared_both(
    prep: Prepared, objective: Objective, time_limit_s: float, budget: AnswerBudget,
) -> tuple[RouteState, Optimum, Optimum] | None:
    """The state's own trains' optimum for ``objective`` and for the other objective
    from one solve (``solver.solve_both``: a lone train), each judged
    whole; None where one search does not settle both. One search, one timing on
    ``budget`` (``answer``: the search and both re-checks)."""
    if len(prep.built.problem.trains) != 1:
        return None  # not a lone train: nothing built for it
    started = budget.elapsed_ms()
    state, free, built = _board(prep, None, (), None)
    answers = solve_both(built.problem, objective=objective, time_limit_s=time_limit_s,
                         cancel=budget.token)
    if answers is None:
        return None
    first = _judged(state, built, (), free, answers[0])
    # one route best in both: judged once
    second = first if answers[1].routes == answers[0].routes else _judged(
        state, built, (), free, answers[1])
    ms = budget.elapsed_ms() - started
    timing = SolveTiming.of("answer", objective, tuple(t.name for t in state.trains),
                            answers[0], ms)
    budget.record(timing)
    return (state, Optimum(answers[0], *first, ms, (timing,)),
            Optimum(answers[1], *second, ms, (timing,)))


def _board(
    prep: Prepared, trains: tuple[TrainDef, ...] | None, pins: Sequence[RouteSpec],
    floor: Floor | None,
) -> tuple[RouteState, list[tuple[str, TrainDef]], BuiltProblem]:
    """The state a solve answers for (``trains``: a what-if set), its free trains, and
    the board they run on: the pins' track taken away (ROUTES.md §3.7), and with a
    ``floor`` that avoids subsidies the track at every stop paying one."""
    if trains is None or trains == prep.state.trains:
        state = prep.state
    else:  # a what-if set: its trains have no ids in the game
        state = replace(prep.state, trains=trains, train_ids=())
    free = _free_trains(state, pins)
    problem = prep.built.problem  # the state's own trains, no pins: the very problem
    if pins or state is not prep.state:
        taken = judge_routes(state, pins).routes if pins else []
        edges = [k for r in taken for c in r.chains for k in c.edge_keys]
        paths = [p for r in taken for c in r.chains for p in c.paths]
        problem = prep.built.without_track(edges, paths, [t for _, t in free])
    if floor is not None and floor.avoid_subsidy:
        paying = {i for i, stop in enumerate(problem.stops) if stop.subsidy}
        problem = replace(problem, forbidden_segments=problem.forbidden_segments | frozenset(
            i for i, seg in enumerate(problem.segments) if seg.a in paying or seg.b in paying))
    built = prep.built if problem is prep.built.problem else replace(prep.built, problem=problem)
    return state, free, built


def _judged(
    state: RouteState, built: BuiltProblem, pins: Sequence[RouteSpec],
    free: Sequence[tuple[str, TrainDef]], solution: Solution,
) -> tuple[tuple[RouteSpec, ...], Judgement]:
    """The solver's routes beside the pins as route specs, judged whole by the
    engine's validator (DESIGN.md §3: every solver result passes it);
    ``EngineMismatch`` where the engine rejects them or prices them otherwise."""
    specs = tuple(pins) + tuple(route_spec(built, r, free[r.train][0]) for r in solution.routes)
    judgement = judge_routes(state, specs)
    if not judgement.legal:
        raise EngineMismatch(f"solver routes rejected by the engine: {judgement.violations}")
    pin_revenue = sum(r.revenue for r in judgement.routes[: len(pins)])
    pin_subsidy = sum(r.subsidy for r in judgement.routes[: len(pins)])
    if (judgement.revenue - pin_revenue, judgement.subsidy - pin_subsidy) != (
        solution.revenue, solution.subsidy
    ):
        raise EngineMismatch(
            f"solver priced {solution.revenue}+{solution.subsidy}, engine "
            f"{judgement.revenue - pin_revenue}+{judgement.subsidy - pin_subsidy}"
        )
    return specs, judgement


def _free_trains(state: RouteState, pins: Sequence[RouteSpec]) -> list[tuple[str, TrainDef]]:
    """The trains the pins leave, with their ids: the game's own when the state has
    them (``optimize.train_ids``: "3-3"), else ``<type>-<n>``; never an id a pinned
    route uses. A pin naming a train's own id takes that train, any other pin the
    first free train of its type."""
    ids = train_ids(state)
    free = list(range(len(state.trains)))
    others: list[str] = []
    for pin in pins:
        if pin.train in ids and ids.index(pin.train) in free:
            free.remove(ids.index(pin.train))
        else:
            others.append(train_type(pin.train))
    for kind in others:
        first = next((i for i in free if state.trains[i].name == kind), None)
        if first is not None:
            free.remove(first)
    used = {p.train for p in pins}
    out: list[tuple[str, TrainDef]] = []
    for i in free:
        train, tid, n = state.trains[i], ids[i], 0
        while tid in used:
            tid, n = f"{train.name}-{n}", n + 1
        used.add(tid)
        out.append((tid, train))
    return out


def objective_value(report: SolveReport | Any, objective: str) -> int:
    """What ``objective`` maximises: revenue + subsidy, or revenue."""
    return int(report.revenue + (report.subsidy if objective == "total" else 0))


def _brief(report: SolveReport) -> dict[str, Any]:
    return {"revenue": report.revenue, "subsidy": report.subsidy,
            "proven_optimal": report.proven_optimal,
            "routes": [r.to_json() for r in report.routes]}


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
    """The solve answer with its explanations (issue 14 items 4-6), in ``extras``
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
        stats = {**report.stats, "solves": [t.to_json() for t in budget.solves]}
        return replace(report, solve_ms=round(budget.elapsed_ms(), 3), stats=stats,
                       extras=extras)


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
    """``explained_solve``'s answer and extras, every solve on ``budget``."""
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
            listed[key] = opt.solution.stats.listed_routes
        return solved[key]

    extras: dict[str, Any] = {}
    both_wanted = objectives and not pins and any(s.subsidy for s in prep.built.problem.stops)
    #: the other objective's answer, where one search answered both
    answered: SolveReport | None = None
    if both_wanted:
        from route18xx.engine.objectives import both_objectives  # it builds on this module

        check_time(cancel, "the solves")
        both = both_objectives(prep, objective, time_limit_s, budget)
        if both is not None:
            solved[(tuple(t.name for t in state.trains), objective)], answered = both
    if pins:
        s, opt = solve_prepared(prep, pins=pins, objective=objective,
                                time_limit_s=time_limit_s, budget=budget)
        report = typed_report(s, opt, objective)
        free = optimum(state.trains, objective, "unpinned")
        extras["pinned"] = {
            "trains": [p.train for p in pins],
            "unpinned": _brief(free),
            "cost": objective_value(free, objective) - objective_value(report, objective),
            "revenue_cost": free.revenue - report.revenue,
            "subsidy_cost": free.subsidy - report.subsidy,
        }
    else:
        report = optimum(state.trains, objective, "answer")
    if sets:
        extras["alternatives"] = [
            {"trains": [t.name for t in trains],
             **optimum(trains, objective, f"train_sets[{i}]").to_json()}
            for i, trains in enumerate(sets)
        ]
    if both_wanted:
        from route18xx.engine.objectives import other_objective

        other: SolveReport | None = answered
        if other is None:
            circuits = listed.get((tuple(t.name for t in state.trains), objective), -1) == 0
            other = other_objective(prep, report, objective, time_limit_s, budget, circuits)
        if other is not None:
            best_total, best_revenue = (report, other) if objective == "total" else (other, report)
            if (best_total.revenue, best_total.subsidy) != (best_revenue.revenue,
                                                            best_revenue.subsidy):
                extras["objectives"] = {
                    "total": _brief(best_total),
                    "revenue": _brief(best_revenue),
                    # choosing the best total gives up this much dividend revenue …
                    "dividend_cost": best_revenue.revenue - best_total.revenue,
                    # … and choosing the best revenue this much treasury subsidy
                    "treasury_cost": best_total.subsidy - best_revenue.subsidy,
                    "total_cost": objective_value(best_total, "total")
                    - objective_value(best_revenue, "total"),
                }
    return report, extras


def comparison(judged: CheckReport, best: SolveReport) -> dict[str, Any]:
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
    return {
        "objective": best.objective,
        "recorded_revenue": judged.revenue,
        "recorded_subsidy": judged.subsidy,
        "optimal_revenue": best.revenue,
        "optimal_subsidy": best.subsidy,
        "proven_optimal": best.proven_optimal,
        "revenue_difference": best.revenue - judged.revenue,
        "subsidy_difference": best.subsidy - judged.subsidy,
        "trains": trains,
        "optimal_routes": [r.to_json() for r in best.routes],
    }


def _train_diff(
    train: str, nodes: Sequence[str], revenue: int, subsidy: int, mate: RouteReport | None
) -> dict[str, Any]:
    best_nodes = list(mate.nodes) if mate is not None else []
    return {
        "train": train,
        "recorded_nodes": list(nodes),
        "optimal_nodes": best_nodes,
        "added": [n for n in best_nodes if n not in nodes],
        "dropped": [n for n in nodes if n not in best_nodes],
        "revenue_difference": (mate.revenue if mate else 0) - revenue,
        "subsidy_difference": (mate.subsidy if mate else 0) - subsidy,
    }
