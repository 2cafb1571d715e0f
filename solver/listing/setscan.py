"""Three or more trains, every route listed: the best set of routes by branch and bound
over bitsets, without CP-SAT (issue 36, item 5).

1856's national company (the CGR) runs a 6, a 5 and a D on the late boards of its
shared logs: three trains, one unlimited, went to CP-SAT's circuits beside the listed
6 and 5 routes, 0.25-2.1 s of CPU on six real states, nearly all of it the proof
(25 166 branches on 1856_game_end_bank #919). Yet their routes are few: at most
11 000 for the D there, 1 100 for the 6, listed in a few milliseconds
(``solver/listing/pairvector.py``).

With every route listed once at the longest reach (as ``pairs.pair_routes`` lists
two trains': a route of cost ≤ d is a route of the train of distance d), heaviest
first, route ``i`` is bit ``i`` of each train's bitset of the routes it may run
(its reach), and ``users[key]`` the routes using a track key (track used once,
ROUTES.md §3.7; the keys of ``pairs``). The search takes the trains in turn, the
longest reach first (on the six 1856 states: 0.1-5.6 ms, against 1.3-17 ms for the
other orders), and each train's free routes heaviest first; a route taken removes
from every later train's free bitset the routes sharing a key with it (one OR per key,
once per route). A branch stops when what it has plus each later train's heaviest
free route cannot beat the best set found; a route is skipped when the same sum,
after its removals, cannot. A train may also run nothing (all its free routes may
clash with heavier ones of the others). Trains of one reach take routes in list order
(no set twice); a route without track may be run by several of them, as in the
circuit model.

It is exact: every set that could beat the best found is examined. Ties keep the first
found (the deterministic list order). The work is bounded in key ORs and nodes
(``SolveOptions.pair_work``); past it, or past the listing's budget, the caller falls
back to CP-SAT.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from route18xx.solver.errors import Cancelled
from route18xx.solver.listing.capacity import fits
from route18xx.solver.listing.pairs import users_of
from route18xx.solver.listing.pairwalk import list_weighed, rebuild
from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

if TYPE_CHECKING:
    from route18xx.solver.model.model import Instance


def best_set(
    weights: Sequence[int],
    keys: Callable[[int], Sequence[int]],
    users: dict[int, int],
    runs: Sequence[int],
    max_work: int = DEFAULT_OPTIONS.pair_work,
    cancel: CancelToken | None = None,
) -> tuple[int, list[int | None]] | None:
    """(best total weight, per train its route's index or None for no route).

    ``weights``: the routes' weights (> 0), heaviest first; ``keys(i)``: route i's
    track keys; ``users``: per key, the bitset of the routes using it; ``runs[t]``:
    the bitset of the routes train t may run, trains searched in this order (the
    caller puts the longest reach first). None when the search needs more than
    ``max_work`` key ORs and nodes; raises ``Cancelled`` when ``cancel`` fires (read
    once a route's clashes are first ORed).
    """
    k = len(runs)
    best_value = 0
    best_chosen: list[int | None] = [None] * k
    chosen: list[int | None] = [None] * k
    clash: dict[int, int] = {}  # per route read: the routes sharing a key with it
    work = 0
    # A train of the same routes as the one before it takes its routes in list order
    # (``same[t]``): each set is examined once.
    same = [t > 0 and runs[t] == runs[t - 1] for t in range(k)]

    def top(free: int) -> int:
        return weights[(free & -free).bit_length() - 1] if free else 0

    def search(t: int, free: list[int], value: int) -> bool:
        nonlocal best_value, best_chosen, work
        mine = free[t]
        if same[t]:
            before = chosen[t - 1]
            mine = 0 if before is None else mine >> before << before
        if t == k - 1:  # the last train: its heaviest free route, if any
            total = value + top(mine)
            if total > best_value:
                chosen[t] = (mine & -mine).bit_length() - 1 if mine else None
                best_value, best_chosen = total, list(chosen)
            return True
        later = sum(top(free[u]) for u in range(t + 1, k))
        while mine:
            low = mine & -mine
            mine ^= low
            i = low.bit_length() - 1
            weight = weights[i]
            if value + weight + later <= best_value:
                break  # its later routes are no heavier
            work += 1
            hit = clash.get(i)
            if hit is None:
                hit = 0
                route_keys = keys(i)
                for key in route_keys:
                    hit |= users.get(key, 0)
                work += len(route_keys)
                clash[i] = hit
                if cancel is not None and cancel.cancelled:
                    raise Cancelled("set search")
            if work > max_work:
                return False
            rest = list(free)
            for u in range(t + 1, k):
                rest[u] &= ~hit
            if value + weight + sum(top(rest[u]) for u in range(t + 1, k)) <= best_value:
                continue
            chosen[t] = i
            if not search(t + 1, rest, value + weight):
                return False
        chosen[t] = None  # the train runs nothing: the others keep every free route
        if value + later > best_value:
            return search(t + 1, free, value)
        return True

    if not search(0, list(runs), 0):
        return None
    return best_value, best_chosen


def set_routes(
    instance: Instance, max_steps: int = DEFAULT_OPTIONS.pair_steps,
    cancel: CancelToken | None = None, options: SolveOptions = DEFAULT_OPTIONS,
) -> dict[int, ListedRoute] | None:
    """The best routes of a problem of three or more trains (train index → route; an
    idle train is left out), or None when listing or the search runs past its budget, or
    the trains do not all earn alike (``Instance.shared_weights``: one listing weighs
    every train's routes).

    Listed as ``pairs.pair_routes`` lists two trains' routes: depth first in Python up to
    ``SolveOptions.vector_from`` steps, then a layer at a time in numpy where the board
    fits its masks, with ``vector_speedup`` times the budget.
    """
    problem = instance.problem
    shared = instance.shared_weights
    if len(problem.trains) < 3 or shared is None:
        return None
    full = sum(max(0, s.distance_cost) for s in instance.stops)
    reach = [full if t.distance is None else min(t.distance, full) for t in problem.trains]
    order = sorted(range(len(reach)), key=lambda t: -reach[t])  # the longest reach first
    vector_from = options.vector_from
    vector = vector_from < max_steps and fits(instance.graph, instance.groups)
    weighed = list_weighed(instance.graph, instance.stops, shared, instance.bonuses,
                           max(reach), problem.min_stops, instance.groups,
                           min(max_steps, vector_from) if vector else max_steps,
                           cancel, options.foretold)
    if weighed is None:
        if not vector:
            return None
        return _vector_set(instance, shared, reach, order,
                           int(max_steps * options.vector_speedup), options, cancel)
    ranked = sorted(range(len(weighed.weights)), key=lambda i: -weighed.weights[i])
    tracks = [weighed.tracks[i] for i in ranked]
    users = users_of([(0, track) for track in tracks])
    runs = [sum(1 << n for n, i in enumerate(ranked) if weighed.costs[i] <= reach[t])
            for t in order]
    found = best_set([weighed.weights[i] for i in ranked], tracks.__getitem__, users, runs,
                     options.pair_work, cancel)
    if found is None:
        return None
    return {t: rebuild(instance.graph, weighed, ranked[n])
            for t, n in zip(order, found[1]) if n is not None}


def _vector_set(
    instance: Instance, weights: Sequence[int], reach: list[int], order: list[int],
    max_steps: int, options: SolveOptions, cancel: CancelToken | None,
) -> dict[int, ListedRoute] | None:
    """``set_routes`` on the numpy listing, the routes' keys read from their masks. A
    route whose track a heavier route has too, for the same trains, is left out: that
    route does all it does."""
    import numpy as np  # loaded for long listings only (numpy's import: ~0.2 s of CPU)

    from route18xx.solver.listing.pairvector import (
        Lister, key_bits, repeated, track_masks, track_users,
    )

    lister = Lister(instance.graph, instance.stops, weights, instance.bonuses,
                    instance.groups)
    listed = lister.list(max(reach), instance.problem.min_stops, max_steps, cancel)
    if listed is None:
        return None
    ranked = np.argsort(-listed.weights, kind="stable")
    track = track_masks(listed.junctions, listed.segments)[ranked]
    costs = listed.costs[ranked]
    # The trains that may run a route: those whose reach its cost is within, told by how
    # many of the reaches it exceeds (reaches nest). A route repeating a heavier one's
    # track for the same trains is left out.
    trains_of = np.searchsorted(np.unique(np.array(reach, dtype=np.int64)), costs)
    kept = ~repeated(np.concatenate([track, trains_of.astype(np.uint64)[:, None]], axis=1))
    ranked, track, costs = ranked[kept], track[kept], costs[kept]
    runs = [int.from_bytes(np.packbits(costs <= reach[t], bitorder="little").tobytes(),
                           "little") for t in order]
    found = best_set(listed.weights[ranked].tolist(), lambda i: key_bits(track[i]),
                     track_users(track), runs, options.pair_work, cancel)
    if found is None:
        return None
    return {t: lister.route(listed, int(ranked[n]))
            for t, n in zip(order, found[1]) if n is not None}
