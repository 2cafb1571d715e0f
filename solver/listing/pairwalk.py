"""Listing routes for the pair scan: weights and track only (issue 21, item 1).

The same depth-first walk as ``solver/listing/routes.py``'s ``list_routes``, with the
same route rules, order and step count, but it keeps per route only what the
pair scan (``solver/listing/pairs.py``) reads: its objective weight (summed on the way,
bonuses added at the end), its track keys, its cost, and its steps, so that the
two winning routes can be rebuilt. Routes of weight ≤ 0 are not kept (no
answer uses them). On boards with 10 000+ routes building a ``ListedRoute``
and weighing it afterwards cost as much as the walk itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from route18xx.solver.runtime.cancel import CANCEL_POLL, CancelToken
from route18xx.solver.tuning import DEFAULT_OPTIONS
from route18xx.solver.errors import Cancelled
from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute, Way, ways
from route18xx.solver.rules import stop_rules


class Weighed(NamedTuple):
    """Parallel lists, one entry per kept route, in listing order."""

    weights: list[int]
    tracks: list[tuple[int, ...]]
    costs: list[int]
    starts: list[int]
    steps: list[tuple[tuple[int, bool], ...]]


def list_weighed(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    stop_weights: Sequence[int],
    bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    max_cost: int,
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int,
    cancel: CancelToken | None = None,
    foretold: int = DEFAULT_OPTIONS.foretold,
) -> Weighed | None:
    """Every legal route of cost ≤ ``max_cost`` and weight > 0, or None past ``max_steps``.

    Raises ``Cancelled`` when ``cancel`` fires (polled every ``CANCEL_POLL`` steps).
    """
    n_stops = graph.stop_count
    costs, stations, ends_only, group_mask, need = stop_rules(stops, min_stops, groups)
    bonus_masks = [(value, sum(1 << s for s in first), sum(1 << s for s in second))
                   for value, first, second in bonuses]
    way_lists = ways(graph, costs, group_mask, stop_weights, stations)
    out = Weighed([], [], [], [], [])
    keep_w, keep_t, keep_c, keep_s, keep_p = out
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    budget = max_steps
    first = 0

    def walk(node: int, exits: list[Way], cost: int,
             weight: int, on_mask: int, groups_used: int, station_count: int,
             depth: int) -> bool:
        # Written flat: the nodes on the route are ``on_mask``'s bits, ``depth`` its stops.
        nonlocal budget
        budget -= 1
        if budget < 0:
            return False
        if cancel is not None and budget % CANCEL_POLL == 0 and cancel.cancelled:
            raise Cancelled("pair listing")
        at_stop = node < n_stops
        if at_stop:
            if depth >= need and station_count and (first < node or depth == 1):
                total = weight
                for value, one, two in bonus_masks:
                    if on_mask & one and on_mask & two:
                        total += value
                if total > 0:
                    keep_w.append(total)
                    keep_t.append(tuple(track))
                    keep_c.append(cost)
                    keep_s.append(first)
                    keep_p.append(tuple(steps))
            if depth > 1 and ends_only[node]:
                return True
        for other, bit, step, key, cost_there, mask, weight_there, station, onward in exits:
            if on_mask & bit:
                continue
            if other < n_stops:
                new_cost = cost + cost_there
                if new_cost > max_cost or groups_used & mask:
                    continue
                steps.append(step)
                if at_stop:
                    track.append(key)
                    ok = walk(other, onward, new_cost, weight + weight_there, on_mask | bit,
                              groups_used | mask, station_count + station, depth + 1)
                    track.pop()
                else:
                    ok = walk(other, onward, new_cost, weight + weight_there, on_mask | bit,
                              groups_used | mask, station_count + station, depth + 1)
            else:
                steps.append(step)
                track.append(other)
                ok = walk(other, onward, cost, weight, on_mask | bit, groups_used,
                          station_count, depth)
                track.pop()
            steps.pop()
            if not ok:
                return False
        return True

    starts = [s for s in range(n_stops) if costs[s] <= max_cost]
    used = 0
    for done, s in enumerate(starts, 1):
        # Each start walks every path from it, so the steps per start so far foretell
        # the rest: the k-th start may reach ``foretold`` · max_steps · k / starts in all.
        limit = min(max_steps, foretold * max_steps * done // len(starts))
        budget = limit - used
        first = s
        complete = walk(s, way_lists[s], costs[s], stop_weights[s], 1 << s, group_mask[s],
                        stations[s], 1)
        if not complete:
            return None
        used = limit - budget
    return out


def rebuild(graph: ReducedGraph, weighed: Weighed, i: int) -> ListedRoute:
    """Route ``i`` of ``weighed`` as ``list_routes`` lists it."""
    node = weighed.starts[i]
    path = [node]
    for seg_i, forward in weighed.steps[i]:
        seg = graph.segments[seg_i]
        node = seg.b if forward else seg.a
        if node < graph.stop_count:
            path.append(node)
    return ListedRoute(tuple(path), weighed.steps[i], weighed.tracks[i], weighed.costs[i])
