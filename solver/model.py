"""The CP-SAT route model and the public ``solve`` (DESIGN.md §3).

``solve`` reduces the graph (``solver/reduce.py``), builds one circuit per
train (``solver/trainvars.py``), adds the rules (``solver/constraints.py``),
searches, and expresses the routes in the problem's original segment indices.

Objectives (``Objective``):

* ``"total"`` (default): maximise revenue + subsidy. ``Solution.objective`` is
  revenue + subsidy.
* ``"revenue"``: maximise revenue first (dividend income), subsidy only as a
  tie-break: the model maximises revenue·M + subsidy with M larger than any
  total subsidy. ``Solution.objective`` (and ``bound``) are the revenue.

Search settings (DESIGN.md §3, measured on the benchmark boards): one worker
and a fixed seed make the answer deterministic (same input → same routes);
presolve and the linear relaxation off cut the slow tail.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

from ortools.sat.python import cp_model, cp_model_helper

from solver.cancel import CancelToken
from solver.constraints import (
    add_direction,
    add_distance,
    add_groups,
    add_identical_order,
    add_junction_once,
    add_junction_sides,
    add_pair_bonus,
    add_route_ends,
    add_route_shape,
    add_segment_once,
)
from solver.errors import InvalidProblem
from solver.problem import RouteProblem, RouteResult, Solution, SolveStats
from solver.reduce import ReducedGraph, reduce_problem
from solver.trainvars import Layout, Lit, TrainVars, build_layout

Objective: TypeAlias = Literal["total", "revenue"]
OBJECTIVES: tuple[Objective, ...] = ("total", "revenue")


@dataclass
class BuiltModel:
    """A built CP-SAT model: its per-train variables and the objective scale M."""

    model: cp_model.CpModel
    layout: Layout
    trains: list[TrainVars]
    scale: int


def _node_names(problem: RouteProblem, graph: ReducedGraph) -> list[str]:
    n_stops = len(problem.stops)
    return [
        problem.stops[o].name if o < n_stops else problem.junctions[o - n_stops].name
        for o in graph.nodes
    ]


def revenue_scale(problem: RouteProblem, objective: Objective) -> int:
    """M of the ``"revenue"`` objective: 1 + the largest possible |total subsidy|."""
    if objective == "total":
        return 1
    return 1 + len(problem.trains) * sum(abs(s.subsidy) for s in problem.stops)


def build_model(problem: RouteProblem, graph: ReducedGraph, objective: Objective) -> BuiltModel:
    """Build the model of DESIGN.md §3 over the reduced graph."""
    model = cp_model.CpModel()
    layout = build_layout(graph)
    node_names = _node_names(problem, graph)
    segment_names = [problem.segments[seg.originals[0]].label for seg in graph.segments]
    n_stops = graph.stop_count
    stops = [problem.stops[o] for o in graph.nodes[:n_stops]]
    index = {o: r for r, o in enumerate(graph.nodes[:n_stops])}
    groups = [sorted(index[s] for s in g if s in index) for g in problem.groups]
    bonuses = [
        (b.value, sorted(index[s] for s in b.first if s in index),
         sorted(index[s] for s in b.second if s in index))
        for b in problem.bonuses
    ]
    scale = revenue_scale(problem, objective)
    stop_weights = [scale * stop.value + stop.subsidy for stop in stops]

    tvs: list[TrainVars] = []
    terms: list[tuple[list[Lit], list[int]]] = []
    for train in problem.trains:
        tv = TrainVars(model, layout, train.name, node_names, segment_names)
        add_junction_sides(model, tv)
        add_route_ends(model, tv, stops)
        add_distance(model, tv, stops, train.distance)
        add_route_shape(model, tv, stops, problem.min_stops)
        add_groups(model, tv, groups)
        add_direction(model, tv)
        lits = [v for v, w in zip(tv.visit, stop_weights) if w]
        weights = [w for w in stop_weights if w]
        for b, (value, first, second) in enumerate(bonuses):
            bonus = add_pair_bonus(model, tv, first, second, value, str(b))
            if bonus is not None:
                lits.append(bonus)
                weights.append(scale * value)
        tvs.append(tv)
        terms.append((lits, weights))
    add_junction_once(model, tvs)
    add_segment_once(model, tvs)
    by_distance: dict[int | None, list[int]] = {}
    for k, train in enumerate(problem.trains):
        by_distance.setdefault(train.distance, []).append(k)
    for ks in by_distance.values():
        if len(ks) > 1:
            # Order identical trains by (value, start stop): ties in value are common.
            m = n_stops + 1
            add_identical_order(
                model,
                [([*terms[k][0], *tvs[k].start], [*(w * m for w in terms[k][1]), *range(n_stops)])
                 for k in ks],
            )
    model.maximize(
        cp_model.LinearExpr.weighted_sum(
            [lit for lits, _ in terms for lit in lits], [w for _, ws in terms for w in ws]
        )
    )
    return BuiltModel(model=model, layout=layout, trains=tvs, scale=scale)


def price_route(
    problem: RouteProblem, train: int, stops: tuple[int, ...], segments: tuple[int, ...]
) -> RouteResult:
    """A route's figures from the problem data: revenue includes the bonuses."""
    visited = set(stops)
    bonus = sum(
        b.value for b in problem.bonuses if visited & b.first and visited & b.second
    )
    revenue = sum(problem.stops[s].value for s in stops) + bonus
    subsidy = sum(problem.stops[s].subsidy for s in stops)
    return RouteResult(train, stops, segments, revenue, subsidy, bonus)


def _routes(problem: RouteProblem, built: BuiltModel, solution: list[int]) -> list[RouteResult]:
    """Expand each train's walk into original stops and segments, in walking order."""
    graph = built.layout.graph
    routes = []
    for k, tv in enumerate(built.trains):
        stops, steps = tv.extract(solution)
        if not stops:
            continue
        segments: list[int] = []
        for seg_i, forward in steps:
            originals = graph.segments[seg_i].originals
            segments += originals if forward else originals[::-1]
        original_stops = tuple(graph.nodes[s] for s in stops)
        routes.append(price_route(problem, k, original_stops, tuple(segments)))
    return routes


def _parameters(time_limit_s: float, workers: int, seed: int) -> cp_model.SatParameters:
    params = cp_model.CpSolver().parameters
    params.num_workers = workers
    params.random_seed = seed
    params.max_time_in_seconds = max(time_limit_s, 0.0)
    params.cp_model_presolve = False
    params.linearization_level = 0
    return params


def solve(
    problem: RouteProblem,
    *,
    objective: Objective = "total",
    time_limit_s: float = 10.0,
    workers: int = 1,
    seed: int = 0,
    cancel: CancelToken | None = None,
) -> Solution:
    """Optimal routes for ``problem`` (DESIGN.md §3); see the module docstring.

    ``cancel``: a ``CancelToken`` another thread may trigger to stop the search
    (the best routes found so far come back, status ``FEASIBLE``/``UNKNOWN``).

    >>> from solver.problem import Stop, Segment, Train
    >>> p = RouteProblem(stops=(Stop("A", 20, station=True), Stop("B", 30)),
    ...     junctions=(), segments=(Segment(0, 1, -1, -1, "ab"),), trains=(Train("2", 2),))
    >>> s = solve(p)
    >>> s.status, s.revenue, s.routes[0].stops
    ('OPTIMAL', 50, (0, 1))
    """
    if objective not in OBJECTIVES:
        raise InvalidProblem(f"objective: unknown {objective!r}, expected one of {OBJECTIVES}")
    t0 = time.perf_counter()
    graph = reduce_problem(problem)
    t1 = time.perf_counter()
    stats = SolveStats(
        nodes_before=problem.node_count,
        segments_before=len(problem.segments),
        nodes_after=graph.node_count,
        segments_after=len(graph.segments),
        reduce_ms=(t1 - t0) * 1000,
    )
    if not problem.trains or graph.stop_count == 0:
        return Solution((), 0, 0, "OPTIMAL", 0, 0, stats)

    built = build_model(problem, graph, objective)
    t2 = time.perf_counter()
    wrapper = cp_model_helper.SolveWrapper()
    wrapper.set_parameters(_parameters(time_limit_s, workers, seed))
    response = None
    if cancel is None or cancel.attach(wrapper):
        try:
            response = wrapper.solve(built.model.proto)
        finally:
            if cancel is not None:
                cancel.detach(wrapper)
    status = "UNKNOWN" if response is None else response.status.name
    if status not in ("OPTIMAL", "FEASIBLE", "UNKNOWN"):
        raise RuntimeError(f"CP-SAT returned {status} for the route model (a solver bug)")
    routes = []
    if response is not None and status != "UNKNOWN":
        routes = _routes(problem, built, list(response.solution))
    t3 = time.perf_counter()

    revenue = sum(r.revenue for r in routes)
    subsidy = sum(r.subsidy for r in routes)
    value = revenue + subsidy if objective == "total" else revenue
    bound = _bound(problem, objective, built.scale, response)
    if status == "OPTIMAL":
        bound = value
    proto = built.model.proto
    stats = replace(
        stats,
        arcs=built.layout.arc_count,
        variables=len(proto.variables),
        constraints=len(proto.constraints),
        build_ms=(t2 - t1) * 1000,
        solve_ms=(t3 - t2) * 1000,
        branches=response.num_branches if response else 0,
        conflicts=response.num_conflicts if response else 0,
    )
    return Solution(tuple(routes), revenue, subsidy, status, value, bound, stats)


def _bound(
    problem: RouteProblem,
    objective: Objective,
    scale: int,
    response: cp_model_helper.CpSolverResponse | None,
) -> int:
    """An upper bound on ``Solution.objective``: CP-SAT's, or a trivial one.

    The trivial bound lets every train collect every positive stop value and
    bonus; in ``"revenue"`` mode CP-SAT's bound on revenue·M + subsidy is
    turned into a bound on revenue using the lowest possible total subsidy.
    """
    k = len(problem.trains)
    with_subsidy = objective == "total"
    trivial = k * (
        sum(max(0, s.value + (s.subsidy if with_subsidy else 0)) for s in problem.stops)
        + sum(max(0, b.value) for b in problem.bonuses)
    )
    if response is None or not math.isfinite(response.best_objective_bound):
        return trivial
    raw = response.best_objective_bound
    if scale > 1:
        lowest_subsidy = k * sum(min(0, s.subsidy) for s in problem.stops)
        raw = (raw - lowest_subsidy) / scale
    return min(trivial, math.floor(raw + 1e-9))
