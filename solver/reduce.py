"""Graph reduction before modelling (DESIGN.md §3, last paragraph).

The smaller model is the fast one. Three sound reductions, each removing only
track that no legal route can use:

1. **Unreachable track.** Every route visits a station stop, so every node of a
   route can be walked to from a station along the route itself. A side-aware
   search from the stations keeps only what such walks can reach: it enters a
   junction on one side and leaves it by the other, and never walks *through* a
   ``route_end_only`` stop (it may stop there).
2. **Dead ends.** A junction with track on one side only cannot be passed (a
   route cannot end at a junction), so it and its segments go; repeatedly.
   Stops are kept whatever their degree: a stop of degree 1 is a valid end.
3. **Chains.** A junction with exactly one segment on each side is always
   passed straight through: its two segments become one *contracted* segment
   that remembers the original segments and junctions it stands for. A chain
   that closes on itself is a loop no route can use and is dropped.

The reduced graph may hold parallel segments between two nodes; the model
(``solver/model.py``) splits them for ``AddCircuit``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import NamedTuple

from route18xx.solver.errors import InvalidProblem
from route18xx.solver.problem import NodeIndex, RouteProblem, SegmentIndex


class ReducedSegment(NamedTuple):
    """A segment of the reduced graph, joining reduced nodes ``a`` and ``b``.

    ``originals`` are the original segment indices it replaces, in walking order
    from ``a`` to ``b``; ``junctions`` the original junction nodes contracted
    inside it, in the same order. ``side_a``/``side_b`` are junction sides at
    the ends (0 for a stop end). (A named tuple: made on every solve, and the
    cheapest immutable record to make.)
    """

    a: int
    b: int
    side_a: int
    side_b: int
    originals: tuple[SegmentIndex, ...]
    junctions: tuple[NodeIndex, ...]


@dataclass(frozen=True)
class ReducedGraph:
    """The reduced graph: reduced nodes ``0 .. stop_count-1`` are stops, the rest junctions.

    ``nodes[r]`` is the original node index of reduced node ``r``.
    """

    nodes: tuple[NodeIndex, ...]
    stop_count: int
    segments: tuple[ReducedSegment, ...]

    @property
    def node_count(self) -> int:
        return len(self.nodes)


class _Work:
    """A mutable segment while reducing (same fields as ``ReducedSegment``)."""

    __slots__ = ("a", "b", "side_a", "side_b", "originals", "junctions")

    def __init__(
        self,
        a: int,
        b: int,
        side_a: int,
        side_b: int,
        originals: tuple[int, ...],
        junctions: tuple[int, ...],
    ) -> None:
        self.a, self.b, self.side_a, self.side_b = a, b, side_a, side_b
        self.originals, self.junctions = originals, junctions


def _checked_ends(problem: RouteProblem) -> list[tuple[int, int, int, int] | None]:
    """Validate stops and segments; stop ends get side 0. Loops (a == b) and
    forbidden track (``RouteProblem.forbidden_*``) become None.

    Distance costs must not be negative: walks are cut as soon as they are too long.
    """
    n, n_stops = problem.node_count, len(problem.stops)
    for s, stop in enumerate(problem.stops):
        if stop.distance_cost < 0:
            raise InvalidProblem(f"stops[{s}]: distance_cost {stop.distance_cost} is negative")
    forbidden = problem.forbidden_segments or problem.forbidden_junctions
    ends: list[tuple[int, int, int, int] | None] = []
    for i, seg in enumerate(problem.segments):
        a, b, sa, sb = seg.a, seg.b, seg.side_a, seg.side_b
        # Fast path for well-formed ends; anything else is checked (and reported) in order.
        if 0 <= a < n_stops:
            sa = 0
        elif not (n_stops <= a < n and sa in (0, 1)):
            _check_end(i, a, sa, n, n_stops)
        if 0 <= b < n_stops:
            sb = 0
        elif not (n_stops <= b < n and sb in (0, 1)):
            _check_end(i, a, seg.side_a, n, n_stops)
            _check_end(i, b, sb, n, n_stops)
        unusable = a == b or (forbidden and problem.is_forbidden(i))
        ends.append(None if unusable else (a, b, sa, sb))
    return ends


def _check_end(i: int, node: int, side: int, n: int, n_stops: int) -> None:
    """Raise ``InvalidProblem`` for a segment end that does not exist or lacks a side."""
    if not 0 <= node < n:
        raise InvalidProblem(f"segments[{i}]: node {node} does not exist")
    if node >= n_stops and side not in (0, 1):
        raise InvalidProblem(f"segments[{i}]: junction end {node} needs side 0 or 1, got {side}")


def _reachable_segments(
    problem: RouteProblem, ends: list[tuple[int, int, int, int] | None]
) -> list[int]:
    """Reduction 1: segments a walk from a station can use (side-aware search)."""
    n, n_stops = problem.node_count, len(problem.stops)
    incident: list[tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]] = [
        ([], []) for _ in range(n)
    ]
    for i, e in enumerate(ends):
        if e is not None:
            a, b, sa, sb = e
            incident[a][sa].append((i, b, sb))
            incident[b][sb].append((i, a, sa))
    stops = problem.stops
    reached = [[False, False] for _ in range(n)]
    queue: deque[tuple[int, int]] = deque()
    for s, stop in enumerate(stops):
        if stop.station:
            reached[s][0] = True
            queue.append((s, 0))
    used: list[int] = []
    seen_seg = [False] * len(ends)
    while queue:
        node, side = queue.popleft()
        if node < n_stops:
            stop = stops[node]
            if stop.route_end_only and not stop.station:
                continue  # may end here, may not pass through
            out = incident[node][0]
        else:
            out = incident[node][1 - side]
        for seg, other, other_side in out:
            if not seen_seg[seg]:
                seen_seg[seg] = True
                used.append(seg)
            if not reached[other][other_side]:
                reached[other][other_side] = True
                queue.append((other, other_side))
    return used


def reduce_problem(problem: RouteProblem) -> ReducedGraph:
    """Apply the three reductions of the module docstring and renumber the nodes.

    >>> from route18xx.solver.problem import Stop, Segment, Train
    >>> p = RouteProblem(stops=(Stop("A", 10, station=True), Stop("B", 20)),
    ...     junctions=(), segments=(Segment(0, 1, -1, -1, "ab"),), trains=(Train("2", 2),))
    >>> g = reduce_problem(p)
    >>> g.nodes, [s.originals for s in g.segments]
    ((0, 1), [(0,)])
    """
    n_stops = len(problem.stops)
    ends = _checked_ends(problem)
    segs: dict[int, _Work] = {}
    # Per node, the segments on its side 0 and side 1; None once the node is gone.
    incident: list[tuple[set[int], set[int]] | None] = [None] * problem.node_count
    for i in sorted(_reachable_segments(problem, ends)):
        e = ends[i]
        assert e is not None
        a, b, sa, sb = e
        segs[i] = _Work(a, b, sa, sb, (i,), ())
        at_a = incident[a]
        if at_a is None:
            at_a = incident[a] = (set(), set())
        at_a[sa].add(i)
        at_b = incident[b]
        if at_b is None:
            at_b = incident[b] = (set(), set())
        at_b[sb].add(i)
    next_id = len(problem.segments)

    def sides(node: int) -> tuple[set[int], set[int]]:
        at = incident[node]
        assert at is not None  # a segment's ends are present
        return at

    def detach(seg_id: int) -> _Work:
        w = segs.pop(seg_id)
        sides(w.a)[w.side_a].discard(seg_id)
        sides(w.b)[w.side_b].discard(seg_id)
        return w

    work = deque(p for p in range(n_stops, problem.node_count) if incident[p] is not None)
    while work:
        p = work.popleft()
        at_p = incident[p]
        if at_p is None:
            continue
        side0, side1 = at_p
        if not side0 or not side1:  # reduction 2: dead end
            for seg_id in sorted(side0 | side1):
                w = detach(seg_id)
                other = w.b if w.a == p else w.a
                if other >= n_stops:
                    work.append(other)
            incident[p] = None
        elif len(side0) == 1 and len(side1) == 1:  # reduction 3: chain
            w1, w2 = detach(next(iter(side0))), detach(next(iter(side1)))
            incident[p] = None
            # Orient w1 as x -> p and w2 as p -> y.
            if w1.a == p:
                x, sx, o1, j1 = w1.b, w1.side_b, w1.originals[::-1], w1.junctions[::-1]
            else:
                x, sx, o1, j1 = w1.a, w1.side_a, w1.originals, w1.junctions
            if w2.a == p:
                y, sy, o2, j2 = w2.b, w2.side_b, w2.originals, w2.junctions
            else:
                y, sy, o2, j2 = w2.a, w2.side_a, w2.originals[::-1], w2.junctions[::-1]
            if x == y:  # a loop back to x: unusable
                if x >= n_stops:
                    work.append(x)
                continue
            segs[next_id] = _Work(x, y, sx, sy, o1 + o2, j1 + (p,) + j2)
            sides(x)[sx].add(next_id)
            sides(y)[sy].add(next_id)
            next_id += 1

    keep_lonely = problem.min_stops <= 1  # a one-stop route needs no track
    kept_stops = [
        s
        for s, at in enumerate(incident[:n_stops])
        if (at is not None and (at[0] or at[1])) or (keep_lonely and problem.stops[s].station)
    ]
    kept_junctions = [p for p in range(n_stops, problem.node_count) if incident[p] is not None]
    nodes = tuple(kept_stops + kept_junctions)
    new_index = {old: new for new, old in enumerate(nodes)}
    reduced = tuple(
        ReducedSegment(new_index[w.a], new_index[w.b], w.side_a, w.side_b, w.originals, w.junctions)
        for w in segs.values()
    )
    return ReducedGraph(nodes=nodes, stop_count=len(kept_stops), segments=reduced)


__all__ = ["ReducedGraph", "ReducedSegment", "reduce_problem"]
