"""Listing every legal route of a limited train on the reduced graph.

A train of distance d can only run short routes, and on real 18xx boards there
are few of them (191 legal 4-train routes on the fullest 1888 board). Listing
them turns the train into one literal per route: the route rules (junction
sides, route ends, distance, stops, station, groups) are checked here once,
and the model only has to choose routes with disjoint track — a set packing
with a strong linear relaxation, where the circuit model of DESIGN.md §3 has a
weak one (the worst generated case, four 4-trains, went from seconds to
milliseconds). Unlimited trains keep their circuit.

The walk is a depth-first search over the reduced graph with the rules of
``solver/rules.py``; each route is listed once (first stop < last stop).
It gives up (returns None) past ``max_steps`` search steps, and the caller
falls back to the circuit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeAlias

from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.rules import Exit, Exits, exits_of, group_masks, leaving, stop_rules

__all__ = ["Exit", "Exits", "ListedRoute", "adjacency", "group_masks", "leaving", "list_routes",
           "reversed_route", "ways"]


class ListedRoute(NamedTuple):
    """One legal route on the reduced graph.

    ``steps`` are (reduced segment, walked a→b); ``track`` the reduced nodes
    and segments a second train may not use: its junctions, and its
    stop-to-stop segments encoded as ``node_count + segment``. (A named tuple:
    the walk makes thousands, and a tuple is the cheapest immutable record.)
    """

    stops: tuple[int, ...]
    steps: tuple[tuple[int, bool], ...]
    track: tuple[int, ...]
    cost: int


def adjacency(graph: ReducedGraph) -> Exits:
    """Per reduced node, its ways out in segment order (``solver/rules.py``'s ``Exits``)."""
    return exits_of(graph.node_count, graph.segments)


#: A way out of a node for the walks that read the node they enter from the way itself
#: (``ways``): (that node, its bit, step and track key as in ``Exit``, the entered stop's
#: distance cost, group mask, weight and station (0s for a junction), the ways on from
#: there (a junction's: those of the side it is entered)).
Way: TypeAlias = tuple[int, int, tuple[int, bool], int, int, int, int, int, "list[Way]"]


def ways(graph: ReducedGraph, costs: Sequence[int], group_mask: Sequence[int],
         weights: Sequence[int], stations: Sequence[int]) -> list[list[Way]]:
    """The walks' ways out: per stop (entry ``s``), then per junction and side it is
    entered (entry ``stop_count + 2 · (j − stop_count) + side``), each ``leaving``'s exits
    (the junction rule is there: left by its other side) in segment order. What a walk
    reads of the node a way enters is in the way itself: one unpacking a way instead of a
    list look-up per fact (issue 21: the lone trains' walks of the 123 real states 0.96x
    their CPU, medians of 31 rounds)."""
    n_stops, n = graph.stop_count, graph.node_count
    leave = leaving(n_stops, adjacency(graph))

    def entry(node: int, side: int) -> int:
        return node if node < n_stops else 2 * node - n_stops + side

    out: list[list[Way]] = [[] for _ in range(2 * n - n_stops)]
    for node in range(n):
        for side in (0,) if node < n_stops else (0, 1):
            target = out[entry(node, side)]
            for there, _, side_there, step, key in leave[node][side]:
                if there < n_stops:
                    target.append((there, 1 << there, step, key, costs[there], group_mask[there],
                                   weights[there], stations[there], out[there]))
                else:
                    target.append((there, 1 << there, step, key, 0, 0, 0, 0,
                                   out[entry(there, side_there)]))
    return out


def list_routes(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    max_cost: int,
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int = 20_000,
    sample: bool = False,
) -> list[ListedRoute] | None:
    """Every legal route of cost ≤ ``max_cost``, or None if the search is too long.

    With ``sample`` the walk starts only at station stops, each with an equal
    share of ``max_steps``, and returns what it found when a share runs out: a
    sample of legal routes (some listed from both ends) for a quick first
    solution (``solver/listing/greedy.py``), never None.
    """
    n_stops, n = graph.stop_count, graph.node_count
    adjacent = adjacency(graph)
    leave = leaving(n_stops, adjacent)
    costs, stations, ends_only, group_mask, need = stop_rules(stops, min_stops, groups)
    found: list[ListedRoute] = []
    path: list[int] = []
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    on = [False] * n
    budget = max_steps
    first = 0  # the route's first stop: it is listed from its lower end only
    make = ListedRoute._make

    def walk(node: int, exits: list[Exit], cost: int, groups_used: int, station_count: int) -> bool:
        # One step per node entered (the budget); a stop records the route so far.
        nonlocal budget
        budget -= 1
        if budget < 0:
            return False
        at_stop = node < n_stops
        if at_stop:
            depth = len(path)
            if depth >= need and station_count and (sample or first < node or depth == 1):
                found.append(make((tuple(path), tuple(steps), tuple(track), cost)))
            if depth > 1 and ends_only[node]:
                return True
        for other, _, side_there, step, key in exits:
            if on[other]:
                continue
            if other < n_stops:
                new_cost = cost + costs[other]
                mask = group_mask[other]
                if new_cost > max_cost or groups_used & mask:
                    continue
                steps.append(step)
                on[other] = True
                path.append(other)
                if at_stop:
                    track.append(key)
                    ok = walk(other, adjacent[other], new_cost, groups_used | mask,
                              station_count + stations[other])
                    track.pop()
                else:
                    ok = walk(other, adjacent[other], new_cost, groups_used | mask,
                              station_count + stations[other])
                path.pop()
            else:
                steps.append(step)
                on[other] = True
                track.append(other)
                ok = walk(other, leave[other][side_there], cost, groups_used, station_count)
                track.pop()
            on[other] = False
            steps.pop()
            if not ok:
                return False
        return True

    starts = [s for s in range(n_stops) if stations[s]] if sample else range(n_stops)
    for s in starts:
        if sample:
            budget = max_steps // max(1, len(starts))
        if costs[s] <= max_cost:
            first = s
            path.append(s)
            on[s] = True
            complete = walk(s, adjacent[s], costs[s], group_mask[s], stations[s])
            on[s] = False
            path.pop()
            if not complete and not sample:
                return None
    return found


def reversed_route(route: ListedRoute) -> ListedRoute:
    """The same route walked from its last stop to its first."""
    steps = tuple((seg, not forward) for seg, forward in reversed(route.steps))
    return ListedRoute(route.stops[::-1], steps, route.track, route.cost)
