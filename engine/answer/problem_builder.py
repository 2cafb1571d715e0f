"""Turning a 1888 board into the solver's game-agnostic ``RouteProblem`` (DESIGN.md §3).

Only what the company reaches is handed over (``engine.network.reach``):

* every reached city, town and off-board is a stop, priced for the phase
  (ROUTES.md §4); the harbour costs no distance (its ``visit_cost`` is 0);
  off-boards, cities full of other companies' tokens and terminal track
  (A19) make a stop ``route_end_only`` (ROUTES.md §3.4, §3.8);
* every hex side with track on both sides is a junction — the solver lets one
  train use it (ROUTES.md §3.7); side 0 / side 1 are its two hexes;
* every tile path is a segment labelled ``"<hex>:<path index>"``;
* the destination bonus is a pair bonus (home hex, destination hex) (§5.2),
  the mine subsidy a stop subsidy (§5.3), Baotou a group (§3.3);
* a train that earns its own value at some stops (18xx.games ``route_base_revenue``: a
  D earns 1889's off-boards' diesel value; ``GameData.train_stop_values``) carries those
  values as ``Train.stop_values``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable, Sequence, TypeAlias

from route18xx.engine.board.arrivals import Arrival, HexSide
from route18xx.engine.board.board import EdgeKey, NodeId, node_id
from route18xx.engine.facts.gamedata import Color, GameData, HexId, TrainDef
from route18xx.engine.board.network import walk
from route18xx.engine.routes.revenue import route_bonuses, stop_subsidy
from route18xx.engine.inputs.state_file import RouteState
from route18xx.solver import NO_SIDE, Junction, PairBonus, RouteProblem, Segment, Stop, Train


@dataclass(frozen=True)
class BuiltProblem:
    """The solver problem plus what the engine needs to read its answer back."""

    problem: RouteProblem
    stop_ids: tuple[NodeId, ...]
    #: segment index → (hex, path index on that hex's tile)
    segment_paths: tuple[tuple[HexId, int], ...]
    #: each junction's hex side, junction by junction (the first junction is node
    #: ``len(problem.stops)``)
    sides: tuple[HexSide, ...] = ()
    #: revenue column → (stop, value) where a train earning that column earns other than
    #: the stop's ``value`` (``Train.stop_values``; empty in a title without them)
    column_values: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()

    def train(self, train: TrainDef, data: GameData) -> Train:
        """The solver's train for ``train``, with its own stop values (``column_values``)."""
        return solver_train(train, data, self.column_values)

    @cached_property
    def edge_junctions(self) -> tuple[tuple[EdgeKey, int], ...]:
        """(hex, edge) → junction node, for both sides of every junction, junction by
        junction. Only ``without_track`` reads it (routes fixed beforehand), so it is
        worked out then, not for every problem (issue 21)."""
        first = len(self.problem.stops)
        return tuple(
            pair
            for j, side in enumerate(self.sides, first)
            for pair in ((side.low, j), (side.high, j))
        )

    def without_track(
        self,
        edge_keys: Iterable[EdgeKey],
        paths: Iterable[tuple[HexId, int]],
        trains: Sequence[TrainDef] | None = None,
        data: GameData | None = None,
    ) -> RouteProblem:
        """The problem with the hex sides ``edge_keys`` and tile ``paths`` taken
        (ROUTES.md §3.7: routes fixed beforehand use them), optionally other trains.

        The taken track reaches the solver as data: forbidden junctions and
        segments; the board is not rebuilt. ``trains`` come with ``data``, the title's
        facts, which say where a train earns its own values (``solver_train``).
        """
        junctions = dict(self.edge_junctions)
        taken_paths = set(paths)
        problem = self.problem
        if trains is not None and data is None:
            raise TypeError("without_track: other trains need the title's data")
        new_trains = problem.trains if trains is None or data is None else tuple(
            self.train(t, data) for t in trains
        )
        taken_junctions = frozenset(junctions[k] for k in edge_keys if k in junctions)
        taken_segments = frozenset(
            i for i, p in enumerate(self.segment_paths) if p in taken_paths
        ) if taken_paths else frozenset()
        if new_trains == problem.trains and taken_junctions <= problem.forbidden_junctions \
                and taken_segments <= problem.forbidden_segments:
            return problem  # nothing taken: the very problem (the solver's caches key on it)
        return replace(
            problem,
            trains=new_trains,
            forbidden_junctions=problem.forbidden_junctions | taken_junctions,
            forbidden_segments=problem.forbidden_segments | taken_segments,
        )


def build_problem(state: RouteState) -> BuiltProblem:
    """The RouteProblem of ``state``'s company on ``state``'s board.

    Read off one walk of the company's network (``engine.network.walk``): its
    nodes are the stops, the hex sides it crossed the junctions, its paths with
    both ends there the segments. Stops, junctions and segments are listed in
    the order of their board keys (the problem is the same for the same board).
    """
    board = state.board
    corp = state.corporation
    found = walk(board, corp.sym)
    walked = found.in_order()
    blocked = found.blocked
    tiles = board.arrivals
    tokens = board.tokens
    color = state.phase.revenue_color
    known = board.data.derived(_stops)
    stop_keys = sorted(found.nodes)
    # Both ends of every stop and junction by their ids (``BoardPath.end_ids``): a
    # segment's ends are looked up by strings whose hash is kept.
    ends: dict[str, tuple[int, int]] = {}
    stops: list[Stop] = []
    names: list[NodeId] = []
    group_members: dict[str, set[int]] = {}
    columns = sorted(set(board.data.train_stop_values.values()))
    column_values: dict[str, list[tuple[int, int]]] = {c: [] for c in columns}
    for i, key in enumerate(stop_keys):
        at_node = tiles[key[0]].at_node[key[1]]
        fact = (at_node, color, key in blocked, corp.sym in tokens.get(key, ()))
        stop, node_groups = known.get(fact) or _stop(known, fact, board.data)
        stops.append(stop)
        names.append(stop.name)
        ends[stop.name] = (i, NO_SIDE)
        for g in node_groups:
            group_members.setdefault(g, set()).add(i)
        for column in columns:  # a D's diesel value (``revenue.stop_value``)
            node = at_node.node
            assert node is not None
            own = node.value_for_train(color, column)
            if own != stop.value:
                column_values[column].append((i, own))

    # A crossing is listed by its smaller end: sorted, the junctions come in the order
    # of their smaller end, side 0 that end (ROUTES.md §3.7).
    sides = found.crossings()
    junctions: list[Junction] = []
    for j, side in enumerate(sides, len(stops)):
        junctions.append(_JUNCTIONS.get(side.name) or _junction(side.name))
        ends[side.low_id] = (j, 0)
        ends[side.high_id] = (j, 1)

    segments: list[Segment] = []
    segment_paths: list[tuple[HexId, int]] = []
    for path in walked:
        id_1, id_2 = path.end_ids
        end_1 = ends.get(id_1)
        end_2 = ends.get(id_2)
        if end_1 is None or end_2 is None:
            continue  # track ending at a side with no track beyond it
        segments.append(Segment(end_1[0], end_2[0], end_1[1], end_2[1], path.label))
        segment_paths.append(path.key)

    pairs: list[PairBonus] = []
    for rule in route_bonuses(state):  # §5.2, and the title's own
        first = frozenset(i for i, (h, _) in enumerate(stop_keys) if h in rule.first)
        second = frozenset(i for i, (h, _) in enumerate(stop_keys) if h in rule.second)
        if first and second:
            pairs.append(PairBonus(rule.value, first, second))
    bonuses = tuple(pairs)

    groups = tuple(frozenset(m) for _, m in sorted(group_members.items()) if len(m) > 1)

    by_column = tuple((c, tuple(v)) for c, v in column_values.items())
    trains = tuple(solver_train(t, board.data, by_column) for t in state.trains)
    problem = RouteProblem(
        stops=tuple(stops),
        junctions=tuple(junctions),
        segments=tuple(segments),
        trains=trains,
        groups=groups,
        bonuses=bonuses,
    )
    return BuiltProblem(problem, tuple(names), tuple(segment_paths), tuple(sides), by_column)


def solver_train(
    train: TrainDef, data: GameData,
    column_values: tuple[tuple[str, tuple[tuple[int, int], ...]], ...],
) -> Train:
    """The solver's ``Train`` for ``train``: its distance, and the stops where it earns its
    own value (``Train.stop_values``: a D at 1889's off-boards, the column its name has in
    ``GameData.train_stop_values``)."""
    column = data.stop_column(train.name)
    own = dict(column_values).get(column, ()) if column is not None else ()
    return Train(train.name, train.distance, own)


#: A hex side's name → its junction: a fact of the map.
_JUNCTIONS: dict[str, Junction] = {}


def _junction(name: str) -> Junction:
    """The junction of the hex side ``name``, ``C9/4|C11/1`` (ROUTES.md §3.7)."""
    junction = _JUNCTIONS.get(name)
    if junction is None:
        junction = _JUNCTIONS[name] = Junction(name)
    return junction


#: What prices a stop: the node as laid (its ``Arrival``), the phase's colour, whether
#: the node blocks the company (ROUTES.md §3.8), whether the company has a station there.
_StopFact: TypeAlias = tuple[Arrival, Color, bool, bool]


def _stops(data: GameData) -> dict[_StopFact, tuple[Stop, tuple[str, ...]]]:
    """``_StopFact`` → (its stop, the node's groups), filled as asked (``_stop``): a stop
    is a fact of the game data, made once per process (issue 21: pricing the ~9 stops of
    a board from scratch was a fifth of ``build_problem``)."""
    return {}


def _stop(
    known: dict[_StopFact, tuple[Stop, tuple[str, ...]]], fact: _StopFact, data: GameData
) -> tuple[Stop, tuple[str, ...]]:
    """The stop of ``fact`` and its node's groups, kept in ``known``. A node the walk
    reached and did not stop at had all its paths taken, so it is on terminal track when
    its tile has terminal track there (``Arrival.terminal``, ROUTES.md §3.4)."""
    arrival, color, blocked, station = fact
    node, key = arrival.node, arrival.node_key
    assert node is not None and key is not None  # a node's arrival
    stop = Stop(
        node_id(*key),
        node.value_for(color),  # ROUTES.md §4.1, as revenue.stop_value
        node.visit_cost,
        blocked or arrival.terminal,
        stop_subsidy(key[0], data),
        station,
    )
    found = known[fact] = (stop, node.groups)
    return found
