"""The game-agnostic route problem: what the solver is given (DESIGN.md §3).

The solver never sees a hex or a tile. A game engine describes its track as a
graph of two kinds of nodes:

* **stops** — revenue centres (cities, towns, off-boards). Every stop a route
  touches is a stop it visits: a route cannot pass *through* a stop.
* **junctions** — places where two pieces of track meet without a stop (an
  18xx hex side). A junction has two *sides* (0 and 1); a route that passes a
  junction enters on one side and leaves on the other (it cannot turn back on
  the side it came from), and across all of a company's trains each junction
  carries at most one route (18xx: "each hex side is used by one train").

**Segments** join two nodes (a stop or a junction side at each end). A route is
a simple walk stop → segments/junctions → stop → … → stop that starts and ends
at stops and visits every node at most once.

Node numbering: stops are nodes ``0 .. len(stops)-1``; junction ``j`` is node
``len(stops) + j``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeAlias

from route18xx.solver.runtime.derived import content_hash, without_hash

NodeIndex: TypeAlias = int
StopIndex: TypeAlias = int
SegmentIndex: TypeAlias = int

#: Side marker for a segment end that is a stop (stops have no sides).
NO_SIDE = -1


@dataclass(frozen=True)
class Stop:
    """A revenue centre a route may visit.

    ``value``: revenue when visited. ``distance_cost``: how much of the train's
    distance a visit uses (0 for a free stop such as 1888's harbour).
    ``route_end_only``: the stop may only be the first or last of a route
    (off-boards, terminal cities, cities blocked by other companies' tokens).
    ``subsidy``: money paid outside revenue when a route visits it (1888's mine).
    ``station``: the company has a station token here; every route needs one.
    """

    name: str
    value: int
    distance_cost: int = 1
    route_end_only: bool = False
    subsidy: int = 0
    station: bool = False


@dataclass(frozen=True)
class Junction:
    """A meeting point of track with two sides and no stop (an 18xx hex side)."""

    name: str


@dataclass(frozen=True)
class Segment:
    """A piece of track joining node ``a`` and node ``b``.

    ``side_a`` / ``side_b`` are the junction sides (0 or 1) the segment meets
    at each end, or ``NO_SIDE`` where the end is a stop. ``label`` is opaque to
    the solver; the engine uses it to rebuild the route (e.g. a tile path id).
    """

    a: NodeIndex
    b: NodeIndex
    side_a: int
    side_b: int
    label: str


@dataclass(frozen=True)
class Train:
    """A train: ``distance`` is the most distance cost it may visit; None = unlimited.

    ``stop_values``: what this train earns at some stops instead of their ``value``, as
    (stop, value) pairs (a stop's value by train type: 1889's off-boards pay a D their
    diesel value). Trains with the same distance and the same ``stop_values`` are
    interchangeable.
    """

    name: str
    distance: int | None
    stop_values: tuple[tuple[StopIndex, int], ...] = ()


@dataclass(frozen=True)
class PairBonus:
    """A bonus a route earns once if it visits a stop of ``first`` and a stop of ``second``.

    1888's destination bonus: home hex and destination hex on one route.
    """

    value: int
    first: frozenset[StopIndex]
    second: frozenset[StopIndex]


@dataclass(frozen=True)
class RouteProblem:
    """Everything the solver needs: one route per train, track used once."""

    stops: tuple[Stop, ...]
    junctions: tuple[Junction, ...]
    segments: tuple[Segment, ...]
    trains: tuple[Train, ...]
    #: Each group: a route may visit at most one of these stops (18xx off-board areas).
    groups: tuple[frozenset[StopIndex], ...] = ()
    bonuses: tuple[PairBonus, ...] = ()
    #: Minimum number of stops on a non-empty route.
    min_stops: int = 2
    #: Junctions no route may pass and segments no route may use: track already
    #: taken (e.g. by routes a caller fixed beforehand). Plain data; the
    #: reduction drops them before modelling, so every method honours them.
    forbidden_junctions: frozenset[NodeIndex] = frozenset()
    forbidden_segments: frozenset[SegmentIndex] = frozenset()

    def __hash__(self) -> int:
        """The content's hash, once per problem (caches key on problems: solver/runtime/derived.py)."""
        return content_hash(self, self._content)

    def _content(self) -> tuple[Any, ...]:
        """The fields, the stops, junctions and segments as their own fields' tuples: each
        read in C, where their dataclasses' ``__hash__`` is a Python call apiece (issue 21:
        a first-seen problem's hash 20.1 → 14.5 µs, mean of the 131 problems of the 123 real
        states' first-seen answers). Equal problems have equal fields, so equal tuples."""
        return (tuple(map(_STOP_FIELDS, self.stops)),
                tuple(map(_JUNCTION_FIELDS, self.junctions)),
                tuple(map(_SEGMENT_FIELDS, self.segments))) + _OTHER_FIELDS(self)

    def __getstate__(self) -> dict[str, Any]:
        return without_hash(self)

    def is_forbidden(self, segment: SegmentIndex) -> bool:
        """Whether segment ``segment`` is unusable (forbidden, or ends at a forbidden junction)."""
        if segment in self.forbidden_segments:
            return True
        seg = self.segments[segment]
        return seg.a in self.forbidden_junctions or seg.b in self.forbidden_junctions

    @property
    def node_count(self) -> int:
        return len(self.stops) + len(self.junctions)

    def values_of(self, train: int) -> list[int]:
        """Per stop, what train ``train`` earns there: its ``value``, or the train's own
        (``Train.stop_values``)."""
        values = [stop.value for stop in self.stops]
        for stop, value in self.trains[train].stop_values:
            values[stop] = value
        return values

    def is_stop(self, node: NodeIndex) -> bool:
        return node < len(self.stops)


#: ``RouteProblem._content``'s readers: a stop's, a junction's and a segment's fields, and
#: the problem's fields after those three.
_STOP_FIELDS = attrgetter(*(f.name for f in fields(Stop)))
_JUNCTION_FIELDS = attrgetter(*(f.name for f in fields(Junction)))
_SEGMENT_FIELDS = attrgetter(*(f.name for f in fields(Segment)))
_OTHER_FIELDS = attrgetter(*(f.name for f in fields(RouteProblem)
                             if f.name not in ("stops", "junctions", "segments")))


@dataclass(frozen=True)
class RouteResult:
    """One train's route: stops in route order and the segments between them, in order.

    ``segments`` lists every original segment walked, in walking order, from
    ``stops[0]`` to ``stops[-1]``; ``junctions`` the junctions passed, in order.
    """

    train: int
    stops: tuple[StopIndex, ...]
    segments: tuple[SegmentIndex, ...]
    revenue: int
    subsidy: int
    bonus: int


@dataclass(frozen=True)
class SolveStats:
    """Measurements of one solve: sizes before/after reduction, CP-SAT's work and times in ms.

    The one declaration of an answer's ``stats`` (issue 32 item 4): its keys are these
    fields' names, in this order (the engine's ``AnswerStats`` adds the answer's ``solves``;
    the service's ``SolveStats`` message names the same fields).
    """

    nodes_before: int = 0
    segments_before: int = 0
    nodes_after: int = 0
    segments_after: int = 0
    arcs: int = 0
    variables: int = 0
    constraints: int = 0
    #: CP-SAT's branches and conflicts, summed over its stages: the same for the same
    #: request under any load (issue 21); 0 when no search was needed
    branches: int = 0
    conflicts: int = 0
    reduce_ms: float = 0.0
    build_ms: float = 0.0
    #: the search's time (CP-SAT's, or the listing's)
    solver_ms: float = 0.0


@dataclass(frozen=True)
class Solution:
    """The answer: one entry per train that runs (trains without a route are omitted).

    ``status`` is ``OPTIMAL`` (proven), ``FEASIBLE`` (best found, not proven; then
    ``bound`` is an upper bound on the objective) or ``UNKNOWN`` (nothing found in
    time). ``objective`` is the optimised value (see ``Objective``).
    """

    routes: tuple[RouteResult, ...]
    revenue: int
    subsidy: int
    status: str
    objective: int
    bound: int
    stats: SolveStats = field(default_factory=SolveStats)
    #: routes listed for limited trains (``solver/listing/routes.py``); 0 if all are circuits
    listed_routes: int = 0
