"""The pair scan's listing, one layer of partial routes at a time in numpy (issue 21, item 1).

``solver/pairwalk.py`` walks every route depth first in Python, one step per
node entered, 1-2 µs a step: on the slowest boards grown against the pair scan
(5 + D, 6 + D: 150 000-240 000 steps, 44 000-57 000 routes) that walk was the
whole cost. This listing walks the very same partial routes, with the same
route rules (``solver/routes.py``: no node twice, a junction entered on one
side is left by the other, ``route_end_only`` stops only at an end, one stop
per group, the train's distance, a station on the route, at least
``min_stops`` stops, each route once from its lower first stop), but all
routes of one length together: a partial route is a row of arrays (last node,
side entered, nodes on it as a bit mask, cost, weight, groups used, stations,
stops, first stop, stop-to-stop segments as a bit mask, and its parent row),
and a layer's rows are extended by every way out at once.

The steps are counted as the walk counts them (one per partial route): the
same budget gives up on the same boards, a count, never the clock. Track is
kept as two 64-bit masks — the junctions on the route, and its stop-to-stop
segments — so boards with more than 64 nodes or 64 stop-to-stop segments are
left to ``pairwalk`` (``pairs.fits``). The pair scan itself (``scan``) is
``pairs.best_pair``'s, the same pair on the same lists, fed from the masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from route18xx.solver.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.pairs import MASK_BITS
from route18xx.solver.problem import Stop
from route18xx.solver.reduce import ReducedGraph
from route18xx.solver.routes import ListedRoute, adjacency, group_masks, leaving

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
BOOL = npt.NDArray[np.bool_]

#: Bits of a mask (``pairs.fits`` sends boards needing more to ``pairwalk``).
WIDTH = MASK_BITS
ONE = np.uint64(1)


class Listed(NamedTuple):
    """Every kept route (weight > 0) as parallel arrays, in listing order."""

    weights: I64
    costs: I64
    junctions: U64  # the junctions on the route, bit per reduced node
    segments: U64  # its stop-to-stop segments, bit per stop-to-stop segment
    layer: I64
    row: I64
    starts: I64


#: ``Lister``'s packed counts: stations on the route in the low bits, stops above.
STOPS_SHIFT = 16


class Lister:
    """One board's listing (``list``) and the routes rebuilt from it (``route``).

    Each way out of an arrival (a stop, or a junction entered on one side) is an
    *exit* ``e``, numbered arrival by arrival; per exit the arrays hold what taking
    it adds (the node, its bit, cost, weight, groups, station and stop counts, the
    stop-to-stop segment's bit) and what ``route`` needs (segment, direction).
    """

    def __init__(self, graph: ReducedGraph, stops: Sequence[Stop], stop_weights: Sequence[int],
                 bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
                 groups: Sequence[Sequence[int]]) -> None:
        self.graph = graph
        n_stops, n = graph.stop_count, graph.node_count
        adjacent = adjacency(graph)
        leave = leaving(graph, adjacent)
        stop_to_stop = [i for i, s in enumerate(graph.segments)
                        if s.a < n_stops and s.b < n_stops]
        ss_bit = {seg: 1 << k for k, seg in enumerate(stop_to_stop)}
        group = group_masks(n_stops, groups)
        self.any_groups = bool(groups)
        rows: list[tuple[int, int, int, int, int, int, int, int, int, bool]] = []
        offsets, degrees = [], []
        # Arrival codes: 2·node + side entered (a stop is entered on "side" 0).
        for code in range(2 * n):
            node, side = divmod(code, 2)
            if node < n_stops:
                ways = adjacent[node] if side == 0 else []
            else:
                ways = leave[node][side]
            offsets.append(len(rows))
            degrees.append(len(ways))
            for other, _, side_there, (seg, forward), _ in ways:
                at_stop = other < n_stops
                rows.append((
                    other,
                    2 * other + (0 if at_stop else side_there),
                    1 << other,
                    stops[other].distance_cost if at_stop else 0,
                    stop_weights[other] if at_stop else 0,
                    group[other] if at_stop else 0,
                    (int(stops[other].station) + (1 << STOPS_SHIFT)) if at_stop else 0,
                    ss_bit.get(seg, 0),
                    seg, forward))
        columns = list(zip(*rows)) if rows else [()] * 10
        self.ex_other = np.array(columns[0], dtype=np.int64)
        self.ex_code = np.array(columns[1], dtype=np.int64)
        self.ex_bit = np.array(columns[2], dtype=np.uint64)
        self.ex_cost = np.array(columns[3], dtype=np.int64)
        self.ex_weight = np.array(columns[4], dtype=np.int64)
        self.ex_group = np.array(columns[5], dtype=np.uint64)
        self.ex_counts = np.array(columns[6], dtype=np.int64)
        self.ex_ss = np.array(columns[7], dtype=np.uint64)
        self.ex_seg = np.array(columns[8], dtype=np.int64)
        self.ex_forward = np.array(columns[9], dtype=np.bool_)
        self.offset = np.array(offsets, dtype=np.int64)
        self.degree = np.array(degrees, dtype=np.int64)
        # An arrival at a ``route_end_only`` stop goes no further (past the route's start).
        self.end_only = np.array([node < n_stops and stops[node].route_end_only and side == 0
                                  for node, side in (divmod(c, 2) for c in range(2 * n))],
                                 dtype=np.bool_)
        self.stop_costs = [s.distance_cost for s in stops]
        self.stop_weights = list(stop_weights)
        self.stop_groups = group
        self.stop_counts = [int(s.station) + (1 << STOPS_SHIFT) for s in stops]
        self.junction_bits = np.uint64(sum(1 << j for j in range(n_stops, n)))
        self.bonuses = [(value, np.uint64(sum(1 << s for s in a)), np.uint64(sum(1 << s for s in b)))
                        for value, a, b in bonuses]
        self.layers: list[tuple[I64, I64]] = []  # per length: (parent row, exit taken)

    def list(self, max_cost: int, min_stops: int, max_steps: int,
             cancel: CancelToken | None = None) -> Listed | None:
        """Every legal route of cost ≤ ``max_cost`` and weight > 0, or None past
        ``max_steps`` partial routes (``pairwalk.list_weighed``'s count)."""
        n_stops = self.graph.stop_count
        need = max(min_stops, 1)
        start_list = [s for s in range(n_stops) if self.stop_costs[s] <= max_cost]
        starts = np.array(start_list, dtype=np.int64)
        node = starts
        code = 2 * starts
        on = np.array([1 << s for s in start_list], dtype=np.uint64)
        cost = np.array([self.stop_costs[s] for s in start_list], dtype=np.int64)
        weight = np.array([self.stop_weights[s] for s in start_list], dtype=np.int64)
        groups = np.array([self.stop_groups[s] for s in start_list], dtype=np.uint64)
        counts = np.array([self.stop_counts[s] for s in start_list], dtype=np.int64)
        first = starts
        ss = np.zeros(len(starts), dtype=np.uint64)
        self.layers = [(np.arange(len(starts), dtype=np.int64),
                        np.full(len(starts), -1, dtype=np.int64))]
        kept: list[tuple[I64, I64, U64, U64, int, I64, I64]] = []
        steps = len(starts)
        low = (1 << STOPS_SHIFT) - 1
        while len(node):
            if steps > max_steps:
                return None
            if cancel is not None and cancel.cancelled:
                raise Cancelled("pair listing")
            at_stop = node < n_stops
            depth = counts >> STOPS_SHIFT
            record = at_stop & (depth >= need) & ((counts & low) > 0) & (
                (first < node) | (depth == 1))
            picked = np.flatnonzero(record)
            if len(picked):
                total = weight[picked]
                for value, one, two in self.bonuses:
                    mask = on[picked]
                    total = total + value * (((mask & one) != 0) & ((mask & two) != 0))
                good = total > 0
                picked = picked[good]
                kept.append((total[good], cost[picked], on[picked] & self.junction_bits,
                             ss[picked], len(self.layers) - 1, picked, first[picked]))
            # Extend every row that may go on by each of its ways out.
            rows = np.flatnonzero(~(self.end_only[code] & (depth > 1)))
            row_codes = code[rows]
            count = self.degree[row_codes]
            parent = np.repeat(rows, count)
            ends = np.cumsum(count)
            exit_ = np.arange(len(parent), dtype=np.int64) + np.repeat(
                self.offset[row_codes] - (ends - count), count)
            new_cost = cost[parent] + self.ex_cost[exit_]
            ok = (on[parent] & self.ex_bit[exit_]) == 0
            ok &= new_cost <= max_cost
            if self.any_groups:
                ok &= (groups[parent] & self.ex_group[exit_]) == 0
            parent, exit_ = parent[ok], exit_[ok]
            node = self.ex_other[exit_]
            code = self.ex_code[exit_]
            on = on[parent] | self.ex_bit[exit_]
            cost = new_cost[ok]
            weight = weight[parent] + self.ex_weight[exit_]
            if self.any_groups:
                groups = groups[parent] | self.ex_group[exit_]
            counts = counts[parent] + self.ex_counts[exit_]
            first = first[parent]
            ss = ss[parent] | self.ex_ss[exit_]
            self.layers.append((parent, exit_))
            steps += len(node)
        if not kept:
            empty = np.zeros(0, dtype=np.int64)
            return Listed(empty, empty, empty.astype(np.uint64), empty.astype(np.uint64),
                          empty, empty, empty)
        return Listed(np.concatenate([k[0] for k in kept]), np.concatenate([k[1] for k in kept]),
                      np.concatenate([k[2] for k in kept]), np.concatenate([k[3] for k in kept]),
                      np.concatenate([np.full(len(k[0]), k[4], dtype=np.int64) for k in kept]),
                      np.concatenate([k[5] for k in kept]), np.concatenate([k[6] for k in kept]))

    def route(self, listed: Listed, i: int) -> ListedRoute:
        """Route ``i`` of ``listed`` as ``routes.list_routes`` lists it."""
        layer, row = int(listed.layer[i]), int(listed.row[i])
        walked: list[tuple[int, bool]] = []
        while layer > 0:
            parent, exits = self.layers[layer]
            e = int(exits[row])
            walked.append((int(self.ex_seg[e]), bool(self.ex_forward[e])))
            row = int(parent[row])
            layer -= 1
        walked.reverse()
        graph, n_stops = self.graph, self.graph.stop_count
        node = int(listed.starts[i])
        path, track = [node], []
        for seg_i, forward in walked:
            seg = graph.segments[seg_i]
            there = seg.b if forward else seg.a
            if there >= n_stops:
                track.append(there)
            elif node < n_stops:
                track.append(graph.node_count + seg_i)
            if there < n_stops:
                path.append(there)
            node = there
        return ListedRoute(tuple(path), tuple(walked), tuple(track), int(listed.costs[i]))


#: Routes whose track keys are read from their masks at once by the scan.
KEY_ROWS = 512


def _keys(junctions: int, segments: int) -> list[int]:
    """One route's track keys, as ``_key_lists`` gives them."""
    keys = []
    while junctions:
        bit = junctions & -junctions
        keys.append(bit.bit_length() - 1)
        junctions ^= bit
    while segments:
        bit = segments & -segments
        keys.append(WIDTH + bit.bit_length() - 1)
        segments ^= bit
    return keys


def _key_lists(junctions: U64, segments: U64) -> list[list[int]]:
    """Per route, its track keys for the scan: junction bits, then WIDTH + segment bits."""
    def unpack(masks: U64) -> npt.NDArray[np.uint8]:
        raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
        return np.unpackbits(raw, axis=1, bitorder="little")

    bits = np.concatenate([unpack(junctions), unpack(segments)], axis=1)
    rows, keys = np.nonzero(bits)
    ends = np.searchsorted(rows, np.arange(1, len(junctions) + 1)).tolist()
    flat = keys.tolist()
    out, lo = [], 0
    for hi in ends:
        out.append(flat[lo:hi])
        lo = hi
    return out


def _users(junctions: U64, segments: U64) -> dict[int, int]:
    """Per track key, the bitset of the routes using it (bit j: route j)."""
    users: dict[int, int] = {}
    for base, masks in ((0, junctions), (WIDTH, segments)):
        present = int(np.bitwise_or.reduce(masks)) if len(masks) else 0
        while present:
            bit = present & -present
            b = bit.bit_length() - 1
            column = (masks >> np.uint64(b)) & ONE
            users[base + b] = int.from_bytes(
                np.packbits(column.astype(np.uint8), bitorder="little").tobytes(), "little")
            present ^= bit
    return users


class PairBound:
    """The most a pair of a route can weigh, from two of its track keys (the scan skips
    routes whose bound cannot beat the best pair so far).

    A partner must avoid every key of the route, so it is no heavier than the
    heaviest partner avoiding any two of them: per pair of keys (a, b) the first
    partner (they are sorted) using neither (``table``: one OR of two bitsets each,
    for the keys some partner uses; a key none uses constrains nothing). A route's
    bound is its weight plus the least entry over its pairs of keys (a = b: one key),
    or plus the heaviest partner when none of its keys is used by one; no free
    partner leaves its weight alone. On a D + D board whose heaviest route pairs
    with a light one (seed 9316: 710 + 170) one key kept all 14 470 routes the
    scan reads; two keys leave 3 180.
    """

    def __init__(self, users: list[int], weights: list[int], every: int) -> None:
        self.present = [k for k, bits in enumerate(users) if bits]
        self.slot = {k: n for n, k in enumerate(self.present)}
        self.top = weights[0] if weights else 0
        size = len(self.present) + 1  # the last slot pads rows with fewer keys
        table = np.full((size, size), self.top, dtype=np.int64)
        for n, a in enumerate(self.present):
            for m in range(n, len(self.present)):
                free = every & ~(users[a] | users[self.present[m]])
                weight = weights[(free & -free).bit_length() - 1] if free else 0
                table[n, m] = table[m, n] = weight
        self.table = table

    def rows(self, weights: I64, junctions: U64, segments: U64) -> list[int]:
        """The bounds of these routes (weights and track masks): per route, the pairs of
        its keys with one of its ``ANCHORS`` keys of least single-key entry (a subset
        of its pairs, so still a bound; the whole square cost 10x more)."""
        if not self.present:
            return (weights + self.top).tolist()  # type: ignore[no-any-return]
        has = _bits(junctions, segments)[:, self.present]  # routes × used keys
        single = np.where(has, np.diagonal(self.table)[None, : len(self.present)], self.top + 1)
        least = np.full(len(weights), self.top, dtype=np.int64)
        table = self.table[: len(self.present), : len(self.present)]
        rows = np.arange(len(weights))
        for _ in range(ANCHORS):
            anchor = np.argmin(single, axis=1)
            single[rows, anchor] = self.top + 1
            entries = np.where(has, table[anchor], self.top).min(axis=1)
            # a route with fewer keys than anchors: an anchor not its own bounds nothing
            least = np.minimum(least, np.where(has[rows, anchor], entries, self.top))
        return (weights + least).tolist()  # type: ignore[no-any-return]


#: Key ORs of the scan before ``PairBound`` is built (its table and rows cost ~15 ms on
#: a D + D board, where it spares ~10 % of the ORs; the scans it pays for are longer).
BOUND_FROM = 50_000
#: Keys per route whose pairs with its other keys bound its partner (``PairBound.rows``).
ANCHORS = 2


def _bits(junctions: U64, segments: U64) -> npt.NDArray[np.bool_]:
    """Per route, its track keys as booleans: junction bits, then segment bits."""
    def unpack(masks: U64) -> npt.NDArray[np.bool_]:
        raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
        return np.unpackbits(raw, axis=1, bitorder="little").astype(np.bool_)

    return np.concatenate([unpack(junctions), unpack(segments)], axis=1)


def scan(first: tuple[I64, U64, U64], second: tuple[I64, U64, U64] | None,
         max_work: int) -> tuple[int, int | None, int | None] | None:
    """``pairs.best_pair`` on (weights heaviest first, junction masks, segment masks):
    the same pair, found the same way, with each route's keys read from its masks."""
    same = second is None
    wa, ja, sa = first
    wb, jb, sb = first if second is None else second
    top_other = int(wb[0]) if len(wb) else 0
    best, best_i, best_j = 0, None, None
    if len(wa) and int(wa[0]) >= top_other:
        best, best_i = int(wa[0]), 0
    elif len(wb):
        best, best_j = top_other, 0
    if len(wa) and len(wb):  # the first route beside its best partner: a pair to beat
        w0 = int(wa[0])
        free = ((jb & ja[0]) == 0) & ((sb & sa[0]) == 0) & (wb + w0 > best)
        hits = np.flatnonzero(free)
        if len(hits):
            j = int(hits[0])
            best, best_i, best_j = w0 + int(wb[j]), 0, j
    useful = len(wb)
    if len(wa):
        useful = int(np.count_nonzero(wb + int(wa[0]) > best))  # sorted: a prefix
    users = [0] * (2 * WIDTH)  # per track key, the bitset of the partners using it
    for key, bits in _users(jb[:useful], sb[:useful]).items():
        users[key] = bits
    every = (1 << useful) - 1
    work = 0
    weights_b = wb[:useful].tolist()
    # Only routes that could make a pair above the best so far are read (a prefix).
    stop = int(np.count_nonzero(wa + (wa if same else top_other) > best))
    # A route whose track a heavier route had (the same masks) has that route's partners
    # and no heavier pairs: skipped, the pair found is the same.
    repeated = np.ones(stop, dtype=np.bool_)
    if stop:
        masks = np.stack([ja[:stop], sa[:stop]], axis=1)
        repeated[np.unique(masks, axis=0, return_index=True)[1]] = False
    skip = repeated.tolist()
    key_lists: list[list[int]] = []
    bounds: list[int] = []  # from route ``bounded`` on, once the scan is long
    bounded, pair_bound = 0, None
    for i, weight in enumerate(wa[:stop].tolist()):
        if weight + (weight if same else top_other) <= best:
            break  # no later route of the first train can make a better pair
        if skip[i]:
            continue
        if pair_bound is None and work > BOUND_FROM:
            bounded, pair_bound = i, PairBound(users, weights_b, every)
        if pair_bound is not None:
            while i - bounded >= len(bounds):  # the next routes' bounds, twice as many each time
                done, more = bounded + len(bounds), max(KEY_ROWS, len(bounds))
                bounds += pair_bound.rows(wa[done:done + more], ja[done:done + more],
                                          sa[done:done + more])
            if bounds[i - bounded] <= best:
                continue  # no partner it may have can make a better pair
        if pair_bound is None:
            while i >= len(key_lists):  # the next routes' keys, from their masks at once
                done = len(key_lists)
                key_lists += _key_lists(ja[done:done + KEY_ROWS], sa[done:done + KEY_ROWS])
            keys = key_lists[i]
        else:  # the bound skips most routes: the few read are read one by one
            keys = _keys(int(ja[i]), int(sa[i]))
        work += len(keys) + 1
        if work > max_work:
            return None
        taken = 0
        for key in keys:
            taken |= users[key]
        free_bits = every & ~taken
        if same:
            free_bits &= ~((1 << i) - 1)  # the second route no heavier: each pair once
        if free_bits:
            j = (free_bits & -free_bits).bit_length() - 1
            if weight + weights_b[j] > best:
                best, best_i, best_j = weight + weights_b[j], i, j
    return best, best_i, best_j
