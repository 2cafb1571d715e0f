"""The best route of a lone train, by depth-first branch and bound (issue 11).

With one train the answer is its best legal route. Listing every route
(``solver/routes.py``) and keeping the best spends most of its time on routes
that cannot win (715 routes listed for a lone 5-train on a full 1888 board).
This search walks the same depth-first search, with the same route rules and
in the same order, but drops a partial route as soon as an optimistic value is
no better than the best route found so far:

    weight so far + every positive bonus + the best weights of the stops off
    the route, as many as its remaining distance can pay for.

(Used for limited trains only: an unlimited train can pay for every stop, and
the bound is then too weak to beat listing or CP-SAT's circuit; measured.)
Only a route strictly better than the best so far replaces it, so the answer
is the first route of the best weight in listing order: the very route
``search._single_listed`` picks from the whole list. A route of weight ≤ 0 is
no answer (the listed model drops those too).

Steps are counted like ``list_routes`` counts them, and this walk only takes
steps the listing takes: when it gives up (None) the listing would have too,
and the caller falls back to the circuit model.
"""

from __future__ import annotations

from collections.abc import Sequence

from route18xx.solver.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.problem import Stop
from route18xx.solver.reduce import ReducedGraph
from route18xx.solver.routes import ListedRoute, adjacency, group_masks

#: Steps between two looks at the cancel token (its deadline reads the clock); it is
#: also read before the walk from each first stop.
CANCEL_POLL = 256


def best_route(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    weights: Sequence[int],
    bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    max_cost: int,
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int,
    cancel: CancelToken | None = None,
    floor: int = 1,
) -> list[ListedRoute] | None:
    """``[best route]`` of cost ≤ ``max_cost``, weight > 0 and ≥ ``floor``, ``[]`` if
    none, None if too long. ``floor`` starts the walk with ``floor - 1`` as the best
    so far (a second objective's search, issue 21): the same route when one reaches it.

    ``weights`` are the objective weights of the reduced stops, ``bonuses``
    (weight, first stops, second stops) pairs as in ``model.Instance``.
    Raises ``Cancelled`` when ``cancel`` fires during the search.
    """
    n_stops, n = graph.stop_count, graph.node_count
    adjacent = adjacency(graph)
    group_mask = group_masks(n_stops, groups)
    costs = [stop.distance_cost for stop in stops]
    stations = [stop.station for stop in stops]
    ends_only = [stop.route_end_only for stop in stops]
    need = max(min_stops, 1)
    bonus_masks = [(value, sum(1 << s for s in first), sum(1 << s for s in second))
                   for value, first, second in bonuses]
    bonus_max = sum(max(0, value) for value, _, _ in bonuses)
    # Stops worth something, best first; stops costing no distance are always affordable.
    ranked = sorted((s for s in range(n_stops) if weights[s] > 0), key=lambda s: (-weights[s], s))
    free = [(weights[s], 1 << s) for s in ranked if costs[s] <= 0]
    paid = [(weights[s], 1 << s) for s in ranked if costs[s] > 0]

    def optimistic(on_mask: int, rest: int) -> int:
        """The most the stops off the route can add within ``rest`` distance."""
        total = 0
        for w, bit in free:
            if not on_mask & bit:
                total += w
        if rest > 0:
            taken = 0
            for w, bit in paid:
                if not on_mask & bit:
                    total += w
                    taken += 1
                    if taken >= rest:
                        break
        return total

    best_weight = max(0, floor - 1)
    best: ListedRoute | None = None
    path: list[int] = []
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    on = [False] * n
    budget = max_steps

    def walk(node: int, entered: int, cost: int, weight: int, on_mask: int,
             groups_used: int, station_count: int, bound: int) -> bool:
        nonlocal budget, best, best_weight
        budget -= 1
        if budget < 0:
            return False
        if cancel is not None and budget % CANCEL_POLL == 0 and cancel.cancelled:
            raise Cancelled("best route search")
        if node < n_stops:
            if len(path) >= need and station_count and (path[0] < node or len(path) == 1):
                total = weight
                if bonus_masks:
                    visited = on_mask & ((1 << n_stops) - 1)
                    total += sum(value for value, first, second in bonus_masks
                                 if visited & first and visited & second)
                if total > best_weight:
                    best_weight = total
                    best = ListedRoute(tuple(path), tuple(steps), tuple(track), cost)
            if len(path) > 1 and ends_only[node]:
                return True
        for other, side_here, side_there, step, key in adjacent[node]:
            if bound <= best_weight:
                return True  # nothing below can beat the best route
            if on[other] or (node >= n_stops and side_here == entered):
                continue
            ok = True
            if other < n_stops:
                new_cost = cost + costs[other]
                mask = group_mask[other]
                if new_cost > max_cost or groups_used & mask:
                    continue
                new_on = on_mask | 1 << other
                new_weight = weight + weights[other]
                new_bound = new_weight + bonus_max + optimistic(new_on, max_cost - new_cost)
                if new_bound <= best_weight:
                    continue
                steps.append(step)
                on[other] = True
                path.append(other)
                both_stops = node < n_stops
                if both_stops:
                    track.append(key)
                ok = walk(other, -1, new_cost, new_weight, new_on, groups_used | mask,
                          station_count + stations[other], new_bound)
                if both_stops:
                    track.pop()
                path.pop()
            else:
                steps.append(step)
                on[other] = True
                track.append(other)
                ok = walk(other, side_there, cost, weight, on_mask | 1 << other, groups_used,
                          station_count, bound)
                track.pop()
            on[other] = False
            steps.pop()
            if not ok:
                return False
        return True

    for s in range(n_stops):
        if cancel is not None and cancel.cancelled:
            raise Cancelled("best route search")
        if costs[s] > max_cost:
            continue
        on_mask = 1 << s
        bound = weights[s] + bonus_max + optimistic(on_mask, max_cost - costs[s])
        if bound <= best_weight:
            continue
        path.append(s)
        on[s] = True
        complete = walk(s, -1, costs[s], weights[s], on_mask, group_mask[s], int(stations[s]),
                        bound)
        on[s] = False
        path.pop()
        if not complete:
            return None
    return [] if best is None else [best]
