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
  the mine subsidy a stop subsidy (§5.3), Baotou a group (§3.3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from route18xx.engine.board import NODE_IDS, BoardPath, EdgeKey, NodeId, node_id
from route18xx.engine.gamedata import HexId, TrainDef
from route18xx.engine.network import walk
from route18xx.engine.revenue import destination_rule, stop_subsidy
from route18xx.engine.state_file import RouteState
from route18xx.solver import NO_SIDE, Junction, PairBonus, RouteProblem, Segment, Stop, Train


@dataclass(frozen=True)
class BuiltProblem:
    """The solver problem plus what the engine needs to read its answer back."""

    problem: RouteProblem
    stop_ids: tuple[NodeId, ...]
    #: segment index → (hex, path index on that hex's tile)
    segment_paths: tuple[tuple[HexId, int], ...]
    #: (hex, edge) → junction node, for both sides of every junction, junction by junction
    edge_junctions: tuple[tuple[EdgeKey, int], ...] = ()

    def without_track(
        self,
        edge_keys: Iterable[EdgeKey],
        paths: Iterable[tuple[HexId, int]],
        trains: Sequence[TrainDef] | None = None,
    ) -> RouteProblem:
        """The problem with the hex sides ``edge_keys`` and tile ``paths`` taken
        (ROUTES.md §3.7: routes fixed beforehand use them), optionally other trains.

        The taken track reaches the solver as data: forbidden junctions and
        segments; the board is not rebuilt.
        """
        junctions = dict(self.edge_junctions)
        taken_paths = set(paths)
        problem = self.problem
        new_trains = problem.trains if trains is None else tuple(
            Train(t.name, t.distance) for t in trains
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

    terminal_nodes = _terminal_nodes(walked)
    blocked = found.blocked
    tiles = board.arrivals
    tokens = board.tokens
    color = state.phase.revenue_color
    stop_keys = sorted(found.nodes)
    stop_ends: dict[tuple[HexId, int], tuple[int, int]] = {}
    stops = []
    names = []
    group_members: dict[str, set[int]] = {}
    for i, key in enumerate(stop_keys):
        hex_id, index = key
        node = tiles[hex_id].geometry.nodes[index]
        stop_ends[key] = (i, NO_SIDE)
        name = NODE_IDS.get(key) or node_id(hex_id, index)
        names.append(name)
        stops.append(
            Stop(
                name,
                node.value_for(color),  # ROUTES.md §4.1, as revenue.stop_value
                node.visit_cost,
                key in blocked or key in terminal_nodes,
                stop_subsidy(hex_id, board.data),
                corp.sym in tokens.get(key, ()),
            )
        )
        for g in node.groups:
            group_members.setdefault(g, set()).add(i)

    # A crossing is listed as (smaller end, larger end): sorted, the junctions come
    # in the order of their smaller end, side 0 that end (ROUTES.md §3.7).
    junction_index: dict[EdgeKey, tuple[int, int]] = {}
    junctions: list[Junction] = []
    edge_junctions: list[tuple[EdgeKey, int]] = []
    for key, other in found.crossings():
        j = len(stops) + len(junctions)
        junction = _JUNCTIONS.get((key, other)) or _junction(key, other)
        junctions.append(junction)
        junction_index[key] = (j, 0)
        junction_index[other] = (j, 1)
        edge_junctions += ((key, j), (other, j))

    segments: list[Segment] = []
    segment_paths: list[tuple[HexId, int]] = []
    for path in walked:
        (edge_1, key_1), (edge_2, key_2) = path.end_keys
        end_1 = (junction_index if edge_1 else stop_ends).get(key_1)
        end_2 = (junction_index if edge_2 else stop_ends).get(key_2)
        if end_1 is None or end_2 is None:
            continue  # track ending at a side with no track beyond it
        segments.append(Segment(end_1[0], end_2[0], end_1[1], end_2[1], path.label))
        segment_paths.append(path.key)

    rule = destination_rule(corp)
    bonuses: tuple[PairBonus, ...] = ()
    if rule is not None:
        home = frozenset(i for i, (h, _) in enumerate(stop_keys) if h == rule.home_hex)
        dest = frozenset(i for i, (h, _) in enumerate(stop_keys) if h == rule.destination_hex)
        bonuses = (PairBonus(rule.bonus, home, dest),) if home and dest else ()

    groups = tuple(frozenset(m) for _, m in sorted(group_members.items()) if len(m) > 1)

    trains = tuple(Train(t.name, t.distance) for t in state.trains)
    problem = RouteProblem(
        stops=tuple(stops),
        junctions=tuple(junctions),
        segments=tuple(segments),
        trains=trains,
        groups=groups,
        bonuses=bonuses,
    )
    return BuiltProblem(problem, tuple(names), tuple(segment_paths), tuple(edge_junctions))


#: (side, facing side) → its junction: a hex side's name is a fact of the map.
_JUNCTIONS: dict[tuple[EdgeKey, EdgeKey], Junction] = {}


def _junction(key: EdgeKey, other: EdgeKey) -> Junction:
    """The junction of the hex side ``key``–``other``, named ``C9/4|C11/1`` (ROUTES.md §3.7)."""
    junction = _JUNCTIONS.get((key, other))
    if junction is None:
        junction = _JUNCTIONS[(key, other)] = Junction(f"{key[0]}/{key[1]}|{other[0]}/{other[1]}")
    return junction


def _terminal_nodes(paths: Iterable[BoardPath]) -> set[tuple[HexId, int]]:
    """Nodes on terminal track may only end a route (ROUTES.md §3.4: A19 Changchun)."""
    out: set[tuple[HexId, int]] = set()
    for path in paths:
        if path.terminal:
            out.update((path.hex, n) for n in path.nodes)
    return out
