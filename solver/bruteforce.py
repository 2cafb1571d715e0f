"""An exhaustive route enumerator: the reference the CP-SAT model is tested against.

DESIGN.md §3 "correctness witnesses" (2). It shares nothing with the model but
the problem types: it walks the ORIGINAL graph (no reduction), lists every
legal route by depth-first search, then tries every combination of one route
or none per train whose track (junctions and segments) is disjoint, keeping
the best. Exponential: for small boards only (tests, tiny examples).

A legal route (``solver/problem.py``): a simple walk stop → … → stop that
enters each junction on one side and leaves by the other, never passes
through a ``route_end_only`` stop, has at least ``min_stops`` stops and a
station stop, at most one stop per group, and a distance cost within the
train's distance. Its revenue is its stop values plus each pair bonus whose
two stop sets it touches; its subsidy is the sum of its stops' subsidies.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.solver.problem import RouteProblem, RouteResult, Solution


@dataclass(frozen=True)
class Candidate:
    """One legal route (train-independent): its walk, track mask and figures."""

    stops: tuple[int, ...]
    segments: tuple[int, ...]
    track: int  # bit per junction node, and bit node_count + i per segment i
    cost: int
    revenue: int
    subsidy: int
    bonus: int


def enumerate_routes(problem: RouteProblem, max_cost: int | None = None) -> list[Candidate]:
    """Every legal route of cost ≤ ``max_cost`` (None: any), each once (first stop < last)."""
    stops, n_stops, n = problem.stops, len(problem.stops), problem.node_count
    adjacent: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
    for i, seg in enumerate(problem.segments):
        if seg.a != seg.b:
            adjacent[seg.a].append((i, seg.b, seg.side_a, seg.side_b))
            adjacent[seg.b].append((i, seg.a, seg.side_b, seg.side_a))
    group_of: dict[int, list[int]] = {}
    for g, group in enumerate(problem.groups):
        for s in group:
            group_of.setdefault(s, []).append(g)
    limit = float("inf") if max_cost is None else max_cost
    need = max(problem.min_stops, 1)
    found: list[Candidate] = []

    def record(path: list[int], segs: list[int], track: int, cost: int) -> None:
        if len(path) < need or not any(stops[s].station for s in path):
            return
        visited = set(path)
        bonus = sum(b.value for b in problem.bonuses if visited & b.first and visited & b.second)
        revenue = sum(stops[s].value for s in path) + bonus
        subsidy = sum(stops[s].subsidy for s in path)
        found.append(Candidate(tuple(path), tuple(segs), track, cost, revenue, subsidy, bonus))

    def walk(
        node: int, entered: int, path: list[int], segs: list[int], on: set[int],
        groups: set[int], track: int, cost: int,
    ) -> None:
        if node < n_stops:
            if len(path) > 1 or need <= 1:
                if path[0] < path[-1] or len(path) == 1:
                    record(path, segs, track, cost)
                if len(path) > 1 and stops[node].route_end_only:
                    return
        for seg, other, my_side, other_side in adjacent[node]:
            if other in on or (node >= n_stops and my_side != 1 - entered):
                continue
            seg_track = track | 1 << (n + seg)
            if other < n_stops:
                new_cost = cost + stops[other].distance_cost
                other_groups = group_of.get(other, [])
                if new_cost > limit or any(g in groups for g in other_groups):
                    continue
                path.append(other)
                on.add(other)
                segs.append(seg)
                walk(other, -1, path, segs, on, groups | set(other_groups), seg_track, new_cost)
                path.pop()
                segs.pop()
                on.discard(other)
            else:
                on.add(other)
                segs.append(seg)
                walk(other, other_side, path, segs, on, groups, seg_track | 1 << other, cost)
                segs.pop()
                on.discard(other)

    for s in range(n_stops):
        cost = stops[s].distance_cost
        if cost <= limit:
            walk(s, -1, [s], [], {s}, set(group_of.get(s, [])), 0, cost)
    return found


def brute_force(problem: RouteProblem, *, objective: str = "total") -> Solution:
    """The optimum by exhaustive search; same objective conventions as ``solve``.

    ``"total"``: maximise revenue + subsidy (``objective`` = that sum).
    ``"revenue"``: maximise revenue, then subsidy (``objective`` = revenue).
    """
    k = len(problem.trains)
    if objective == "total":
        scale = 1
    elif objective == "revenue":
        scale = 1 + k * sum(abs(s.subsidy) for s in problem.stops)
    else:
        raise ValueError(f"unknown objective {objective!r}")
    limits = [t.distance for t in problem.trains]
    finite = [d for d in limits if d is not None]
    max_cost = None if len(finite) < k else max(finite, default=0)
    routes = enumerate_routes(problem, max_cost) if k else []

    # Identical trains (same distance) next to each other, so one order suffices.
    order = sorted(range(k), key=lambda t: (limits[t] is None, limits[t] or 0, t))
    options: list[list[tuple[int, Candidate]]] = []
    for t in order:
        d = limits[t]
        fits = [r for r in routes if d is None or r.cost <= d]
        scored = [(scale * r.revenue + r.subsidy, r) for r in fits]
        options.append(sorted(scored, key=lambda vr: -vr[0]))
    suffix = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        suffix[i] = suffix[i + 1] + max([0] + [v for v, _ in options[i]])

    best_value = 0
    best: list[Candidate | None] = [None] * k
    chosen: list[Candidate | None] = [None] * k

    def search(i: int, used: int, value: int, first: int) -> None:
        nonlocal best_value, best
        if i == k:
            if value > best_value:
                best_value, best = value, list(chosen)
            return
        if value + suffix[i] <= best_value:
            return
        same_as_next = i + 1 < k and limits[order[i + 1]] == limits[order[i]]
        for j in range(first, len(options[i])):
            v, r = options[i][j]
            if value + v + suffix[i + 1] <= best_value:
                break
            if r.track & used == 0:
                chosen[i] = r
                search(i + 1, used | r.track, value + v, j if same_as_next else 0)
        chosen[i] = None
        search(i + 1, used, value, len(options[i + 1]) if same_as_next else 0)

    search(0, 0, 0, 0)
    results = [
        RouteResult(order[i], r.stops, r.segments, r.revenue, r.subsidy, r.bonus)
        for i, r in enumerate(best)
        if r is not None
    ]
    results.sort(key=lambda r: r.train)
    revenue = sum(r.revenue for r in results)
    subsidy = sum(r.subsidy for r in results)
    value = revenue + subsidy if objective == "total" else revenue
    return Solution(tuple(results), revenue, subsidy, "OPTIMAL", value, value)
