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
from typing import TYPE_CHECKING, NamedTuple

from route18xx.solver.errors import Cancelled
from route18xx.solver.listing.capacity import fits
from route18xx.solver.listing.pairs import users_of
from route18xx.solver.listing.pairwalk import list_weighed, rebuild
from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

if TYPE_CHECKING:
    from route18xx.solver.model.model import Instance


class Reach(NamedTuple):
    """The routes of one reach (the trains of that distance may run them), heaviest
    first: position ``p`` is bit ``p`` of the search's bitsets for those trains."""

    weights: list[int]
    #: Each route's id, as ``keys`` reads it (the same id in every reach it is in).
    ids: list[int]
    #: Per track key, the bitset of the positions of the routes using it.
    users: dict[int, int]


def best_set(
    reaches: Sequence[Reach],
    trains: Sequence[int],
    keys: Callable[[int], Sequence[int]],
    max_work: int = DEFAULT_OPTIONS.pair_work,
    cancel: CancelToken | None = None,
) -> tuple[int, list[int | None]] | None:
    """(best total weight, per train the id of its route, or None for no route).

    ``reaches``: the routes each reach may run (weights > 0); ``trains[t]``: train t's
    reach, trains searched in this order (the caller puts the longest reach first, and
    trains of one reach side by side); ``keys(id)``: a route's track keys. None when the
    search needs more than ``max_work`` key ORs and nodes; raises ``Cancelled`` when
    ``cancel`` fires (read once a route's clashes are first ORed).
    """
    k = len(trains)
    best_value = 0
    best_chosen: list[int | None] = [None] * k
    chosen: list[int | None] = [None] * k  # positions in the trains' reaches
    clash: dict[tuple[int, int], int] = {}  # (route id, reach): ``clash_of``
    read: dict[int, Sequence[int]] = {}  # route id: its keys
    # Per reach, per position i: ``clash_of`` from position i on (a twin's choices).
    twin_keep: list[dict[int, int]] = [{} for _ in reaches]
    work = 0
    # A train of the same reach as the one before it takes a route no earlier in the list
    # (``same[t]``): each set is examined once. ``twins[t]``: the trains after t of its
    # reach (each of them takes a route at t's position or after).
    same = [t > 0 and trains[t] == trains[t - 1] for t in range(k)]
    twins = [next((u for u in range(t + 1, k) if trains[u] != trains[t]), k) - t - 1
             for t in range(k)]
    weights = [reaches[c].weights for c in trains]

    def top(u: int, free: int) -> int:
        return weights[u][(free & -free).bit_length() - 1] if free else 0

    def others(t: int, free: list[int]) -> int:
        """The most the trains after t's twins may add: each one's heaviest free route."""
        return sum(top(u, free[u]) for u in range(t + 1 + twins[t], k))

    def record(total: int) -> None:
        nonlocal best_value, best_chosen
        if total > best_value:
            best_value = total
            best_chosen = [None if p is None else reaches[trains[u]].ids[p]
                           for u, p in enumerate(chosen)]

    def clash_of(route: int, c: int) -> int:
        """Every position of reach ``c`` but those sharing a key with ``route`` (a bitset
        to AND; once per route and reach)."""
        nonlocal work
        keep = clash.get((route, c))
        if keep is None:
            hit = 0
            users = reaches[c].users
            route_keys = read.get(route)
            if route_keys is None:
                route_keys = read[route] = keys(route)
            for key in route_keys:
                hit |= users.get(key, 0)
            work += len(route_keys)
            keep = clash[route, c] = ~hit
            if cancel is not None and cancel.cancelled:
                raise Cancelled("set search")
        return keep

    def pair(t: int, free: list[int], value: int, mine: int, twin: bool) -> bool:
        """The last two trains: each free route of train t beside the last train's
        heaviest route left free (the pair scan's step, ``pairs.best_pair``)."""
        nonlocal work
        last = k - 1
        last_w, last_reach = weights[last], trains[last]
        free_last = free[last]
        top_last = top(last, free_last)
        mine_w, ids = weights[t], reaches[trains[t]].ids
        after = twin_keep[trains[t]]
        while mine:
            low = mine & -mine
            mine ^= low
            i = low.bit_length() - 1
            weight = mine_w[i]
            if value + weight + (weight if twin else top_last) <= best_value:
                break  # its later routes are no heavier
            work += 1
            if twin:  # its twin's positions from i on, and sharing no key with it
                keep = after.get(i)
                if keep is None:
                    keep = after[i] = clash_of(ids[i], last_reach) >> i << i
            else:
                keep = clash_of(ids[i], last_reach)
            if work > max_work:
                return False
            left = free_last & keep
            if left:
                j = (left & -left).bit_length() - 1
                if value + weight + last_w[j] > best_value:
                    chosen[t], chosen[last] = i, j
                    record(value + weight + last_w[j])
            elif value + weight > best_value:
                chosen[t], chosen[last] = i, None
                record(value + weight)
        # Train t runs nothing: the last train its heaviest free route (not its twin).
        chosen[t], chosen[last] = None, None
        if not twin and free_last:
            chosen[last] = (free_last & -free_last).bit_length() - 1
        record(value + (0 if twin else top_last))
        chosen[t], chosen[last] = None, None
        return True

    def search(t: int, free: list[int], value: int) -> bool:
        nonlocal work
        mine = free[t]
        if same[t]:
            before = chosen[t - 1]
            mine = 0 if before is None else mine >> before << before
        mine_w = weights[t]
        if t == k - 1:  # the last train: its heaviest free route, if any
            chosen[t] = (mine & -mine).bit_length() - 1 if mine else None
            record(value + top(t, mine))
            chosen[t] = None
            return True
        reach = reaches[trains[t]]
        n_twins = twins[t]
        if t == k - 2:
            return pair(t, free, value, mine, n_twins == 1)
        later = others(t, free)
        # The later trains' reaches, fewest routes first: a route's clashes with a short
        # reach cost little and often already show it cannot beat the best.
        later_reaches = sorted({trains[u] for u in range(t + 1, k)},
                               key=lambda c: len(reaches[c].weights))
        while mine:
            low = mine & -mine
            mine ^= low
            i = low.bit_length() - 1
            weight = mine_w[i]
            # Its twins take routes no heavier than it: its later routes are no better.
            if value + weight * (1 + n_twins) + later <= best_value:
                break
            work += 1
            route = reach.ids[i]
            rest = list(free)
            twins_top = weight  # the most each twin may add, until its reach is read
            for c in later_reaches:
                keep = clash_of(route, c)
                for u in range(t + 1, k):
                    if trains[u] == c:
                        rest[u] &= keep
                if n_twins and c == trains[t]:
                    twins_top = top(t, rest[t + 1] >> i << i)
                if value + weight + n_twins * twins_top + others(t, rest) <= best_value:
                    break
            else:
                if work > max_work:
                    return False
                chosen[t] = i
                if not search(t + 1, rest, value + weight):
                    return False
            if work > max_work:
                return False
        chosen[t] = None  # the train runs nothing (nor do its twins after it)
        if value + later > best_value:
            if t + 1 + n_twins == k:
                record(value)
                return True
            return search(t + 1 + n_twins, free, value)
        return True

    if not search(0, [(1 << len(reaches[c].weights)) - 1 for c in trains], 0):
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
    distinct = sorted(set(reach), reverse=True)
    reaches = []
    for d in distinct:
        ids = [i for i in ranked if weighed.costs[i] <= d]
        reaches.append(Reach([weighed.weights[i] for i in ids], ids,
                             users_of([(0, weighed.tracks[i]) for i in ids])))
    found = best_set(reaches, [distinct.index(reach[t]) for t in order],
                     weighed.tracks.__getitem__, options.pair_work, cancel)
    if found is None:
        return None
    return {t: rebuild(instance.graph, weighed, i)
            for t, i in zip(order, found[1]) if i is not None}


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
    weights_of = listed.weights[ranked]
    distinct = sorted(set(reach), reverse=True)
    reaches = []
    for d in distinct:
        ids = np.flatnonzero(costs <= d)
        reaches.append(Reach(weights_of[ids].tolist(), ids.tolist(), track_users(track[ids])))
    found = best_set(reaches, [distinct.index(reach[t]) for t in order],
                     lambda n: key_bits(track[n]), options.pair_work, cancel)
    if found is None:
        return None
    return {t: lister.route(listed, int(ranked[n]))
            for t, n in zip(order, found[1]) if n is not None}


def set_packing(
    groups: Sequence[tuple[int, Sequence[ListedRoute], Sequence[int]]],
    max_work: int = DEFAULT_OPTIONS.pair_work, cancel: CancelToken | None = None,
) -> list[list[int]] | None:
    """The best packing of listed groups (``model.ListedGroup``'s number of trains,
    routes and weights > 0), as ``packing.best_packing`` gives it (per group, the indices
    of the routes its trains run), by ``best_set``: where that packing search gives up
    (three 6 / 5-trains on a full 1856 board: lists of 500-800 routes, 69 565 CP-SAT
    branches after it). None past ``max_work``. Each group's routes are one reach (its
    trains twins); the group with the most routes first."""
    reaches: list[Reach] = []
    offsets: list[int] = []  # a group's first route id
    trains: list[int] = []
    for _, routes, weights in groups:
        order = sorted(range(len(routes)), key=lambda r: (-weights[r], r))
        offsets.append(sum(len(listed) for _, listed, _ in groups[:len(offsets)]))
        reaches.append(Reach([weights[r] for r in order], [offsets[-1] + r for r in order],
                             users_of([(0, routes[r].track) for r in order])))
    for g in sorted(range(len(groups)), key=lambda g: -len(groups[g][1])):
        trains += [g] * groups[g][0]
    tracks = [r.track for _, routes, _ in groups for r in routes]
    found = best_set(reaches, trains, tracks.__getitem__, max_work, cancel)
    if found is None:
        return None
    packed: list[list[int]] = [[] for _ in groups]
    for g, route in zip(trains, found[1]):
        if route is not None:
            packed[g].append(route - offsets[g])
    return packed
