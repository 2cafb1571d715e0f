"""A lone unlimited train's best route for two objectives in one walk (issue 21 item 4).

Where a board pays a subsidy an answer carries the best total (revenue + subsidy)
and the best revenue (subsidy as its tie-break). For a lone D train each was a
walk of ``solver/listing/bestreach.py``: the same board reduced, the same reach computed
at every step, twice. This is that walk once, keeping the best route of each
objective, each pruned by its own bound (``bestreach``'s, with that objective's
weights): a partial route is cut only when **neither** objective can improve on
its best so far, so each best is exact, as each walk alone finds it. The reach
(what the route can still get to, the costly part of a step) does not depend on
the objective, so one reach serves both bounds.

Children and starts are tried in order of the first objective's bound, as its own
walk tries them; a route replaces an objective's best only when strictly better,
so the answer is the same on every run. Among tied optima it may be another route
than two separate walks give (the second walk ran on a smaller board, above a
floor): the same value, the same revenue and subsidy.

A node with one way on takes no bound for that way: there is nothing to order, and
the node's own bound (its parent's reach) bounds every route through it. The walk
may then take a step the child's own bound would have cut; that step records no
route (none can beat the best so far) and its children have bounds of their own, so
every answer is the same, for a reach fewer per such step (issue 35: the lone-D
walks of the golden real decisions 11 815 → 9 202 reaches, ~15 % of their CPU).

Steps are counted as in ``bestreach`` (such a step too); past ``max_steps`` the walk
gives up and the caller answers each objective on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from route18xx.solver.listing.bestreach import ReachBoard, from_lower_end
from route18xx.solver.runtime.cancel import CANCEL_POLL, CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute

#: One objective: per reduced stop its weight, and its pair bonuses as
#: ``model.Instance`` gives them (value, first stops, second stops).
Weights = tuple[Sequence[int], Sequence[tuple[int, Sequence[int], Sequence[int]]]]


def best_reach_both(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    first: Weights,
    second: Weights,
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int,
    cancel: CancelToken | None = None,
) -> tuple[list[ListedRoute], list[ListedRoute]] | None:
    """(``[best route]`` for ``first``, ``[best route]`` for ``second``), each ``[]``
    where no route weighs more than 0; None past ``max_steps`` (module docstring).
    Raises ``Cancelled`` when ``cancel`` fires."""
    board = ReachBoard(graph, stops, min_stops, groups)
    n_stops, leave, group_mask = board.n_stops, board.leave, board.group_mask
    stations, ends_only, need = board.stations, board.ends_only, board.need
    rank, later, stop_bits, stop_states = board.rank, board.later, board.stop_bits, board.stop_states
    arrival, reach = board.arrival, board.reach
    weights_a, weights_b = first[0], second[0]
    # Both objectives' bound terms side by side, weights clipped at 0 (a stop or bonus
    # worth nothing to one objective adds nothing to its bound, as ``bestreach`` leaves
    # it out): one pass over the stops for both.
    passing = [(max(0, weights_a[s]), max(0, weights_b[s]), 1 << 2 * s, board.around[s])
               for s in range(n_stops) if not ends_only[s]
               and (weights_a[s] > 0 or weights_b[s] > 0)]
    end_stops = [(max(0, weights_a[s]), max(0, weights_b[s]), 1 << 2 * s)
                 for s in range(n_stops) if ends_only[s]
                 and (weights_a[s] > 0 or weights_b[s] > 0)]
    masks = [(sum(1 << s for s in one), sum(1 << s for s in two)) for _, one, two in first[1]]
    bonus_values = [(a, b) for (a, _, _), (b, _, _) in zip(first[1], second[1])]
    bonus_masks = [(a, b, one, two) for (a, b), (one, two) in zip(bonus_values, masks)]
    state_bonuses = [(max(0, a), max(0, b),
                      sum(1 << 2 * s for s in range(n_stops) if one >> s & 1),
                      sum(1 << 2 * s for s in range(n_stops) if two >> s & 1))
                     for a, b, one, two in bonus_masks if a > 0 or b > 0]

    def bounds(state: int, weight_a: int, weight_b: int, on_states: int, ends: int,
               start: bool = False) -> tuple[int, int]:
        """``bestreach``'s bound for each objective, from one reach."""
        reached, free, usable = reach(state, on_states, start)
        total_a, total_b = weight_a, weight_b
        last_a = last_b = 0  # the route ends once: one stop it cannot pass, at most
        for wa, wb, bit, near in passing:
            if free & bit:
                if (near & usable).bit_count() > 1:
                    total_a += wa
                    total_b += wb
                elif ends & bit:
                    if wa > last_a:
                        last_a = wa
                    if wb > last_b:
                        last_b = wb
        for wa, wb, bit in end_stops:
            if free & bit & ends:
                if wa > last_a:
                    last_a = wa
                if wb > last_b:
                    last_b = wb
        total_a += last_a
        total_b += last_b
        if state_bonuses:
            can = reached & stop_states
            for va, vb, one, two in state_bonuses:
                if can & one and can & two:
                    total_a += va
                    total_b += vb
        return total_a, total_b

    best_a = best_b = 0
    route_a: ListedRoute | None = None
    route_b: ListedRoute | None = None
    path: list[int] = []
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    budget = max_steps
    #: (nodes on the route, last node, side entered) → the lowest rank of a first stop
    walked: dict[tuple[int, int, int], int] = {}

    def walk(node: int, entered: int, weight_a: int, weight_b: int, on_mask: int,
             on_states: int, groups_used: int, station_count: int, bound_a: int,
             bound_b: int) -> bool:
        nonlocal budget, best_a, best_b, route_a, route_b
        here = (on_mask, node, entered)
        lowest = walked.get(here)
        if lowest is not None and lowest <= rank[path[0]]:
            return True  # the same partial route, walked already (``bestreach``)
        walked[here] = rank[path[0]]
        budget -= 1
        if budget < 0:
            return False
        if cancel is not None and budget % CANCEL_POLL == 0 and cancel.cancelled:
            raise Cancelled("best route search")
        if node < n_stops:
            if len(path) >= need and station_count and (rank[path[0]] < rank[node]
                                                        or len(path) == 1):
                total_a, total_b = weight_a, weight_b
                visited = on_mask & stop_bits
                for va, vb, one, two in bonus_masks:
                    if visited & one and visited & two:
                        total_a += va
                        total_b += vb
                if total_a > best_a or total_b > best_b:
                    route = ListedRoute(tuple(path), tuple(steps), tuple(track),
                                        sum(stops[s].distance_cost for s in path))
                    if total_a > best_a:
                        best_a, route_a = total_a, route
                    if total_b > best_b:
                        best_b, route_b = total_b, route
            if len(path) > 1 and ends_only[node]:
                return True
        # the ways on (``solver/rules.py``): a stop (entered -1) any, a junction by its other side
        ways = leave[node][entered]
        open_ways = [i for i, (other, _, _, _, _) in enumerate(ways)
                     if not on_mask >> other & 1
                     and not (other < n_stops and groups_used & group_mask[other])]
        children = []
        if len(open_ways) == 1:
            # One way on: its own bound is not taken, this node's stands (module
            # docstring).
            i = open_ways[0]
            other = ways[i][0]
            new_a, new_b = weight_a, weight_b
            if other < n_stops:
                new_a += weights_a[other]
                new_b += weights_b[other]
            children.append((-bound_a, 0, i, bound_b, new_a, new_b))
        for i in open_ways if len(open_ways) > 1 else ():
            other, _, side_there, _, _ = ways[i]
            new_a, new_b = weight_a, weight_b
            if other < n_stops:
                new_a += weights_a[other]
                new_b += weights_b[other]
            value_a, value_b = bounds(arrival(other, side_there), new_a, new_b,
                                      on_states | 3 << 2 * other, later[path[0]])
            if value_a > best_a or value_b > best_b:  # as ``bestreach`` orders them
                children.append((-value_a, weight_a - new_a, i, value_b, new_a, new_b))
        children.sort()
        for negative, _, i, value_b, new_a, new_b in children:
            if -negative <= best_a and value_b <= best_b:
                continue  # neither objective can improve on its best any more
            other, _, side_there, step, key = ways[i]
            steps.append(step)
            new_on = on_mask | 1 << other
            if other < n_stops:
                path.append(other)
                both_stops = node < n_stops
                if both_stops:
                    track.append(key)
                ok = walk(other, -1, new_a, new_b, new_on, on_states | 3 << 2 * other,
                          groups_used | group_mask[other], station_count + stations[other],
                          -negative, value_b)
                if both_stops:
                    track.pop()
                path.pop()
            else:
                track.append(other)
                ok = walk(other, side_there, new_a, new_b, new_on, on_states | 3 << 2 * other,
                          groups_used, station_count, -negative, value_b)
                track.pop()
            steps.pop()
            if not ok:
                return False
        return True

    starts = []
    for s in range(n_stops):
        value_a, value_b = bounds(2 * s, weights_a[s], weights_b[s], 3 << 2 * s, later[s], True)
        starts.append((-value_a, s, value_b))
    starts.sort()
    for negative, s, value_b in starts:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("best route search")
        if -negative <= best_a and value_b <= best_b:
            continue
        path.append(s)
        complete = walk(s, -1, weights_a[s], weights_b[s], 1 << s, 3 << 2 * s, group_mask[s],
                        int(stations[s]), -negative, value_b)
        path.pop()
        if not complete:
            return None
    return from_lower_end(route_a), from_lower_end(route_b)
