"""An independent exhaustive witness for the CP-SAT model, built on networkx.

DESIGN.md §3 "correctness witnesses" (2). A witness that walks the same
reduced graph the same way as the solver's own route listing
(``solver/listing/routes.py``) would share its mistakes, so this module imports none
of the solver's pipeline (reduction, listing, model, search) — only the plain
problem types — and reads the rules straight from ``solver/problem.py``:

* the raw track network, unreduced, is a ``networkx.MultiGraph``: one node per
  stop, two per junction (one per side) joined by a *crossing* edge, and one
  edge per segment — parallel segments are distinct track, so a multigraph;
  a segment whose two ends are the same node is a loop no route can walk
  (a route visits every node at most once) and is left out;
* a route is a simple path from a stop to a stop (``all_simple_edge_paths``)
  in which every junction side it touches is followed or preceded by the
  crossing (it enters one side and leaves by the other: no U-turn); a
  ``route_end_only`` stop becomes one leaf per incident segment, so a path
  can start or end there but never pass through; each route is listed once, from its
  lower-numbered end;
* filters: at least ``min_stops`` stops, a station stop, at most one stop of
  each group, the sum of the stops' ``distance_cost`` within the train's
  distance (None: unlimited);
* prices: stop values plus every pair bonus whose two stop sets the route
  touches (revenue), stop subsidies (subsidy);
* the best combination (one route or none per train, no junction and no
  segment shared) by a branch and bound over trains.

Objectives as ``solve``: ``"total"`` maximises revenue + subsidy; ``"revenue"``
maximises revenue, then subsidy (``Solution.objective`` is the revenue).
Exponential: for small boards only (tests, tiny examples).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass

import networkx as nx

from route18xx.solver.problem import RouteProblem, RouteResult, Solution

#: Edge key of the crossing edge between the two sides of a junction.
CROSSING = "crossing"


@dataclass(frozen=True)
class Candidate:
    """One legal route (for some train): its walk, the track it takes and its figures.

    ``track`` holds ``("junction", j)`` for every junction passed and
    ``("segment", i)`` for every segment walked: what no second train may use.
    """

    stops: tuple[int, ...]
    segments: tuple[int, ...]
    track: frozenset[tuple[str, int]]
    cost: int
    revenue: int
    subsidy: int
    bonus: int


def _stop(s: int) -> tuple[str, int]:
    return ("stop", s)


def _side(junction: int, side: int) -> tuple[str, int, int]:
    return ("side", junction, side)


def track_graph(problem: RouteProblem) -> nx.MultiGraph:
    """The raw track network: stops, junction sides and crossings, segments as keyed edges."""
    n_stops = len(problem.stops)
    graph = nx.MultiGraph()
    graph.add_nodes_from(_stop(s) for s in range(n_stops))
    for j in range(len(problem.junctions)):
        graph.add_edge(_side(j, 0), _side(j, 1), key=CROSSING)

    def end(node: int, side: int) -> Hashable:
        return _stop(node) if node < n_stops else _side(node - n_stops, side)

    for i, seg in enumerate(problem.segments):
        if seg.a != seg.b and not problem.is_forbidden(i):
            graph.add_edge(end(seg.a, seg.side_a), end(seg.b, seg.side_b), key=i)
    return graph


def _ends_only(graph: nx.MultiGraph, problem: RouteProblem) -> nx.MultiGraph:
    """``graph`` with every route-end-only stop split into one leaf per segment.

    A leaf has one edge, so a simple path can start or end there but never pass.
    """
    out = graph.copy()
    for s, stop in enumerate(problem.stops):
        if not stop.route_end_only:
            continue
        for u, v, key in list(out.edges(_stop(s), keys=True)):
            other = v if u == _stop(s) else u
            out.add_edge(other, ("leaf", s, key), key=key)
        out.remove_node(_stop(s))
    return out


def _stop_of(node: Hashable) -> int | None:
    """The stop a graph node stands for (a stop or one of its leaves), else None."""
    if isinstance(node, tuple) and node[0] in ("stop", "leaf"):
        return int(node[1])
    return None


def walks(problem: RouteProblem) -> Iterator[tuple[list[int], list[int], list[int]]]:
    """Every simple stop-to-stop walk that respects junction sides and route ends.

    Yields (stops, segments, junctions) in walking order, each walk once
    (first stop < last stop); single stops are not walks.
    """
    graph = _ends_only(track_graph(problem), problem)
    by_stop: dict[int, list[Hashable]] = {}
    for node in graph:
        s = _stop_of(node)
        if s is not None:
            by_stop.setdefault(s, []).append(node)
    for start in sorted(by_stop):
        targets = [n for s, nodes in by_stop.items() if s > start for n in nodes]
        if not targets:
            continue
        for path in (
            p for origin in by_stop[start] for p in nx.all_simple_edge_paths(graph, origin, targets)
        ):
            nodes = [path[0][0]] + [v for _, v, _ in path]
            keys = [k for _, _, k in path]
            stops, segments, junctions = [start], [], []
            legal = True
            for i in range(1, len(nodes)):
                node, key = nodes[i], keys[i - 1]
                if key == CROSSING:
                    junctions.append(int(node[1]))
                    continue
                segments.append(int(key))
                s = _stop_of(node)
                if s is not None:
                    stops.append(s)
                elif keys[i] != CROSSING:  # at a junction side, not crossing: a U-turn
                    legal = False
                    break
            if legal:
                yield stops, segments, junctions


def candidates(problem: RouteProblem) -> list[Candidate]:
    """Every route legal for some train (distance is checked per train later)."""
    stops = problem.stops
    need = max(problem.min_stops, 1)
    found: list[Candidate] = []

    def add(path: list[int], segments: list[int], junctions: list[int]) -> None:
        visited = set(path)
        if len(path) < need or not any(stops[s].station for s in path):
            return
        if any(len(group & visited) > 1 for group in problem.groups):
            return
        bonus = sum(b.value for b in problem.bonuses if b.first & visited and b.second & visited)
        track = frozenset(
            [("segment", i) for i in segments] + [("junction", j) for j in junctions]
        )
        found.append(
            Candidate(
                tuple(path),
                tuple(segments),
                track,
                cost=sum(stops[s].distance_cost for s in path),
                revenue=sum(stops[s].value for s in path) + bonus,
                subsidy=sum(stops[s].subsidy for s in path),
                bonus=bonus,
            )
        )

    if need <= 1:  # a one-stop route walks no track
        for s in range(len(stops)):
            add([s], [], [])
    for path, segments, junctions in walks(problem):
        add(path, segments, junctions)
    return found


def as_run_by(problem: RouteProblem, train: int, c: Candidate) -> Candidate:
    """``c`` as train ``train`` runs it: its revenue with the stops' values for that
    train (``Train.stop_values`` replaces a stop's ``value``), read from the problem."""
    own = dict(problem.trains[train].stop_values)
    if not own:
        return c
    revenue = c.bonus + sum(own.get(s, problem.stops[s].value) for s in c.stops)
    return Candidate(c.stops, c.segments, c.track, c.cost, revenue, c.subsidy, c.bonus)


def best_combination(
    options: list[list[tuple[int, Candidate]]],
) -> list[Candidate | None]:
    """One candidate or none per train, track-disjoint, of the greatest total value.

    ``options[t]`` lists train t's (value, candidate) pairs. Branch and bound:
    trains in order, each train's options by decreasing value, pruned by the
    sum of the remaining trains' best values.
    """
    k = len(options)
    ranked = [sorted(o, key=lambda vc: -vc[0]) for o in options]
    rest = [0] * (k + 1)
    for t in range(k - 1, -1, -1):
        rest[t] = rest[t + 1] + max([0] + [v for v, _ in ranked[t]])
    best: list[Candidate | None] = [None] * k
    best_value = 0
    chosen: list[Candidate | None] = [None] * k

    def search(t: int, used: frozenset[tuple[str, int]], value: int) -> None:
        nonlocal best, best_value
        if t == k:
            if value > best_value:
                best, best_value = list(chosen), value
            return
        for v, c in ranked[t]:
            if value + v + rest[t + 1] <= best_value:
                break
            if not c.track & used:
                chosen[t] = c
                search(t + 1, used | c.track, value + v)
        chosen[t] = None
        if value + rest[t + 1] > best_value:
            search(t + 1, used, value)

    search(0, frozenset(), 0)
    return best


def brute_force(problem: RouteProblem, *, objective: str = "total") -> Solution:
    """The optimum by exhaustive search; same objective conventions as ``solve``.

    ``"total"``: maximise revenue + subsidy (``objective`` = that sum).
    ``"revenue"``: maximise revenue, then subsidy (``objective`` = revenue).

    >>> from route18xx.solver.problem import Segment, Stop, Train, NO_SIDE
    >>> p = RouteProblem((Stop("A", 20, station=True), Stop("B", 30)), (),
    ...                  (Segment(0, 1, NO_SIDE, NO_SIDE, "ab"),), (Train("2", 2),))
    >>> s = brute_force(p)
    >>> s.objective, s.routes[0].stops
    (50, (0, 1))
    """
    if objective == "total":
        weight = 1
    elif objective == "revenue":  # revenue first: one ¥ of revenue outweighs every subsidy
        weight = 1 + len(problem.trains) * sum(abs(s.subsidy) for s in problem.stops)
    else:
        raise ValueError(f"unknown objective {objective!r}")
    routes = candidates(problem) if problem.trains else []
    options = [
        [
            (weight * c.revenue + c.subsidy, c)
            for c in (as_run_by(problem, t, c) for c in routes)
            if train.distance is None or c.cost <= train.distance
        ]
        for t, train in enumerate(problem.trains)
    ]
    best = best_combination(options)
    results = tuple(
        RouteResult(t, c.stops, c.segments, c.revenue, c.subsidy, c.bonus)
        for t, c in enumerate(best)
        if c is not None
    )
    revenue = sum(r.revenue for r in results)
    subsidy = sum(r.subsidy for r in results)
    value = revenue + subsidy if objective == "total" else revenue
    return Solution(results, revenue, subsidy, "OPTIMAL", value, value)
