"""The public ``solve``: reduce, build, search, and read the routes back (DESIGN.md §3).

Objectives (``Objective``):

* ``"total"`` (default): maximise revenue + subsidy. ``Solution.objective`` is
  revenue + subsidy.
* ``"revenue"``: maximise revenue first (dividend income), subsidy only as a
  tie-break (the model maximises revenue·M + subsidy with M larger than any
  total subsidy). ``Solution.objective`` and ``bound`` are the revenue.

Search settings, measured on the real 1888 states and generated worst cases:
one worker, a fixed seed and stages cut by deterministic time, never by the
wall clock, make the work deterministic (same input → same routes, bound and
branches, whatever the machine's load, as long as the call's own time limit is
not reached); presolve off; the linear relaxation as ``BuiltModel.linearization``
chooses it: off for one circuit train (it only slows it), on for listed routes
(set packing: the LP bound proves optimality quickly), with circuit cuts for
two circuit trains or a circuit beside listed routes (the hard boards of
tests/data/boards), after a short LP-free stage (``SolveOptions.quick_stage_dtime``); probing level 1
(``SolveOptions.probing_without_cuts``, ``probing_with_cuts``: issue 35, the boards past the
pair listing's budget).

No search where the answer is certain: a lone listed train takes its best
route, two trains whose routes list within the budget take the best pair
(``solver/listing/pairs.py``, issue 21: exact, no CP-SAT), and trains all listed take
their best packing (``solver/listing/packing.py``: an exhaustive search, proven; among
tied optima the first in its order, where CP-SAT would pick one by its search:
issue 21 measured these ties at 2-8 ms of CP-SAT on real 4 + 5 and 3 + 4
states); below a floor that is ``INFEASIBLE`` at once. The listing budget is a
count scaled by the time limit (``SolveOptions.pair_steps_per_s``), and the time limit bounds
the whole solve.

Always an answer (issue 11): a greedy first solution (``solver/listing/greedy.py``) is
CP-SAT's hint when several trains share the track, and the answer, status
``FEASIBLE`` with CP-SAT's or the trivial bound, when the search finds nothing
better before its time limit. Only a search cancelled before it starts comes
back ``UNKNOWN`` with no routes.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.errors import Cancelled, InvalidProblem
from route18xx.solver.listing.greedy import greedy_routes
from route18xx.solver.model.model import METHODS, OBJECTIVES, BuiltModel, Instance, Method, Objective, build_model
from route18xx.solver.problem import (
    RouteProblem, RouteResult, Segment, Solution, SolveStats, Stop, Train,
)
from route18xx.solver.runtime.derived import Lru
from route18xx.solver.graph.reduce import ReducedGraph, reduce_problem
from route18xx.solver.runtime.tally import solve_tally
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

if TYPE_CHECKING:  # loaded on the first CP-SAT search, not for solves listing decides
    from ortools.sat.python import cp_model_helper


def price_route(
    problem: RouteProblem, train: int, stops: tuple[int, ...], segments: tuple[int, ...]
) -> RouteResult:
    """A route's figures from the problem data (what this train earns at each stop);
    its revenue includes its bonuses."""
    visited = set(stops)
    bonus = sum(b.value for b in problem.bonuses if visited & b.first and visited & b.second)
    if problem.trains[train].stop_values:
        values = problem.values_of(train)
        revenue = sum(values[s] for s in stops) + bonus
    else:
        revenue = sum(problem.stops[s].value for s in stops) + bonus
    subsidy = sum(problem.stops[s].subsidy for s in stops)
    return RouteResult(train, stops, segments, revenue, subsidy, bonus)


def _expand(
    built: BuiltModel, k: int, stops: Sequence[int], steps: Iterable[tuple[int, bool]]
) -> RouteResult:
    """A walk on the reduced graph as original stops and segments, in walking order."""
    graph = built.instance.graph
    segments: list[int] = []
    for seg_i, forward in steps:
        originals = graph.segments[seg_i].originals
        segments += originals if forward else originals[::-1]
    original_stops = tuple(graph.nodes[s] for s in stops)
    return price_route(built.instance.problem, k, original_stops, tuple(segments))


def _listed_results(built: BuiltModel, runs: Sequence[Sequence[int]]) -> list[RouteResult]:
    """The routes the listed groups run (``runs[g]``: route indices), best route to first train."""
    routes = []
    for group, group_runs in zip(built.listed, runs):
        ordered = sorted(group_runs, key=lambda r: (-group.weights[r], r))
        for k, r in zip(group.trains, ordered):
            route = group.routes[r]
            routes.append(_expand(built, k, route.stops, route.steps))
    return routes


def _routes(built: BuiltModel, solution: list[int]) -> list[RouteResult]:
    """Every train's route from a solution vector (listed ones: best route to first train)."""
    routes = []
    for k, tv in built.circuits.items():
        stops, steps = tv.extract(solution)
        if stops:
            routes.append(_expand(built, k, stops, steps))
    runs = []
    for group in built.listed:
        group_runs = []
        for r, choice in enumerate(group.choices):
            group_runs += [r] * solution[choice]
        runs.append(group_runs)
    routes += _listed_results(built, runs)
    return sorted(routes, key=lambda route: route.train)


def _single_listed(built: BuiltModel) -> list[RouteResult] | None:
    """With one listed train and no circuit, the best listed route is the answer."""
    if built.circuits or sum(len(g.trains) for g in built.listed) != 1:
        return None
    group = next(g for g in built.listed if g.trains)
    if not group.routes:
        return []
    best = max(range(len(group.routes)), key=lambda r: (group.weights[r], -r))
    route = group.routes[best]
    return [_expand(built, group.trains[0], route.stops, route.steps)]


def _packed_listed(built: BuiltModel) -> list[RouteResult] | None:
    """With every train listed, the best packing is the answer (``BuiltModel.packed``):
    proven by the packing search, which visits every packing that could beat it."""
    if built.packed is None:
        return None
    return sorted(_listed_results(built, built.packed), key=lambda route: route.train)


def _parameters(
    time_limit_s: float, workers: int, seed: int, linearization: int, probing: int | None = None
) -> cp_model_helper.SatParameters:
    from ortools.sat.python import cp_model_helper

    params = cp_model_helper.SatParameters()
    params.num_workers = workers
    params.random_seed = seed
    params.max_time_in_seconds = max(time_limit_s, 0.0)
    params.cp_model_presolve = False
    params.linearization_level = linearization
    if probing is not None:
        params.cp_model_probing_level = probing
    return params


def _bound(
    problem: RouteProblem,
    objective: Objective,
    scale: int,
    response: cp_model_helper.CpSolverResponse | None,
) -> int:
    """An upper bound on ``Solution.objective``: CP-SAT's, or a trivial one.

    The trivial bound lets every train collect every positive stop value and
    bonus; in ``"revenue"`` mode CP-SAT's bound on revenue·M + subsidy becomes
    a bound on revenue using the lowest possible total subsidy.
    """
    k = len(problem.trains)
    with_subsidy = objective == "total"
    bonuses = sum(max(0, b.value) for b in problem.bonuses)
    trivial = sum(
        sum(max(0, value + (s.subsidy if with_subsidy else 0))
            for value, s in zip(problem.values_of(t), problem.stops)) + bonuses
        for t in range(k))
    if response is None or response.status.name != "FEASIBLE":
        return trivial  # without a solution CP-SAT's bound is not meaningful
    if not math.isfinite(response.best_objective_bound):
        return trivial
    raw = response.best_objective_bound
    if scale > 1:
        lowest_subsidy = k * sum(min(0, s.subsidy) for s in problem.stops)
        raw = (raw - lowest_subsidy) / scale
    return min(trivial, math.floor(raw + 1e-9))


def _search(
    built: BuiltModel, time_limit_s: float, workers: int, seed: int, cancel: CancelToken | None,
    floor: int | None = None,
    requested_s: float | None = None,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> tuple[cp_model_helper.CpSolverResponse | None, bool, int, int]:
    """Run CP-SAT on the built model: (its last response, whether it ran at all,
    branches and conflicts summed over the stages). ``time_limit_s`` is the time
    left; the stages are chosen from the call's ``requested_s`` (default: the same),
    never from the clock. ``floor``: only solutions whose model objective reaches it
    (``solve``'s floor, scaled)."""
    from ortools.sat.python import cp_model_helper

    if time_limit_s < options.min_search_s:
        return None, True, 0, 0  # no time left for CP-SAT: the first solution answers
    proto = built.model.proto()
    if floor is not None:  # maximised value >= floor, on the stored (negated) objective
        objective = proto.objective
        constraint = proto.constraints.add().linear
        constraint.vars.extend(objective.vars)
        constraint.coeffs.extend(objective.coeffs)
        constraint.domain.extend([-(2**62), -floor - int(objective.offset)])
    level = built.linearization
    stages: list[tuple[int, float | None]] = [(level, None)]
    requested = time_limit_s if requested_s is None else requested_s
    if level == 2 and not built.listed_routes and requested > options.two_stages_from_s:
        stages = [(0, options.quick_stage_dtime), (2, None)]
    deadline = time.monotonic() + max(time_limit_s, 0.0)
    if cancel is not None and cancel.deadline is not None:
        # one deadline for every solve of an answer (issue 21 item 4): the token's
        deadline = min(deadline, cancel.deadline)
    response = None
    branches = conflicts = 0
    for stage, (linearization, dtime) in enumerate(stages):
        if stage and time.monotonic() >= deadline:
            break  # no time left for a later stage: the earlier one's answer stands
        if stage and response is not None and response.status.name == "FEASIBLE":
            proto.clear_solution_hint()
            proto.solution_hint.vars.extend(range(len(proto.variables)))
            proto.solution_hint.values.extend(response.solution)
        wrapper = cp_model_helper.SolveWrapper()
        probing = options.probing_without_cuts if level < 2 else options.probing_with_cuts
        params = _parameters(deadline - time.monotonic(), workers, seed, linearization, probing)
        if dtime is not None:
            params.max_deterministic_time = dtime
        wrapper.set_parameters(params)
        if cancel is not None and not cancel.attach(wrapper):
            return response, stage > 0, branches, conflicts
        try:
            response = wrapper.solve(proto)  # type: ignore[no-untyped-call]
        finally:
            if cancel is not None:
                cancel.detach(wrapper)
        branches += response.num_branches
        conflicts += response.num_conflicts
        if response.status.name in ("OPTIMAL", "INFEASIBLE") or (
            cancel is not None and cancel.cancelled
        ):
            break
    return response, True, branches, conflicts


def _value(routes: Sequence[RouteResult], objective: Objective) -> int:
    """``Solution.objective`` of these routes."""
    revenue = sum(r.revenue for r in routes)
    return revenue + sum(r.subsidy for r in routes) if objective == "total" else revenue


def _scaled_floor(problem: RouteProblem, floor: int, instance: Instance) -> int:
    """``solve``'s floor on the model's objective: in ``"revenue"`` mode revenue·M +
    subsidy reaches floor·M + the lowest possible subsidy exactly when revenue
    reaches floor (M exceeds any spread of subsidies)."""
    scale = instance.scale
    if scale == 1:
        return floor
    return floor * scale + len(problem.trains) * sum(min(0, s.subsidy) for s in problem.stops)


#: The reduced graph per problem content (``solver/runtime/derived.py``).
REDUCED: Lru[ReducedGraph] = Lru()


def solve(
    problem: RouteProblem,
    *,
    objective: Objective = "total",
    time_limit_s: float = 10.0,
    workers: int = 1,
    seed: int = 0,
    cancel: CancelToken | None = None,
    method: Method = "auto",
    floor: int | None = None,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> Solution:
    """Optimal routes for ``problem`` (DESIGN.md §3); objectives as in the module docstring.

    ``cancel``: a ``CancelToken`` another thread may trigger to stop the search
    (the best routes found so far come back, status ``FEASIBLE``/``UNKNOWN``);
    its deadline, if any, also ends the search (several solves sharing one
    deadline: issue 21). ``time_limit_s`` alone chooses the search's stages, so
    the same request does the same work however much of the deadline is left.
    ``method``: ``"auto"`` lists the routes of limited trains when they are
    few (``solver/listing/routes.py``); ``"circuit"`` models every train as a circuit.
    ``floor``: only answers whose ``objective`` reaches it (issue 21: a second
    objective's search that knows what it must beat). When none does, the status
    is ``"INFEASIBLE"``, proven: no routes, ``bound`` floor - 1; otherwise the
    answer is what it would be without a floor (the optimum reaches it).

    >>> from route18xx.solver.problem import Stop, Segment, Train
    >>> p = RouteProblem(stops=(Stop("A", 20, station=True), Stop("B", 30)),
    ...     junctions=(), segments=(Segment(0, 1, -1, -1, "ab"),), trains=(Train("2", 2),))
    >>> s = solve(p)
    >>> s.status, s.revenue, s.routes[0].stops
    ('OPTIMAL', 50, (0, 1))
    """
    started = time.perf_counter()
    status = "ERROR"
    try:
        solution = _solve(problem, objective=objective, time_limit_s=time_limit_s,
                          workers=workers, seed=seed, cancel=cancel, method=method, floor=floor,
                          options=options)
        status = solution.status
        return solution
    finally:  # every solve, failed or not, for a server's metrics (``solver.tally``)
        solve_tally.record(status, time.perf_counter() - started)


def _solve(
    problem: RouteProblem,
    *,
    objective: Objective,
    time_limit_s: float,
    workers: int,
    seed: int,
    cancel: CancelToken | None,
    method: Method,
    floor: int | None,
    options: SolveOptions,
) -> Solution:
    """``solve``'s work (its docstring), not counted."""
    if objective not in OBJECTIVES:
        raise InvalidProblem(f"objective: unknown {objective!r}, expected one of {OBJECTIVES}")
    if method not in METHODS:
        raise InvalidProblem(f"method: unknown {method!r}, expected one of {METHODS}")
    t0 = time.perf_counter()
    graph = REDUCED.get(problem, lambda: reduce_problem(problem))
    t1 = time.perf_counter()

    def stats(**more: Any) -> SolveStats:
        """The solve's figures: the reduction's and ``more`` (made once, at the end)."""
        return SolveStats(nodes_before=problem.node_count, segments_before=len(problem.segments),
                          nodes_after=graph.node_count, segments_after=len(graph.segments),
                          reduce_ms=(t1 - t0) * 1000, **more)

    if not problem.trains or graph.stop_count == 0:
        if floor is not None and floor > 0:
            return Solution((), 0, 0, "INFEASIBLE", 0, floor - 1, stats())
        return Solution((), 0, 0, "OPTIMAL", 0, 0, stats())

    # Listing steps for this call: a short time limit lists less (a count, not the clock).
    steps = min(options.pair_steps, int(time_limit_s * options.pair_steps_per_s))
    greedy_steps = min(options.greedy_steps, int(time_limit_s * options.greedy_steps_per_s))
    width = min(options.beam_width, int(time_limit_s * options.beam_width_per_s))
    try:
        instance = Instance.make(problem, graph, objective)
        scaled = None if floor is None else _scaled_floor(problem, floor, instance)
        built = build_model(instance, method, cancel=cancel, pair_steps=steps, floor=scaled,
                            reach_steps=int(time_limit_s * options.reach_steps_per_s),
                            options=options)
    except Cancelled:  # the deadline passed while building: nothing found
        return Solution((), 0, 0, "UNKNOWN", 0, _bound(problem, objective, 1, None),
                        stats(build_ms=(time.perf_counter() - t1) * 1000))
    t2 = time.perf_counter()
    response = None
    branches = conflicts = 0
    routes = _single_listed(built)
    if routes is None:
        routes = _packed_listed(built)
    if routes is not None:
        status = "OPTIMAL"
        if floor is not None and _value(routes, objective) < floor:
            routes, status = [], "INFEASIBLE"  # the optimum itself is below the floor
    else:
        # A first solution as the hint where several trains share the track; a lone
        # train's model is found at once, so its greedy is only the fallback below,
        # unless its branch and bound gave up: then the best route it found.
        first = built.first or None
        if len(problem.trains) > 1:
            first = greedy_routes(built.instance, greedy_steps,
                                  listed=built.listed_pools(), options=options, width=width)
        if first is not None:
            built.hint(first)
        # The time limit bounds the whole solve: the search gets what listing left.
        left = time_limit_s - (time.perf_counter() - t0)
        response, searched, branches, conflicts = _search(
            built, left, workers, seed, cancel, scaled, time_limit_s, options)
        status = "UNKNOWN" if response is None else response.status.name
        known = ("OPTIMAL", "FEASIBLE", "UNKNOWN") + (("INFEASIBLE",) if floor is not None else ())
        if status not in known:
            raise RuntimeError(f"CP-SAT returned {status} for the route model (a solver bug)")
        routes = []
        if response is not None and status in ("OPTIMAL", "FEASIBLE"):
            routes = _routes(built, list(response.solution))
        if searched and status not in ("OPTIMAL", "INFEASIBLE"):
            # Always an answer (issue 11): the greedy routes when CP-SAT found nothing better.
            weight = built.instance.route_weight
            if first is None:
                first = greedy_routes(built.instance, greedy_steps,
                                      listed=built.listed_pools(), options=options,
                                      width=width)
            greedy_weight = sum(weight(r.stops, k) for k, r in first.items())
            found = response.objective_value if response is not None and routes else -1
            if greedy_weight > found and (scaled is None or greedy_weight >= scaled):
                routes = [_expand(built, k, r.stops, r.steps) for k, r in sorted(first.items())]
            status = "FEASIBLE" if routes or scaled is None else "UNKNOWN"
    t3 = time.perf_counter()

    revenue = sum(r.revenue for r in routes)
    subsidy = sum(r.subsidy for r in routes)
    value = revenue + subsidy if objective == "total" else revenue
    if status == "OPTIMAL":
        bound = value
    elif status == "INFEASIBLE":
        bound = int(floor if floor is not None else 0) - 1  # proven: nothing reaches the floor
    else:
        bound = _bound(problem, objective, built.instance.scale, response)
    figures = stats(
        arcs=built.layout.arc_count if built.layout is not None else 0,
        variables=built.model.variable_count,
        constraints=built.model.constraint_count,
        build_ms=(t2 - t1) * 1000,
        solver_ms=(t3 - t2) * 1000,
        branches=branches,
        conflicts=conflicts,
    )
    return Solution(tuple(routes), revenue, subsidy, status, value, bound, figures,
                    built.listed_routes)


def warm_up() -> None:
    """Load CP-SAT and run its circuit model once on a two-stop problem (uncounted), and
    load the pair scan's numpy listing (long listings only; numpy's import is ~0.2 s).

    A process's first CP-SAT search otherwise pays OR-Tools' extension import and
    first-use set-up, ~70-100 ms, inside a client's answer: boards whose fast paths
    never reach CP-SAT (a server's warm-up board among them) leave it for the first
    hard board, whose 20 ms answer then took 110 ms (issue 21, item 5).
    """
    problem = RouteProblem(stops=(Stop("A", 20, station=True), Stop("B", 30)),
                           junctions=(), segments=(Segment(0, 1, -1, -1, "ab"),),
                           trains=(Train("2", 2), Train("D", None)))
    with solve_tally.uncounted():
        solve(problem, method="circuit", time_limit_s=1.0)
    importlib.import_module("route18xx.solver.listing.pairvector")

