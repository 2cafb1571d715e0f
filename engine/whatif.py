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

import time
from dataclasses import dataclass, replace
from typing import Any, Sequence

from route18xx.engine import state_rules as rules
from route18xx.engine.deadline import check_time
from route18xx.engine.errors import EngineMismatch, MalformedInput, excerpt
from route18xx.engine.gamedata import TrainDef
from route18xx.engine.optimize import Optimum, route_spec, train_ids, typed_report
from route18xx.engine.problem_builder import BuiltProblem, build_problem
from route18xx.engine.reports import CheckReport, RouteReport, SolveReport
from route18xx.engine.route_judge import (
    RouteSpec, check_route_references, judge_routes, parse_route_specs, train_type,
)
from route18xx.engine.state_file import RouteState
from route18xx.solver import OBJECTIVES, CancelToken, Solution, solve


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
) -> tuple[RouteState, Optimum]:
    """The proven optimum of the free trains (all but the pinned ones) on the track
    the pins leave free, judged together with the pins. ``trains`` replaces the
    state's trains (a what-if set)."""
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"{objective!r} is not one of {list(OBJECTIVES)}")
    started = time.perf_counter()
    if trains is None or trains == prep.state.trains:
        state = prep.state
    else:  # a what-if set: its trains have no ids in the game
        state = replace(prep.state, trains=trains, train_ids=())
    free = _free_trains(state, pins)
    taken = judge_routes(state, pins).routes if pins else []
    edges = [k for r in taken for c in r.chains for k in c.edge_keys]
    paths = [p for r in taken for c in r.chains for p in c.paths]
    problem = prep.built.without_track(edges, paths, [t for _, t in free])
    built = replace(prep.built, problem=problem)
    if free:
        solution = solve(problem, objective=objective,
                         time_limit_s=time_limit_s, cancel=cancel)
    else:
        solution = Solution((), 0, 0, "OPTIMAL", 0, 0)
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
    return state, Optimum(solution, specs, judgement, (time.perf_counter() - started) * 1000.0)


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
) -> SolveReport:
    """The solve answer with its explanations (issue 14 items 4-6), in ``extras``:

    * ``pinned`` (with ``pinned_routes``): the pinned trains, the optimum without
      pins and what the pins cost (``cost``: in the objective, ``revenue_cost``,
      ``subsidy_cost``); the answer itself is the pinned routes plus the optimum
      of the other trains;
    * ``alternatives`` (with ``train_sets``): per set, its trains and its optimum;
    * ``objectives`` (``objectives`` and a subsidy on the board): the best
      revenue and the best revenue + subsidy when they differ, and what each
      costs in the other (``dividend_cost``, ``treasury_cost``).
    """
    prep = prepare(state)
    pins = parse_pins(state, pinned_routes) if pinned_routes is not None else []
    sets = [parse_train_set(state, raw, f"train_sets[{i}]") for i, raw in enumerate(train_sets or [])]
    solved: dict[tuple[tuple[str, ...], str], SolveReport] = {}

    def optimum(trains: tuple[TrainDef, ...], goal: str) -> SolveReport:
        key = (tuple(t.name for t in trains), goal)
        if key not in solved:
            check_time(cancel, "the solves")
            s, opt = solve_prepared(prep, trains=trains, objective=goal,
                                    time_limit_s=time_limit_s, cancel=cancel)
            solved[key] = typed_report(s, opt, goal)
        return solved[key]

    extras: dict[str, Any] = {}
    if pins:
        s, opt = solve_prepared(prep, pins=pins, objective=objective,
                                time_limit_s=time_limit_s, cancel=cancel)
        report = typed_report(s, opt, objective)
        free = optimum(state.trains, objective)
        extras["pinned"] = {
            "trains": [p.train for p in pins],
            "unpinned": _brief(free),
            "cost": objective_value(free, objective) - objective_value(report, objective),
            "revenue_cost": free.revenue - report.revenue,
            "subsidy_cost": free.subsidy - report.subsidy,
        }
    else:
        report = optimum(state.trains, objective)
    if sets:
        extras["alternatives"] = [
            {"trains": [t.name for t in trains], **optimum(trains, objective).to_json()}
            for trains in sets
        ]
    # When the best total earns no subsidy it is also the best revenue (its revenue is its
    # total, which no route set beats), so the second solve would only repeat it.
    needs_both = not (objective == "total" and report.subsidy == 0)
    if objectives and not pins and needs_both and any(s.subsidy for s in prep.built.problem.stops):
        best_total = optimum(state.trains, "total")
        best_revenue = optimum(state.trains, "revenue")
        if (best_total.revenue, best_total.subsidy) != (best_revenue.revenue, best_revenue.subsidy):
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
    return replace(report, extras=extras)


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
