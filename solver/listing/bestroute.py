"""The best route of a lone train, by depth-first branch and bound (issue 11).

With one train the answer is its best legal route. Listing every route
(``solver/listing/routes.py``) and keeping the best spends most of its time on routes
that cannot win (715 routes listed for a lone 5-train on a full 1888 board).
This search walks the same depth-first search, with the same route rules and
in the same order, but drops a partial route as soon as an optimistic value is
no better than the best route found so far:

    weight so far + the best weights of the stops off the route, as many as
    its remaining distance can pay for + the bonuses it may still collect
    (``off_route_bound``: 1888's destination bonus only where its two stops
    fit in that distance, issue 21).

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

from collections.abc import Callable, Sequence
from typing import TypeAlias

from route18xx.solver.runtime.cancel import CANCEL_POLL, CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute, Way, ways
from route18xx.solver.rules import stop_rules



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
    costs, stations, ends_only, group_mask, need = stop_rules(stops, min_stops, groups)
    bonus_masks = [(value, sum(1 << s for s in first), sum(1 << s for s in second))
                   for value, first, second in bonuses]
    optimistic = off_route_bound(weights, costs, bonus_masks)
    way_lists = ways(graph, costs, group_mask, weights, stations)
    segments = graph.segments

    def route(first: int, steps: tuple[tuple[int, bool], ...], cost: int) -> ListedRoute:
        """The route of ``steps`` from ``first``, made for the best route alone: the walk
        keeps each best so far as its steps (4.8 bests a walk on the 123 real states'
        lone trains, issue 21)."""
        path, track = [first], []
        node = first
        for seg, forward in steps:
            other = segments[seg].b if forward else segments[seg].a
            if other >= n_stops:
                track.append(other)
            else:
                if node < n_stops:
                    track.append(n + seg)  # a stop-to-stop segment (``ListedRoute.track``)
                path.append(other)
            node = other
        return ListedRoute(tuple(path), steps, tuple(track), cost)

    best_weight = max(0, floor - 1)
    best: tuple[int, tuple[tuple[int, bool], ...], int] | None = None  # first, steps, cost
    steps: list[tuple[int, bool]] = []
    budget = max_steps
    first = 0  # the walk's first stop

    def walk(node: int, exits: list[Way], cost: int, weight: int, on_mask: int,
             groups_used: int, station_count: int, bound: int, depth: int) -> bool:
        # One step per node entered (the budget, as ``list_routes`` counts it). Written
        # flat, the route so far kept as its steps and its node set ``on_mask`` alone:
        # it is the lone train's whole search. ``depth``: the stops on the route. The
        # bound is looked at where the best so far may have grown: on entry it is above.
        nonlocal budget, best, best_weight
        budget -= 1
        if budget < 0:
            return False
        if cancel is not None and budget % CANCEL_POLL == 0 and cancel.cancelled:
            raise Cancelled("best route search")
        if node < n_stops:
            if depth >= need and station_count and (first < node or depth == 1):
                total = weight
                for value, first_mask, second in bonus_masks:
                    if on_mask & first_mask and on_mask & second:
                        total += value
                if total > best_weight:
                    best_weight = total
                    best = first, tuple(steps), cost
                    if bound <= best_weight:
                        return True
            if depth > 1 and ends_only[node]:
                return True
        for other, bit, step, _, cost_there, mask, weight_there, station, onward in exits:
            if on_mask & bit:
                continue
            if other < n_stops:
                new_cost = cost + cost_there
                if new_cost > max_cost or groups_used & mask:
                    continue
                new_weight = weight + weight_there
                new_on = on_mask | bit
                new_bound = new_weight + optimistic(new_on, max_cost - new_cost,
                                                    best_weight - new_weight)
                if new_bound <= best_weight:
                    continue
                steps.append(step)
                ok = walk(other, onward, new_cost, new_weight, new_on, groups_used | mask,
                          station_count + station, new_bound, depth + 1)
            else:
                steps.append(step)
                ok = walk(other, onward, cost, weight, on_mask | bit, groups_used,
                          station_count, bound, depth)
            steps.pop()
            if not ok:
                return False
            if bound <= best_weight:
                return True  # nothing below can beat the best route
        return True

    # A route is kept from its lower end only: from the last stop, none of two stops or
    # more (its walk was 1 007 of the 13 208 steps of the 123 real states' lone trains).
    last = n_stops if need == 1 else n_stops - 1

    for s in range(last):
        if cancel is not None and cancel.cancelled:
            raise Cancelled("best route search")
        if costs[s] > max_cost:
            continue
        on_mask = 1 << s
        bound = weights[s] + optimistic(on_mask, max_cost - costs[s], best_weight - weights[s])
        if bound <= best_weight:
            continue
        first = s
        complete = walk(s, way_lists[s], costs[s], weights[s], on_mask, group_mask[s],
                        stations[s], bound, 1)
        if not complete:
            return None
    return [] if best is None else [route(*best)]


#: ``off_route_bound``'s bound: (stops on the route as a bit mask, distance left, the
#: value to beat) → at least the most the stops off the route and the bonuses can add.
Bound: TypeAlias = Callable[[int, int, int], int]


def off_route_bound(
    weights: Sequence[int], costs: Sequence[int], bonuses: Sequence[tuple[int, int, int]],
) -> Bound:
    """The walk's optimistic value of what a partial route may still add.

    Stops: every positive stop costing no distance off the route, and the best positive
    paid stops off it, one per unit of distance left (a paid stop costs at least one).
    Bonuses (``bonuses``: value, first stops' mask, second stops' mask): with one positive
    bonus whose two sides share no stop (1888's destination bonus: home and destination),
    the larger of the stops without the bonus and the stops with it: the bonus, for each
    side not yet on the route its best stop (a paid one takes a unit of distance; a side of
    one stop is left out of the rest), and the best stops for the distance still left; the
    bonus is out of reach when a side has no stop it can afford. Otherwise every positive
    bonus counts. The finer bound is figured only where it may decide: when the bound with
    the bonus counted always is above the value to beat and the bound without the bonus is
    not (issue 21: the bonus counted always made the lone trains' walks of the 123 real
    states take 20 037 steps, 12 995 with this bound; 0.9x their CPU).
    """
    n_stops = len(weights)
    # best first, ties in stop order (the sort is stable, also reversed)
    ranked = sorted([s for s in range(n_stops) if weights[s] > 0], key=weights.__getitem__,
                    reverse=True)
    free = [(weights[s], 1 << s) for s in ranked if costs[s] <= 0]
    paid = [(weights[s], 1 << s) for s in ranked if costs[s] > 0]
    positive = [b for b in bonuses if b[0] > 0]
    bonus_max = sum(value for value, _, _ in positive)

    def stops_only(on_mask: int, rest: int, need: int) -> int:
        total = bonus_max
        for w, bit in free:
            if not on_mask & bit:
                total += w
        return total + _best_paid(paid, on_mask, rest)

    if len(positive) != 1 or positive[0][1] & positive[0][2]:
        return stops_only
    value, first, second = positive[0]
    sides = [_side(mask, weights, costs) for mask in (first, second)]

    def with_bonus(on_mask: int, rest: int, need: int) -> int:
        # the bound with the bonus counted whatever the route (``stops_only``, inlined:
        # one call a step of the walk)
        loose = value
        for w, bit in free:
            if not on_mask & bit:
                loose += w
        if rest > 0:
            taken = 0
            for w, bit in paid:
                if not on_mask & bit:
                    loose += w
                    taken += 1
                    if taken >= rest:
                        break
        if loose <= need or loose - value > need:
            return loose  # the finer bound would decide nothing else
        without = loose - value
        slots = 0
        extra = value
        alone = 0  # the stop of a one-stop side, counted in ``extra``
        for mask, free_best, paid_best, single in sides:
            if on_mask & mask:
                continue  # this side is on the route
            alone |= single
            if paid_best is not None and rest > 0 and (free_best is None or paid_best > free_best):
                extra += paid_best
                slots += 0 if free_best is not None else 1
            elif free_best is not None:
                extra += free_best
            else:
                return without  # a side has no stop within reach: no bonus
        if slots > rest:
            return without
        for w, bit in free:
            if not (on_mask | alone) & bit:
                extra += w
        return max(without, extra + _best_paid(paid, on_mask | alone, rest - slots))

    return with_bonus


def _side(
    mask: int, weights: Sequence[int], costs: Sequence[int]
) -> tuple[int, int | None, int | None, int]:
    """One side of a bonus: its mask, its best stop's weight among those costing no
    distance and among the paid ones (None: no such stop), and the mask again when it is
    one stop (that stop is then counted with the side, not with the rest)."""
    free_best: int | None = None
    paid_best: int | None = None
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        s = low.bit_length() - 1
        w = weights[s]
        if costs[s] <= 0:
            free_best = w if free_best is None else max(free_best, w)
        else:
            paid_best = w if paid_best is None else max(paid_best, w)
    return mask, free_best, paid_best, mask if mask & (mask - 1) == 0 else 0


def _best_paid(paid: Sequence[tuple[int, int]], off: int, count: int) -> int:
    """The best ``count`` weights of ``paid`` (best first) whose bits are not in ``off``."""
    total = taken = 0
    if count <= 0:
        return 0
    for w, bit in paid:
        if not off & bit:
            total += w
            taken += 1
            if taken >= count:
                break
    return total
