"""Both objectives of a lone unlimited train in one search (issue 21 item 4).

``solve`` answers one objective; an answer on a board that pays a subsidy wants
both, the best total and the best revenue (``engine/answer/objectives.py``). For a lone
unlimited train each was a branch and bound of ``solver/listing/bestreach.py``, the
second above a floor on a smaller board: together 11-15 ms of CPU on the fullest
real lone-D states, the largest answers of the 123. ``solve_both`` walks once for
both (``solver/listing/bothreach.py``), on the same reduced graph, within the same step
budget a lone D's walk gets in ``solve`` (``SolveOptions.reach_steps``, scaled by the
time limit by ``SolveOptions.reach_steps_per_s``). Where that does not
settle both (another train set, a board too big for it, ``SolveOptions.both_too_big``, or the
walk gives up), it answers None and the caller solves each objective on its own.

A lone limited train gets its best route per objective from ``solver/listing/bestroute.py``
(the walk ``solve`` uses for it), both on one reduced board: the first as ``solve``
finds it, the second above what the first route weighs in the second objective.
Two walks, one solve: the second solve of ``engine/answer/objectives.py`` reduced the board
again without its subsidy stops and built its model (129026-697, -732, -477, -662:
1.1-1.6 ms of CPU for that solve, 0.6-1.0 ms for the walk above the floor here).
"""

from __future__ import annotations

import time

from route18xx.solver.listing.bestroute import best_route
from route18xx.solver.listing.bothreach import best_reach_both
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.runtime.derived import Lru
from route18xx.solver.errors import Cancelled, InvalidProblem
from route18xx.solver.model.model import Instance
from route18xx.solver.objective import OBJECTIVES, Objective
from route18xx.solver.problem import RouteProblem, RouteResult, Solution, SolveStats
from route18xx.solver.graph.reduce import ReducedGraph, reduce_problem
from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.search import REDUCED, price_route
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions
from route18xx.solver.runtime.tally import solve_tally

#: Per (problem, reduced graph, objective, steps): the walk's two routes, or None
#: where it gave up (``solver/runtime/derived.py``: emptied by ``clear_caches``).
BOTH: Lru[tuple[list[ListedRoute], list[ListedRoute]] | None] = Lru()


def solve_both(
    problem: RouteProblem,
    *,
    objective: Objective = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> tuple[Solution, Solution] | None:
    """(the answer for ``objective``, the answer for the other one), both proven, as
    ``solve`` would give them; None where one solve does not settle both (module
    docstring). Only a lone train is answered here.

    >>> from route18xx.solver.problem import Stop, Segment, Train
    >>> p = RouteProblem(stops=(Stop("A", 20, station=True), Stop("B", 30), Stop("C", 30),
    ...     Stop("M", 0, subsidy=40)), junctions=(), segments=(Segment(0, 1, -1, -1, "ab"),
    ...     Segment(0, 2, -1, -1, "ac"), Segment(0, 3, -1, -1, "am")),
    ...     trains=(Train("D", None),))
    >>> total, revenue = solve_both(p)  # one route through A: two of its three arms
    >>> (total.revenue, total.subsidy), (revenue.revenue, revenue.subsidy)
    ((50, 40), (80, 0))
    """
    if objective not in OBJECTIVES:
        raise InvalidProblem(f"objective: unknown {objective!r}, expected one of {OBJECTIVES}")
    if len(problem.trains) != 1:
        return None
    started = time.perf_counter()
    status = "ERROR"
    try:
        answers = _both(problem, objective, time_limit_s, cancel, started, options)
        status = "NONE" if answers is None else answers[0].status
        return answers
    finally:  # one solve for a server's metrics (``solver.tally``), when it answered
        if status != "NONE":
            solve_tally.record(status, time.perf_counter() - started)


def _both(
    problem: RouteProblem, objective: Objective, time_limit_s: float,
    cancel: CancelToken | None, started: float, options: SolveOptions,
) -> tuple[Solution, Solution] | None:
    """``solve_both``'s work, not counted."""
    graph = REDUCED.get(problem, lambda: reduce_problem(problem))
    t1 = time.perf_counter()

    def stats(build_ms: float = 0.0) -> SolveStats:
        """An answer's figures, made once each (issue 21: ``dataclasses.replace`` of
        them cost about 3x their making, 7.6 µs against 2.7)."""
        return SolveStats(nodes_before=problem.node_count,
                          segments_before=len(problem.segments), nodes_after=graph.node_count,
                          segments_after=len(graph.segments), reduce_ms=(t1 - started) * 1000,
                          build_ms=build_ms)

    other: Objective = OBJECTIVES[1] if objective == OBJECTIVES[0] else OBJECTIVES[0]
    if graph.stop_count == 0:
        empty = Solution((), 0, 0, "OPTIMAL", 0, 0, stats())
        return empty, empty
    limited = problem.trains[0].distance is not None
    if not limited and graph.stop_count * (len(graph.segments) - graph.node_count + 1) \
            >= options.both_too_big:
        return None  # likely to give up: each objective on its own
    first, second = Instance.make(problem, graph, objective), Instance.make(problem, graph, other)
    steps = options.limited_steps if limited else min(
        options.reach_steps, int(time_limit_s * options.reach_steps_per_s))

    def walk() -> tuple[list[ListedRoute], list[ListedRoute]] | None:
        if limited:
            return _limited_walks(problem, graph, objective, first, second, cancel, steps)
        return best_reach_both(graph, first.stops, (first.train_weights[0], first.bonuses),
                               (second.train_weights[0], second.bonuses), problem.min_stops,
                               first.groups, steps, cancel)

    try:
        found = BOTH.get((problem, graph, objective, steps, options), walk)
    except Cancelled:
        return None  # the caller's own solves answer what the deadline leaves
    if found is None:
        return None
    build_ms = (time.perf_counter() - t1) * 1000
    return (_solution(problem, graph, found[0], objective, stats(build_ms=build_ms)),
            _solution(problem, graph, found[1], other, stats(build_ms=build_ms)))


def _limited_walks(
    problem: RouteProblem, graph: ReducedGraph, objective: Objective, first: Instance,
    second: Instance, cancel: CancelToken | None, steps: int,
) -> tuple[list[ListedRoute], list[ListedRoute]] | None:
    """A lone limited train's best route for each objective (``solver/listing/bestroute.py``):
    the first as ``solve`` finds it, the second above what the first route weighs in
    it (nothing above: the first route is the best in both). None where a walk gives
    up (``solve`` would then list or search the circuit).

    No second walk where the first route settles both (``engine/answer/objectives.py``'s
    rules, subsidies never negative): a best total paying no subsidy is the best
    revenue (no route earns more revenue than its total), and a best revenue
    collecting every subsidy of the board is the best total."""
    full = sum(max(0, s.distance_cost) for s in first.stops)
    distance = min(problem.trains[0].distance or 0, full)
    best = best_route(graph, first.stops, first.train_weights[0], first.bonuses, distance,
                      problem.min_stops, first.groups, steps, cancel)
    if best is None:
        return None
    subsidies = [stop.subsidy for stop in first.stops]
    if min(subsidies, default=0) >= 0:
        paid = sum(subsidies[s] for s in best[0].stops) if best else 0
        if paid == (0 if objective == "total" else sum(subsidies)):
            return best, [r for r in best if second.route_weight(r.stops, 0) > 0]
    floor = max(1, second.route_weight(best[0].stops, 0) + 1) if best else 1
    above = best_route(graph, second.stops, second.train_weights[0], second.bonuses, distance,
                       problem.min_stops, second.groups, steps, cancel, floor)
    if above is None:
        return None
    return best, above or [r for r in best if second.route_weight(r.stops, 0) > 0]


def _solution(problem: RouteProblem, graph: ReducedGraph, routes: list[ListedRoute],
              objective: Objective, stats: SolveStats) -> Solution:
    """A proven answer of the one train running ``routes`` (none or one: the routes listed)."""
    results = [_result(problem, graph, route) for route in routes]
    revenue = sum(r.revenue for r in results)
    subsidy = sum(r.subsidy for r in results)
    value = revenue + subsidy if objective == "total" else revenue
    return Solution(tuple(results), revenue, subsidy, "OPTIMAL", value, value, stats,
                    len(routes))


def _result(problem: RouteProblem, graph: ReducedGraph, route: ListedRoute) -> RouteResult:
    """A walk on the reduced graph as original stops and segments, in walking order."""
    segments: list[int] = []
    for seg_i, forward in route.steps:
        originals = graph.segments[seg_i].originals
        segments += originals if forward else originals[::-1]
    return price_route(problem, 0, tuple(graph.nodes[s] for s in route.stops), tuple(segments))
