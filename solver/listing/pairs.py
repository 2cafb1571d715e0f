"""Two trains, every route listed: the best pair by bitsets, without CP-SAT (issue 21, item 1).

The hard boards are two-train boards (phase D's limit) where a train keeps its
circuit because its routes looked too many to list: D + D, 6 + D, 5 + D, and
5 + 6 / 6 + 6 past ``SolveOptions.long_list``. There CP-SAT spends nearly all its time
*proving* (on a D + D board the bound is still twice the optimum after 20 ms),
yet on grown boards the routes themselves number a few hundred to ~20 000 and
list in milliseconds (``solver/listing/routes.py``: every route rule checked once).

With both trains' routes listed, the answer is the heaviest pair of routes
whose track keys are disjoint (track used once, ROUTES.md §3.7), or one route
alone. Routes sorted by weight, best first; for each route r of the first
train in turn, the second train's best route compatible with r is the first
set bit of ``all & ~(∪ users[key] for key in r.track)``, where ``users[key]``
is the bitset of the second train's routes using that track (Python integers
as bitsets: one OR per key). The scan stops when r's weight plus the second
train's best weight cannot beat the best pair found. For two trains of one
distance (one list) a pair is taken once, second route no heavier than the
first: the scan stops when twice r's weight cannot beat the best.

It is exact: every pair that could beat the best found is examined. Ties keep
the first found (the deterministic list order). The work is bounded in key
ORs (``SolveOptions.pair_work``); past it the caller falls back to CP-SAT.

Listings longer than ``SolveOptions.vector_from`` steps are listed a layer at a time in numpy
(``solver/listing/pairvector.py``, the same routes and step count, ~0.2 µs a step against
the depth-first walk's 1-2 µs) and scanned from their track masks, with a budget
``SolveOptions.vector_speedup`` times the walk's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.listing.pairwalk import list_weighed, rebuild
from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.listing.capacity import fits
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

if TYPE_CHECKING:
    from route18xx.solver.model.model import Instance

def best_pair(
    first: Sequence[tuple[int, Sequence[int]]],
    second: Sequence[tuple[int, Sequence[int]]] | None,
    max_work: int = DEFAULT_OPTIONS.pair_work,
) -> tuple[int, int | None, int | None] | None:
    """(best total weight, index in ``first`` or None, index in ``second`` or None).

    ``first`` and ``second`` are (weight > 0, track keys) per route, heaviest
    first; ``second`` None means both trains run routes of ``first`` (one
    distance), and the second index then points into ``first`` too. None when
    the scan needs more than ``max_work`` key ORs.
    """
    same = second is None
    other = first if second is None else second
    top_other = other[0][0] if other else 0
    best, best_i, best_j = 0, None, None
    if first and first[0][0] >= top_other:
        best, best_i = first[0][0], 0
    elif other:
        best, best_j = top_other, 0
    if first and other:  # the first route beside its best partner: a pair to beat
        track = set(first[0][1])
        for j, (weight, keys) in enumerate(other):
            if first[0][0] + weight <= best:
                break
            if track.isdisjoint(keys):
                best, best_i, best_j = first[0][0] + weight, 0, j
                break
    # Only the second train's routes heavier than best − (first's heaviest) can be
    # in a better pair: only they are indexed (the lists are sorted).
    useful = len(other)
    if first:
        useful = next((j for j, (w, _) in enumerate(other) if w + first[0][0] <= best), useful)
    users = users_of(other[:useful])
    every = (1 << useful) - 1
    work = 0
    for i, (weight, keys) in enumerate(first):
        if weight + (weight if same else top_other) <= best:
            break  # no later route of the first train can make a better pair
        work += len(keys) + 1
        if work > max_work:
            return None
        taken = 0
        for key in keys:
            taken |= users.get(key, 0)
        free = every & ~taken
        if same:
            free &= ~((1 << i) - 1)  # the second route no heavier: each pair once
        if free:
            j = (free & -free).bit_length() - 1
            if weight + other[j][0] > best:
                best, best_i, best_j = weight + other[j][0], i, j
    return best, best_i, best_j


def users_of(routes: Sequence[tuple[int, Sequence[int]]]) -> dict[int, int]:
    """Per track key, the bitset of the routes using it (built as bytes: OR-ing
    growing integers route by route would cost quadratic time)."""
    size = (len(routes) + 8) // 8
    rows: dict[int, bytearray] = {}
    for j, (_, keys) in enumerate(routes):
        byte, bit = j >> 3, 1 << (j & 7)
        for key in keys:
            row = rows.get(key)
            if row is None:
                row = rows[key] = bytearray(size)
            row[byte] |= bit
    return {key: int.from_bytes(row, "little") for key, row in rows.items()}


def pair_routes(
    instance: Instance, max_steps: int = DEFAULT_OPTIONS.pair_steps,
    cancel: CancelToken | None = None, vector_from: int | None = DEFAULT_OPTIONS.vector_from,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> dict[int, ListedRoute] | None:
    """The best routes of a two-train problem (train index → route; an idle train is
    left out), or None when listing or the pair scan runs past its budget.

    One listing at the longer train's reach serves both: a route of cost ≤ d is
    a route of the train of distance d (``model._listed_groups`` does the same).
    The walk is depth first in Python (``solver/listing/pairwalk.py``) up to ``vector_from``
    steps; a listing longer than that is listed a layer at a time in numpy
    (``solver/listing/pairvector.py``) where the board fits its masks (None: never). Both find
    the optimum; among tied pairs each keeps the first of its own listing order.
    """
    problem = instance.problem
    full = sum(max(0, s.distance_cost) for s in instance.stops)
    reach = [full if t.distance is None else min(t.distance, full) for t in problem.trains]
    shared = instance.shared_weights
    if len(reach) != 2 or shared is None:
        return None  # one listing weighs both trains' routes: they must earn alike
    vector = vector_from is not None and vector_from < max_steps and fits(
        instance.graph, instance.groups)
    weighed = None
    if not vector or vector_from:
        weighed = list_weighed(instance.graph, instance.stops, shared,
                               instance.bonuses, max(reach), problem.min_stops, instance.groups,
                               min(max_steps, vector_from or max_steps) if vector else max_steps,
                               cancel, options.foretold)
    if weighed is None:
        if not vector:
            return None
        return _vector_pair(instance, shared, reach, int(max_steps * options.vector_speedup),
                            options, cancel)
    weights, tracks, costs = weighed.weights, weighed.tracks, weighed.costs
    ranked = sorted(range(len(weights)), key=lambda i: -weights[i])
    same = reach[0] == reach[1]
    lists = [ranked if d >= max(reach) else [i for i in ranked if costs[i] <= d]
             for d in reach]
    tables = [[(weights[i], tracks[i]) for i in order] for order in lists]
    return _scanned(best_pair, tables, lists, same, options.pair_work,
                    lambda i: rebuild(instance.graph, weighed, i))


def _scanned(
    scan: Callable[[Any, Any, int], tuple[int, int | None, int | None] | None],
    tables: Sequence[Any], lists: Sequence[Any], same: bool, max_work: int,
    route: Callable[[int], ListedRoute],
) -> dict[int, ListedRoute] | None:
    """The best pair of two trains' ranked lists (``lists``: listing indexes, heaviest
    first; ``tables``: what ``scan`` reads of them), as train index → route built by
    ``route`` from a listing index; None when ``scan`` gives up. The scan walks the
    longer list (cut short by the bound) and indexes the shorter; ``same``: one list
    for two trains of one reach."""
    swap = not same and len(lists[0]) < len(lists[1])
    if swap:
        found = scan(tables[1], tables[0], max_work)
    else:
        found = scan(tables[0], None if same else tables[1], max_work)
    if found is None:
        return None
    _, first, second = found
    if swap:
        first, second = second, first
    out: dict[int, ListedRoute] = {}
    if first is not None:
        out[0] = route(int(lists[0][first]))
    if second is not None:
        out[1] = route(int(lists[0 if same else 1][second]))
    return out


def beam_pair(
    instance: Instance, width: int, options: SolveOptions = DEFAULT_OPTIONS,
    cancel: CancelToken | None = None,
) -> dict[int, ListedRoute] | None:
    """A good pair of two trains' routes, not proven: the best pair of a beam of the
    numpy listing (``pairvector.Lister.list``'s ``width``: each layer keeps its ``width``
    heaviest partial routes), scanned as ``pair_routes`` scans. None where the board
    does not fit the listing's masks (``capacity.fits``) or the trains are not two.

    Issue 35: on the 35 two-train boards with a D of ``tests/data/boards`` a beam of
    1 000 gave median 100 % of the optimum (5 boards below 97 %, the worst 74 %) in
    at most 12.5 ms of CPU, where the pair of a sample of ``list_routes``
    (``greedy_routes``' 2 500 steps at 20 ms) gave median 84 % (``SolveOptions.beam_width``)."""
    problem = instance.problem
    shared = instance.shared_weights  # one listing weighs both trains' routes
    if (len(problem.trains) != 2 or width <= 0 or shared is None
            or not fits(instance.graph, instance.groups)):
        return None
    full = sum(max(0, s.distance_cost) for s in instance.stops)
    reach = [full if t.distance is None else min(t.distance, full) for t in problem.trains]
    return _vector_pair(instance, shared, reach, 2**62, options, cancel, width)


def _vector_pair(
    instance: Instance, weights: Sequence[int], reach: list[int], max_steps: int,
    options: SolveOptions, cancel: CancelToken | None, width: int | None = None,
) -> dict[int, ListedRoute] | None:
    """``pair_routes`` with the numpy listing and the scan on its masks: the same lists
    (heaviest first, ties in listing order), the same scan; ``weights``: the stop weights
    both trains earn (``Instance.shared_weights``); given ``width``, on a beam of the
    listing (``beam_pair``)."""
    import numpy as np  # loaded for long listings only (numpy's import: ~0.2 s of CPU)

    from route18xx.solver.listing.pairvector import Lister, scan

    lister = Lister(instance.graph, instance.stops, weights, instance.bonuses,
                    instance.groups)
    listed = lister.list(max(reach), instance.problem.min_stops, max_steps, cancel, width)
    if listed is None:
        return None
    ranked = np.argsort(-listed.weights, kind="stable")
    same = reach[0] == reach[1]
    lists = [ranked if d >= max(reach) else ranked[listed.costs[ranked] <= d] for d in reach]
    tables = [(listed.weights[o], listed.junctions[o], listed.segments[o]) for o in lists]
    return _scanned(partial(scan, cancel=cancel, key_rows=options.key_rows, head=options.head,
                            recut_eighths=options.recut_eighths),
                    tables, lists, same, options.pair_work,
                    lambda i: lister.route(listed, i))
