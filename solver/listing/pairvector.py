"""The pair scan's listing, one layer of partial routes at a time in numpy (issue 21, item 1).

``solver/listing/pairwalk.py`` walks every route depth first in Python, one step per
node entered, 1-2 µs a step: on the slowest boards grown against the pair scan
(5 + D, 6 + D: 150 000-240 000 steps, 44 000-57 000 routes) that walk was the
whole cost. This listing walks the very same partial routes, with the same
route rules (``solver/listing/routes.py``: no node twice, a junction entered on one
side is left by the other, ``route_end_only`` stops only at an end, one stop
per group, the train's distance, a station on the route, at least
``min_stops`` stops, each route once from its lower first stop), but all
routes of one length together: a partial route is a row of arrays (last node,
side entered, nodes on it as a bit mask, cost, weight, groups used, stations,
stops, first stop, stop-to-stop segments as a bit mask, and its parent row),
and a layer's rows are extended by every way out at once.

The steps are counted as the walk counts them (one per partial route): the
same budget gives up on the same boards, a count, never the clock. Every mask is
a row of 64-bit words, as many as the board needs (``capacity.words``: nodes,
stop-to-stop segments, groups; issue 35: one word each stopped the listing at 64
reduced nodes, and the boards past it fell to CP-SAT's circuits at up to 2.8 s).
A step adds one node bit and at most one segment bit: it reads one word of the
node mask, and ORs in its exit's rows. Boards wider than ``capacity.MASK_WORDS`` words
are left to ``pairwalk`` (``capacity.fits``). The pair scan itself (``scan``) is
``pairs.best_pair``'s, the same pair on the same lists, fed from the masks: a
route's track keys are the bits of its junction words, then of its segment words.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.listing.capacity import WORD_BITS, words
from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute, adjacency, group_masks, leaving
from route18xx.solver.tuning import DEFAULT_OPTIONS

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

#: Bits of a mask word.
WIDTH = WORD_BITS
ONE = np.uint64(1)


class Listed(NamedTuple):
    """Every kept route (weight > 0) as parallel arrays, in listing order."""

    weights: I64
    costs: I64
    junctions: U64  # routes × node words: the junctions on the route, bit per reduced node
    segments: U64  # routes × segment words: its stop-to-stop segments
    layer: I64
    row: I64
    starts: I64


#: ``Lister``'s packed counts: stations on the route in the low bits, stops above.
STOPS_SHIFT = 16


def _mask(bits: Sequence[int], words: int) -> U64:
    """These bit positions as one row of ``words`` 64-bit words."""
    total = sum(1 << b for b in set(bits))
    return np.array([(total >> (WIDTH * w)) & (2**WIDTH - 1) for w in range(words)],
                    dtype=np.uint64)


class Lister:
    """One board's listing (``list``) and the routes rebuilt from it (``route``).

    Each way out of an arrival (a stop, or a junction entered on one side) is an
    *exit* ``e``, numbered arrival by arrival; per exit the arrays hold what taking
    it adds (the node, its word and bit, cost, weight, groups, station and stop
    counts, the stop-to-stop segment's word and bit, 0 for none) and what ``route``
    needs (segment, direction).
    """

    def __init__(self, graph: ReducedGraph, stops: Sequence[Stop], stop_weights: Sequence[int],
                 bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
                 groups: Sequence[Sequence[int]]) -> None:
        self.graph = graph
        n_stops, n = graph.stop_count, graph.node_count
        adjacent = adjacency(graph)
        leave = leaving(graph.stop_count, adjacent)
        stop_to_stop = [i for i, s in enumerate(graph.segments)
                        if s.a < n_stops and s.b < n_stops]
        ss_index = {seg: k for k, seg in enumerate(stop_to_stop)}
        #: Words per mask: nodes, stop-to-stop segments, groups (``capacity.words``).
        self.node_words = words(n)
        self.segment_words = words(len(stop_to_stop))
        self.group_words = words(len(groups))
        group = group_masks(n_stops, groups)
        self.any_groups = bool(groups)
        rows: list[tuple[int, int, int, int, int, int, int, int, int, int, int, bool]] = []
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
                ss = ss_index.get(seg)
                rows.append((
                    other,
                    2 * other + (0 if at_stop else side_there),
                    other // WIDTH, 1 << (other % WIDTH),
                    stops[other].distance_cost if at_stop else 0,
                    stop_weights[other] if at_stop else 0,
                    group[other] if at_stop else 0,
                    (int(stops[other].station) + (1 << STOPS_SHIFT)) if at_stop else 0,
                    0 if ss is None else ss // WIDTH, 0 if ss is None else 1 << (ss % WIDTH),
                    seg, forward))
        columns = list(zip(*rows)) if rows else [()] * 12
        self.ex_other = np.array(columns[0], dtype=np.int64)
        self.ex_code = np.array(columns[1], dtype=np.int64)
        self.ex_word = np.array(columns[2], dtype=np.int64)
        self.ex_bit = np.array(columns[3], dtype=np.uint64)
        self.ex_cost = np.array(columns[4], dtype=np.int64)
        self.ex_weight = np.array(columns[5], dtype=np.int64)
        self.ex_group = np.array(
            [[(g >> (WIDTH * w)) & (2**WIDTH - 1) for w in range(self.group_words)]
             for g in columns[6]], dtype=np.uint64).reshape(len(rows), self.group_words)
        self.ex_counts = np.array(columns[7], dtype=np.int64)
        self.ex_ss_word = np.array(columns[8], dtype=np.int64)
        self.ex_ss = np.array(columns[9], dtype=np.uint64)
        # The bits as whole rows too: a step ORs its row in one operation (a scatter into
        # copied rows cost ~30 % more of the listing on one-word boards, big-13206, big-16104).
        self.ex_node_mask = np.zeros((len(rows), self.node_words), dtype=np.uint64)
        self.ex_node_mask[np.arange(len(rows)), self.ex_word] = self.ex_bit
        self.ex_ss_mask = np.zeros((len(rows), self.segment_words), dtype=np.uint64)
        self.ex_ss_mask[np.arange(len(rows)), self.ex_ss_word] = self.ex_ss
        self.ex_seg = np.array(columns[10], dtype=np.int64)
        self.ex_forward = np.array(columns[11], dtype=np.bool_)
        self.offset = np.array(offsets, dtype=np.int64)
        self.degree = np.array(degrees, dtype=np.int64)
        # An arrival at a ``route_end_only`` stop goes no further (past the route's start).
        self.end_only = np.array([node < n_stops and stops[node].route_end_only and side == 0
                                  for node, side in (divmod(c, 2) for c in range(2 * n))],
                                 dtype=np.bool_)
        self.stop_costs = [s.distance_cost for s in stops]
        self.stop_weights = list(stop_weights)
        self.stop_groups = [_mask([b for b in range(len(groups)) if g >> b & 1],
                                  self.group_words) for g in group]
        self.stop_counts = [int(s.station) + (1 << STOPS_SHIFT) for s in stops]
        self.junction_bits = _mask(range(n_stops, n), self.node_words)
        self.bonuses = [(value, _mask(a, self.node_words), _mask(b, self.node_words))
                        for value, a, b in bonuses]
        self.layers: list[tuple[I64, I64]] = []  # per length: (parent row, exit taken)

    def list(self, max_cost: int, min_stops: int, max_steps: int,
             cancel: CancelToken | None = None, width: int | None = None) -> Listed | None:
        """Every legal route of cost ≤ ``max_cost`` and weight > 0, or None past
        ``max_steps`` partial routes (``pairwalk.list_weighed``'s count).

        ``width``: a *beam* (issue 35, the 20 ms answer): each layer keeps only its
        ``width`` heaviest partial routes (ties in listing order), so the routes listed
        are a sample, legal by the same rules, found in a few layers' work; not every
        route, so never a proof (``solver/listing/greedy.py``'s first solution)."""
        n_stops = self.graph.stop_count
        need = max(min_stops, 1)
        start_list = [s for s in range(n_stops) if self.stop_costs[s] <= max_cost]
        starts = np.array(start_list, dtype=np.int64)
        node = starts
        code = 2 * starts
        on = np.zeros((len(starts), self.node_words), dtype=np.uint64)
        if len(starts):
            on[np.arange(len(starts)), starts // WIDTH] = ONE << (starts % WIDTH).astype(np.uint64)
        cost = np.array([self.stop_costs[s] for s in start_list], dtype=np.int64)
        weight = np.array([self.stop_weights[s] for s in start_list], dtype=np.int64)
        groups = np.array([self.stop_groups[s] for s in start_list],
                          dtype=np.uint64).reshape(len(starts), self.group_words)
        counts = np.array([self.stop_counts[s] for s in start_list], dtype=np.int64)
        first = starts
        ss = np.zeros((len(starts), self.segment_words), dtype=np.uint64)
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
                    total = total + value * (((mask & one) != 0).any(axis=1)
                                             & ((mask & two) != 0).any(axis=1))
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
            ok = (on[parent, self.ex_word[exit_]] & self.ex_bit[exit_]) == 0
            ok &= new_cost <= max_cost
            if self.any_groups:
                ok &= ~((groups[parent] & self.ex_group[exit_]) != 0).any(axis=1)
            parent, exit_ = parent[ok], exit_[ok]
            cost = new_cost[ok]
            weight = weight[parent] + self.ex_weight[exit_]
            if width is not None and len(parent) > width:
                beam = np.sort(np.argsort(-weight, kind="stable")[:width])
                parent, exit_, cost, weight = parent[beam], exit_[beam], cost[beam], weight[beam]
            node = self.ex_other[exit_]
            code = self.ex_code[exit_]
            on = on[parent] | self.ex_node_mask[exit_]
            if self.any_groups:
                groups = groups[parent] | self.ex_group[exit_]
            counts = counts[parent] + self.ex_counts[exit_]
            first = first[parent]
            ss = ss[parent] | self.ex_ss_mask[exit_]
            self.layers.append((parent, exit_))
            steps += len(node)
        if not kept:
            empty = np.zeros(0, dtype=np.int64)
            return Listed(empty, empty, np.zeros((0, self.node_words), dtype=np.uint64),
                          np.zeros((0, self.segment_words), dtype=np.uint64), empty, empty, empty)
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


def track_masks(junctions: U64, segments: U64) -> U64:
    """Routes × words: a route's junction words, then its segment words (one word each
    where given one mask per route). Track key ``k`` is bit ``k % 64`` of word ``k // 64``:
    junction bit b is key b, segment bit b key 64 · (junction words) + b."""
    def rows(masks: U64) -> U64:
        return masks.reshape(len(masks), 1) if masks.ndim == 1 else masks

    return np.ascontiguousarray(np.concatenate([rows(junctions), rows(segments)], axis=1),
                                dtype="<u8")


def _bits(track: U64) -> npt.NDArray[np.uint8]:
    """Routes × keys: each key's bit (``track_masks``' numbering)."""
    raw = track.view(np.uint8).reshape(len(track), track.shape[1] * 8)
    return np.unpackbits(raw, axis=1, bitorder="little")


def _key_lists(track: U64, order: npt.NDArray[np.intp]) -> list[list[int]]:
    """Per route, its track keys for the scan, in ``order`` (a permutation of the keys)."""
    bits = _bits(track)[:, order]
    rows, ranks = np.nonzero(bits)
    keys = order[ranks]
    ends = np.searchsorted(rows, np.arange(1, len(track) + 1)).tolist()
    flat = keys.tolist()
    out, lo = [], 0
    for hi in ends:
        out.append(flat[lo:hi])
        lo = hi
    return out


def repeated(track: U64) -> npt.NDArray[np.bool_]:
    """Per route, whether an earlier route has all its track words. A stable sort by the
    words puts equal routes together in their order, the earliest first (issue 21:
    ``np.unique(..., axis=0)`` sorted the rows as opaque records, 65-70 ms for the 25 000
    routes of big-16104 against ~3 ms)."""
    order = np.lexsort(track.T[::-1])
    by = track[order]
    same = np.zeros(len(order), dtype=np.bool_)
    same[1:] = (by[1:] == by[:-1]).all(axis=1)
    out = np.empty(len(order), dtype=np.bool_)
    out[order] = same
    return out


def key_bits(row: U64) -> list[int]:
    """One route's track keys, ascending, from its ``track_masks`` row."""
    out = []
    for w, word in enumerate(row.tolist()):
        while word:
            bit = word & -word
            out.append(WIDTH * w + bit.bit_length() - 1)
            word ^= bit
    return out


def track_users(track: U64) -> dict[int, int]:
    """Per track key, the bitset of the routes using it (bit j: route j)."""
    users: dict[int, int] = {}
    for w in range(track.shape[1]):
        masks = track[:, w]
        present = int(np.bitwise_or.reduce(masks)) if len(masks) else 0
        while present:
            bit = present & -present
            b = bit.bit_length() - 1
            column = (masks >> np.uint64(b)) & ONE
            users[WIDTH * w + b] = int.from_bytes(
                np.packbits(column.astype(np.uint8), bitorder="little").tobytes(), "little")
            present ^= bit
    return users


class PairBound:
    """The most a pair of a route can weigh, from two of its track keys (the scan skips
    routes whose bound cannot beat the best pair so far).

    A partner must avoid every key of the route, so it is no heavier than the
    heaviest partner avoiding any two of them: per pair of keys (a, b) the first
    partner (they are sorted) using neither (one OR of two bitsets; a key no partner
    uses constrains nothing). A route's *anchor* is its key of least single-key entry
    (a = b), and its bound is its weight plus the least entry of the anchor's row over
    its keys (a subset of its pairs, so still a bound), or plus the heaviest partner
    when no partner uses any of its keys. On a D + D board whose heaviest route pairs
    with a light one (seed 9316: 710 + 170) single keys kept all 14 470 routes the
    scan reads; the anchor's pairs skip 6 571 of the 8 471 it reaches. A second
    anchor (as first written) skipped none more there, and on 34 boards at most 104
    more (seed 9146: 110 against 6 of 1 181), for twice the work.

    The scan bounds every route it reaches, a block at a time: the block's keys as a
    routes × used keys matrix (keys ranked by single-key entry, so the anchor is the
    first), the anchors' rows gathered: a few vector steps per block, about 1-2 µs a
    route against 10-30 µs to read one (seeds 9118, 9316). A row (one OR per used key) is
    built the first time a route has that anchor: the table costs only the rows the
    scan meets. Only a route whose weight plus its anchor's least entry may not beat the
    best gets its exact bound: no other can be skipped. No count decides when to start.
    """

    def __init__(self, users: list[int], weights: list[int], every: int,
                 head_bits: int = DEFAULT_OPTIONS.head) -> None:
        self.users, self.weights, self.every = users, weights, every
        present = [k for k, bits in enumerate(users) if bits]
        self.top = weights[0] if weights else 0
        # The heaviest partners' bits alone: an entry's partner is most often among them.
        head = (1 << head_bits) - 1
        self.head_users = [bits & head for bits in users]
        self.head_every = every & head
        single = [self._row(k, [k])[0] for k in present]
        self.ranked = [present[n] for n in sorted(range(len(present)),
                                                  key=single.__getitem__)]  # stable
        self.columns = np.array(self.ranked, dtype=np.int64)  # rank → track key
        #: Per anchor rank, its entries by rank (rows built when first met); 32 bits where
        #: the weights fit (half the memory a block's gather moves).
        self.table: npt.NDArray[np.signedinteger[Any]] = np.zeros(
            (len(self.ranked), len(self.ranked)), dtype=np.int32 if self.top < 2**31 else np.int64)
        self.built = np.zeros(len(self.ranked), dtype=np.bool_)
        #: Per anchor rank, the least entry of its row (once built).
        self.least = np.full(len(self.ranked), self.top, dtype=np.int64)

    def _row(self, a: int, keys: list[int]) -> list[int]:
        """Per key b of ``keys``: the heaviest partner using neither ``a`` nor b (0: none),
        looked for among the first ``head_bits`` partners (``SolveOptions.head``), then among all."""
        near = self.head_every & ~self.head_users[a]
        avoid = None
        out = []
        for b in keys:
            free = near & ~self.head_users[b]
            if not free:
                if avoid is None:
                    avoid = self.every & ~self.users[a]
                free = avoid & ~self.users[b]
            out.append(self.weights[(free & -free).bit_length() - 1] if free else 0)
        return out

    def bounds(self, weights: I64, junctions: U64, segments: U64,
               upto: int | None = None) -> I64:
        """The bounds of these routes (weights and track masks); given ``upto``, a route
        whose bound exceeds it for certain (its weight plus its anchor's least entry) gets
        its weight plus the heaviest partner instead (a bound all the same)."""
        return self.track_bounds(weights, track_masks(junctions, segments), upto)

    def track_bounds(self, weights: I64, track: U64, upto: int | None = None) -> I64:
        """``bounds`` of routes given as ``track_masks`` rows."""
        if not self.ranked:
            return weights + self.top
        has = _bits(track)[:, self.columns].view(np.bool_)  # routes × used keys, by rank
        anchor = np.argmax(has, axis=1)  # the first used key; none: the bound is ``top``
        new = has[np.arange(len(has)), anchor] & ~self.built[anchor]
        for r in sorted(set(anchor[new].tolist())):
            self.table[r] = self._row(self.ranked[r], self.ranked)
            self.least[r] = self.table[r].min()
            self.built[r] = True
        out = weights + self.top
        may = np.arange(len(weights)) if upto is None else np.flatnonzero(
            weights + self.least[anchor] <= upto)
        out[may] = weights[may] + np.where(has[may], self.table[anchor[may]], self.top).min(axis=1)
        return out


def scan(first: tuple[I64, U64, U64], second: tuple[I64, U64, U64] | None,
         max_work: int, cancel: CancelToken | None = None, *,
         key_rows: int = DEFAULT_OPTIONS.key_rows, head: int = DEFAULT_OPTIONS.head,
         recut_eighths: int = DEFAULT_OPTIONS.recut_eighths,
         ) -> tuple[int, int | None, int | None] | None:
    """``pairs.best_pair`` on (weights heaviest first, junction masks, segment masks):
    the same pair, found the same way, with each route's keys read from its masks.
    Raises ``Cancelled`` when ``cancel`` fires (polled once a block of ``key_rows``
    routes: a scan may take 200 ms, a cancelled call must not wait for it). The masks are
    one word per route or rows of words (``Listed``); both lists have the same words."""
    same = second is None
    wa, ta = first[0], track_masks(first[1], first[2])
    wb, tb = (wa, ta) if second is None else (second[0], track_masks(second[1], second[2]))
    top_other = int(wb[0]) if len(wb) else 0
    best, best_i, best_j = 0, None, None
    if len(wa) and int(wa[0]) >= top_other:
        best, best_i = int(wa[0]), 0
    elif len(wb):
        best, best_j = top_other, 0
    if len(wa) and len(wb):  # the first route beside its best partner: a pair to beat
        w0 = int(wa[0])
        free = ((tb & ta[0]) == 0).all(axis=1) & (wb + w0 > best)
        hits = np.flatnonzero(free)
        if len(hits):
            j = int(hits[0])
            best, best_i, best_j = w0 + int(wb[j]), 0, j
    useful = len(wb)
    if len(wa):
        useful = int(np.count_nonzero(wb + int(wa[0]) > best))  # sorted: a prefix
    users = [0] * (WIDTH * ta.shape[1])  # per track key, the bitset of the partners using it
    for key, bits in track_users(tb[:useful]).items():
        users[key] = bits
    every = (1 << useful) - 1
    # A route's keys are ORed most used first, and its ORs stop once they cover the
    # window: a route with no free partner there (all but the few that raise the best) is
    # most often covered by a few keys (big-16104: 13 ORs a route instead of all its keys).
    order = np.argsort([-bits.bit_count() for bits in users], kind="stable")
    work = 0
    weights_b = wb[:useful].tolist()
    # Only routes that could make a pair above the best so far are read (a prefix).
    stop = int(np.count_nonzero(wa + (wa if same else top_other) > best))
    # A route whose track a heavier route had (the same masks) has that route's partners
    # and no heavier pairs: skipped, the pair found is the same.
    same_track = repeated(ta[:stop])
    weights_a = wa[:stop].tolist()
    pair_bound = PairBound(users, weights_b, every, head)
    lighter = [-w for w in weights_b]  # ascending: bisect finds the partners heavier than x
    # The partners a route may take and that could beat the best, [its first, limit), only
    # shrink as the scan goes (routes lighter, the best higher): once that window is 7/8
    # of the bitsets' width or less (``recut_eighths``), the bitsets are cut to it (one
    # shift per key), so the ORs cost about the window's width, not every partner's.
    off, width, cut, full = 0, useful, users, every
    # A block of routes at a time: their bounds, then the keys of those a bound spares.
    for lo in range(0, stop, key_rows):
        if weights_a[lo] + (weights_a[lo] if same else top_other) <= best:
            break  # no later route of the first train can make a better pair
        if cancel is not None and cancel.cancelled:
            raise Cancelled("pair scan")
        block = np.flatnonzero(~same_track[lo:lo + key_rows]) + lo
        got = pair_bound.track_bounds(wa[block], ta[block], best)
        kept = got > best  # the best only grows: the others are skipped anyway
        block, bounds = block[kept], got[kept].tolist()
        key_lists = _key_lists(ta[block], order)
        for n, i in enumerate(block.tolist()):
            weight = weights_a[i]
            if weight + (weight if same else top_other) <= best:
                return best, best_i, best_j  # nor any later route
            if bounds[n] <= best:
                continue  # no partner it may have can make a better pair
            keys = key_lists[n]
            work += 1  # the budget counts the ORs made, and one per route read
            if work > max_work:
                return None
            first_j = i if same else 0  # the second route no heavier: each pair once
            limit = bisect_left(lighter, weight - best)
            if limit <= first_j:
                continue  # no partner it may take could beat the best
            if (limit - first_j) * 8 <= width * recut_eighths:
                off, width = first_j, limit - first_j
                full = (1 << width) - 1
                cut = [(bits >> off) & full for bits in users]
            taken = 0
            for key in keys:
                taken |= cut[key]
                work += 1
                if taken == full:
                    break  # every partner in the window shares track with it
            if work > max_work:
                return None
            if taken == full:
                continue
            free_bits = (full ^ taken) >> (first_j - off)  # ``taken`` is within ``full``
            if free_bits:
                j = first_j + (free_bits & -free_bits).bit_length() - 1
                if weight + weights_b[j] > best:
                    best, best_i, best_j = weight + weights_b[j], i, j
    return best, best_i, best_j
