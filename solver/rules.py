"""The route rules, written once (ROUTES.md; DESIGN.md §3; issue 33 item 1).

What one train's route may do, as ``solver/problem.py`` describes the track:

* **a node once**: a route visits every stop and junction at most once;
* **the junction rule**: a junction entered on one side is left by its other side
  (``side_left``): no U-turn where two pieces of track meet at one hex edge, the
  reversing junction 18xx.games' route checker refuses;
* **route-end-only stops**: a ``route_end_only`` stop may start or end a route, never
  be passed (``StopRules.ends_only``);
* **one stop per group**: a route visits at most one stop of each group
  (``StopRules.group_mask``: a bit per group);
* **a station**: a route visits a stop with the company's station
  (``StopRules.stations``);
* **minimum stops**: a route visits at least ``min_stops`` stops, and at least one
  (``StopRules.need``);
* **distance**: the visited stops' ``distance_cost`` sum to at most the train's
  distance (``StopRules.costs``).

Every walk of the solver (the listings of ``solver/listing/``, the reductions' reach in
``solver/graph/reduce.py``) reads these rules from here: the ways on from a node
(``leaving``, which applies the junction rule) and the stops' facts (``stop_rules``).
A walk restates a rule only as an inlined test of these facts, for speed; the
conformance test (``tests/solver/test_walk_conformance.py``) checks every walk against
the brute force of ``solver/witnesses/bruteforce.py``, which shares nothing with this
module, on generated boards, and that changing the junction rule here is caught in every
walk. The circuit model states the same rules as constraints
(``solver/model/constraints.py``) and is checked against the same witness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol, TypeAlias

from route18xx.solver.problem import Stop


def side_left(side_entered: int) -> int:
    """The junction rule: a junction entered on side ``side_entered`` is left by the other
    side (ROUTES.md: a route cannot turn back where two track pieces meet at one edge)."""
    return 1 - side_entered


#: Per node, each way out: (other end, side here, side there, step, track key) with
#: step = (segment, walked a→b) and track key = node_count + segment.
Exit: TypeAlias = tuple[int, int, int, tuple[int, bool], int]
Exits: TypeAlias = list[list[Exit]]


class Track(Protocol):
    """A piece of track between nodes ``a`` and ``b`` and the junction sides it meets
    (``Segment``, or the reduced graph's ``ReducedSegment``)."""

    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def side_a(self) -> int: ...
    @property
    def side_b(self) -> int: ...


def exits_of(node_count: int, segments: Iterable[Track]) -> Exits:
    """Per node, its ways out in segment order: each segment is a way out of ``a`` and a
    way out of ``b`` (the reduced graph gives a stop end side 0)."""
    adjacent: Exits = [[] for _ in range(node_count)]
    for i, segment in enumerate(segments):
        a, b, side_a, side_b = segment.a, segment.b, segment.side_a, segment.side_b
        adjacent[a].append((b, side_a, side_b, (i, True), node_count + i))
        adjacent[b].append((a, side_b, side_a, (i, False), node_count + i))
    return adjacent


def leaving(stop_count: int, adjacent: Exits) -> list[tuple[list[Exit], list[Exit]]]:
    """Per node, the ways on after entering it on side 0 or on side 1.

    A stop is left by any of its ways (it has no sides); a junction by the ways on the
    side ``side_left`` names (the junction rule).
    """
    return [(exits, exits) if node < stop_count
            else ([e for e in exits if e[1] == side_left(0)],
                  [e for e in exits if e[1] == side_left(1)])
            for node, exits in enumerate(adjacent)]


def group_masks(stop_count: int, groups: Iterable[Iterable[int]]) -> list[int]:
    """Per stop, a bit for each group it belongs to (a route visits one stop per group)."""
    masks = [0] * stop_count
    for g, group in enumerate(groups):
        for s in group:
            masks[s] |= 1 << g
    return masks


class StopRules(NamedTuple):
    """The stops' facts every walk reads, per stop: the rules of the module docstring."""

    costs: list[int]
    stations: list[int]
    ends_only: list[bool]
    group_mask: list[int]
    #: the fewest stops of a route: ``min_stops``, and never fewer than one
    need: int

    def completes(self, stop_count: int, station_count: int) -> bool:
        """Whether a walk of ``stop_count`` stops, ``station_count`` of them with a
        station, is a route (minimum stops; a station)."""
        return stop_count >= self.need and station_count > 0


def stop_rules(stops: Sequence[Stop], min_stops: int, groups: Iterable[Iterable[int]]) -> StopRules:
    """The ``StopRules`` of these stops (reduced or original numbering alike)."""
    return StopRules([stop.distance_cost for stop in stops], [int(stop.station) for stop in stops],
                     [stop.route_end_only for stop in stops], group_masks(len(stops), groups),
                     max(min_stops, 1))
