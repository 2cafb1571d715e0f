"""A game-agnostic check of a ``Solution`` against its ``RouteProblem``.

It re-derives everything from the problem data and the routes' stops and
segments, trusting nothing the solver computed (STYLE.md §6: every solver
result passes a validator; the engine adds its own 1888 check on top).
The rules are those of ``solver/problem.py`` and DESIGN.md §3.
"""

from __future__ import annotations

from route18xx.solver.problem import RouteProblem, RouteResult, Solution


def _walk(problem: RouteProblem, route: RouteResult, where: str) -> tuple[list[str], set[int]]:
    """Check the walk of one route; returns (violations, junction nodes passed)."""
    errors: list[str] = []
    n_stops, n = len(problem.stops), problem.node_count
    stops, junctions = route.stops, set[int]()
    node, entered, i = stops[0], -1, 1
    on = {node}
    for seg_i in route.segments:
        if not 0 <= seg_i < len(problem.segments):
            return [f"{where}: segment {seg_i} does not exist"], junctions
        seg = problem.segments[seg_i]
        if problem.is_forbidden(seg_i):
            errors.append(f"{where}: segment {seg_i} is forbidden track")
        if seg.a == seg.b or node not in (seg.a, seg.b):
            return [f"{where}: segment {seg_i} does not continue from node {node}"], junctions
        if seg.a == node:
            leave, nxt, arrive = seg.side_a, seg.b, seg.side_b
        else:
            leave, nxt, arrive = seg.side_b, seg.a, seg.side_a
        if node >= n_stops and leave != 1 - entered:
            errors.append(f"{where}: junction {node} entered on side {entered}, left on {leave}")
        if nxt in on:
            errors.append(f"{where}: node {nxt} visited twice")
        on.add(nxt)
        if not 0 <= nxt < n:
            return errors + [f"{where}: segment {seg_i} leads to no node"], junctions
        if nxt < n_stops:
            if i >= len(stops) or stops[i] != nxt:
                errors.append(f"{where}: walk reaches stop {nxt}, not the listed stop")
                return errors, junctions
            i += 1
        else:
            junctions.add(nxt)
        node, entered = nxt, arrive
    if node != stops[-1] or i != len(stops):
        errors.append(f"{where}: segments do not lead through all stops to stop {stops[-1]}")
    return errors, junctions


def _check_route(
    problem: RouteProblem, route: RouteResult, where: str
) -> tuple[list[str], set[int]]:
    errors: list[str] = []
    stops = route.stops
    if not stops:
        return [f"{where}: no stops"], set()
    if any(not 0 <= s < len(problem.stops) for s in stops):
        return [f"{where}: a stop index does not exist"], set()
    if len(set(stops)) != len(stops):
        errors.append(f"{where}: a stop is visited twice")
    walk_errors, junctions = _walk(problem, route, where)
    errors += walk_errors
    data = [problem.stops[s] for s in stops]
    for s, stop in zip(stops[1:-1], data[1:-1]):
        if stop.route_end_only:
            errors.append(f"{where}: stop {stop.name} ({s}) may only be a route end")
    if len(stops) < max(problem.min_stops, 1):
        errors.append(f"{where}: {len(stops)} stops, at least {problem.min_stops} needed")
    if not any(stop.station for stop in data):
        errors.append(f"{where}: no station stop")
    distance = problem.trains[route.train].distance
    cost = sum(stop.distance_cost for stop in data)
    if distance is not None and cost > distance:
        errors.append(f"{where}: distance {cost} exceeds the train's {distance}")
    for g, group in enumerate(problem.groups):
        if len(group & set(stops)) > 1:
            errors.append(f"{where}: visits more than one stop of group {g}")
    visited = set(stops)
    bonus = sum(b.value for b in problem.bonuses if visited & b.first and visited & b.second)
    own = dict(problem.trains[route.train].stop_values)  # what this train earns instead
    revenue = sum(own.get(s, stop.value) for s, stop in zip(stops, data)) + bonus
    subsidy = sum(stop.subsidy for stop in data)
    for what, claimed, actual in (
        ("revenue", route.revenue, revenue),
        ("subsidy", route.subsidy, subsidy),
        ("bonus", route.bonus, bonus),
    ):
        if claimed != actual:
            errors.append(f"{where}: {what} {claimed}, recomputed {actual}")
    return errors, junctions


def validate(problem: RouteProblem, solution: Solution, objective: str | None = None) -> list[str]:
    """Every violation of the route rules in ``solution``, as readable sentences.

    An empty list means the solution is legal and its figures are right.
    ``objective`` (``"total"``/``"revenue"``), when given, also checks
    ``solution.objective`` against the recomputed figures.
    """
    errors: list[str] = []
    trains_seen: set[int] = set()
    junction_owner: dict[int, int] = {}
    segment_owner: dict[int, int] = {}
    for route in solution.routes:
        where = f"train {route.train}"
        if not 0 <= route.train < len(problem.trains):
            errors.append(f"{where}: no such train")
            continue
        where = f"train {route.train} ({problem.trains[route.train].name})"
        if route.train in trains_seen:
            errors.append(f"{where}: more than one route")
        trains_seen.add(route.train)
        route_errors, junctions = _check_route(problem, route, where)
        errors += route_errors
        for p in sorted(junctions):
            if junction_owner.setdefault(p, route.train) != route.train:
                errors.append(f"{where}: junction {p} already used by train {junction_owner[p]}")
        for seg in route.segments:
            if segment_owner.setdefault(seg, route.train) != route.train:
                errors.append(f"{where}: segment {seg} already used by train {segment_owner[seg]}")
    revenue = sum(r.revenue for r in solution.routes)
    subsidy = sum(r.subsidy for r in solution.routes)
    if solution.revenue != revenue:
        errors.append(f"solution revenue {solution.revenue}, routes sum to {revenue}")
    if solution.subsidy != subsidy:
        errors.append(f"solution subsidy {solution.subsidy}, routes sum to {subsidy}")
    if objective is not None:
        expected = revenue + subsidy if objective == "total" else revenue
        if solution.objective != expected:
            errors.append(f"objective {solution.objective}, expected {expected} ({objective})")
    return errors
