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
(``solver/model/model.py``) splits them for ``AddCircuit``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple, TypeAlias

from route18xx.solver.runtime.derived import content_hash, without_hash
from route18xx.solver.errors import InvalidProblem
from route18xx.solver.problem import NodeIndex, RouteProblem, SegmentIndex
from route18xx.solver import rules as route_rules


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

    def __hash__(self) -> int:
        """The content's hash, once per graph (a cache key: solver/runtime/derived.py)."""
        return content_hash(self)

    def __getstate__(self) -> dict[str, Any]:
        return without_hash(self)

    @property
    def node_count(self) -> int:
        return len(self.nodes)


#: A segment while reducing, in original node numbers: the fields of ``ReducedSegment``
#: (a plain tuple: hundreds are made per solve).
_Work: TypeAlias = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]


#: A ``ReducedSegment`` made from its fields' tuple: the named tuple's own ``__new__`` is
#: a Python call more (issue 21: the reduced segments of a problem 4.0 → 2.7 µs, 12 made).
_new = tuple.__new__

#: A segment's ends and sides, read in one call per segment.
_ENDS = attrgetter("a", "b", "side_a", "side_b")


def _checked_ends(problem: RouteProblem) -> list[tuple[int, int, int, int] | None]:
    """Validate stops and segments; stop ends get side 0. Loops (a == b) and
    forbidden track (``RouteProblem.forbidden_*``) become None.

    Distance costs must not be negative: walks are cut as soon as they are too long.
    """
    n, n_stops = problem.node_count, len(problem.stops)
    for s, stop in enumerate(problem.stops):
        if stop.distance_cost < 0:
            raise InvalidProblem(f"stops[{s}]: distance_cost {stop.distance_cost} is negative")
    for k, train in enumerate(problem.trains):
        for stop_index, _ in train.stop_values:
            if not 0 <= stop_index < n_stops:
                raise InvalidProblem(f"trains[{k}].stop_values: stop {stop_index} does not exist")
    forbidden = problem.forbidden_segments or problem.forbidden_junctions
    ends: list[tuple[int, int, int, int] | None] = []
    for i, (a, b, sa, sb) in enumerate(map(_ENDS, problem.segments)):
        # Fast path for well-formed ends; anything else is checked (and reported) in order.
        if 0 <= a < n_stops:
            sa = 0
        elif not (n_stops <= a < n and sa in (0, 1)):
            _check_end(i, a, sa, n, n_stops)
        if 0 <= b < n_stops:
            sb = 0
        elif not (n_stops <= b < n and sb in (0, 1)):
            _check_end(i, a, sa, n, n_stops)  # a's side as given, or 0 for a stop: no error
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


def _incidence(n: int, ends: list[tuple[int, int, int, int] | None]) -> list[list[int]]:
    """Per node side (entry ``2 * node + side``), its usable segments in index order."""
    incident: list[list[int]] = [[] for _ in range(2 * n)]
    for i, e in enumerate(ends):
        if e is not None:
            a, b, sa, sb = e
            incident[2 * a + sa].append(i)
            incident[2 * b + sb].append(i)
    return incident


def _reachable_segments(
    problem: RouteProblem, ends: list[tuple[int, int, int, int] | None],
    incident: list[list[int]] | None = None,
) -> bytearray:
    """Reduction 1: per segment, whether a walk from a station can use it (side-aware
    search over node sides, ``incident`` as ``_incidence`` makes it)."""
    n_stops = len(problem.stops)
    if incident is None:
        incident = _incidence(problem.node_count, ends)
    stops = problem.stops
    reached = bytearray(2 * problem.node_count)
    todo = []  # node sides reached, not yet left: any order finds the same segments
    for s, stop in enumerate(stops):
        if stop.station:
            reached[2 * s] = 1
            todo.append(2 * s)
    used = bytearray(len(ends))
    while todo:
        here = todo.pop()
        node = here >> 1
        if node < n_stops:
            stop = stops[node]
            if stop.route_end_only and not stop.station:
                continue  # may end here, may not pass through
            leave = here
        else:
            leave = here - (here & 1) + route_rules.side_left(here & 1)  # the junction rule
        for seg in incident[leave]:
            used[seg] = 1
            a, b, sa, sb = ends[seg]  # type: ignore[misc]  # incident: usable ones only
            there = 2 * b + sb if 2 * a + sa == leave else 2 * a + sa
            if not reached[there]:
                reached[there] = 1
                todo.append(there)
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
    n_stops, n = len(problem.stops), problem.node_count
    ends = _checked_ends(problem)
    segs: dict[int, _Work] = {}
    # Per node side (entry 2 * node + side), its segments (in no order that matters: a dead
    # end's are sorted); ``present`` while the node has track.
    incident = _incidence(n, ends)
    present = bytearray(n)
    for i, usable in enumerate(_reachable_segments(problem, ends, incident)):
        e = ends[i]
        if e is None:
            continue
        a, b, sa, sb = e
        if usable:
            segs[i] = (a, b, sa, sb, (i,), ())
            present[a] = present[b] = 1
        else:
            incident[2 * a + sa].remove(i)
            incident[2 * b + sb].remove(i)
    next_id = len(problem.segments)

    # Reductions 2 and 3 junction by junction (written flat: ~30 chains a board; a
    # segment taken out leaves its two sides' lists).
    work = deque(p for p in range(n_stops, n) if present[p])
    pop = segs.pop
    while work:
        p = work.popleft()
        if not present[p]:
            continue
        side0, side1 = incident[2 * p], incident[2 * p + 1]
        if not side0 or not side1:  # reduction 2: dead end
            for seg_id in sorted(side0 + side1):
                a, b, sa, sb, _, _ = pop(seg_id)
                incident[2 * a + sa].remove(seg_id)
                incident[2 * b + sb].remove(seg_id)
                other = b if a == p else a
                if other >= n_stops:
                    work.append(other)
            present[p] = 0
        elif len(side0) == 1 and len(side1) == 1:  # reduction 3: chain
            id1, id2 = side0.pop(), side1.pop()
            a1, b1, sa1, sb1, o1, j1 = pop(id1)
            a2, b2, sa2, sb2, o2, j2 = pop(id2)
            present[p] = 0
            # Orient the first as x -> p and the second as p -> y (and drop each from its
            # other end's side: p's own sides were emptied above).
            if a1 == p:
                x, sx, o1, j1 = b1, sb1, o1[::-1], j1[::-1]
            else:
                x, sx = a1, sa1
            if a2 == p:
                y, sy = b2, sb2
            else:
                y, sy, o2, j2 = a2, sa2, o2[::-1], j2[::-1]
            if x == y:  # a loop back to x: unusable
                incident[2 * x + sx].remove(id1)
                incident[2 * y + sy].remove(id2)
                if x >= n_stops:
                    work.append(x)
                continue
            segs[next_id] = (x, y, sx, sy, o1 + o2, j1 + (p,) + j2)
            side = incident[2 * x + sx]
            side[side.index(id1)] = next_id
            side = incident[2 * y + sy]
            side[side.index(id2)] = next_id
            next_id += 1

    keep_lonely = problem.min_stops <= 1  # a one-stop route needs no track
    kept_stops = [
        s
        for s in range(n_stops)
        if (present[s] and (incident[2 * s] or incident[2 * s + 1]))
        or (keep_lonely and problem.stops[s].station)
    ]
    kept_junctions = [p for p in range(n_stops, n) if present[p]]
    nodes = tuple(kept_stops + kept_junctions)
    new_index = [0] * n
    for new, old in enumerate(nodes):
        new_index[old] = new
    reduced = tuple([
        _new(ReducedSegment, (new_index[a], new_index[b], sa, sb, originals, junctions))
        for a, b, sa, sb, originals, junctions in segs.values()
    ])
    return ReducedGraph(nodes=nodes, stop_count=len(kept_stops), segments=reduced)


__all__ = ["ReducedGraph", "ReducedSegment", "reduce_problem"]
