"""What a network walk takes on arriving at an edge or a node of a laid tile (ROUTES.md §1).

A walk (``engine.network.walk``, RULES.md §6.5 #3) that arrives at an edge or a
node of a tile takes every path of the tile with an end there, and then looks at
each end of those paths: a node of the tile is visited next; an edge leads across
its hex side when the map lets track cross it (ROUTES.md §1.2) and the facing
tile has track there (§3.7). All of that but the facing tile depends only on the
tile, its rotation, its hex and the map, so it is worked out once per process and
held by the tile (``TileDef.derived``, per map), as the tile's geometry is
(``engine.geometry``): a board first seen is walked from these pieces, not
re-derived path by path (issue 21). Nothing here depends on a state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, TypeAlias

from route18xx.engine.gamedata import GameData, HexId, RevenueCenter, TileDef
from route18xx.engine.geometry import BoardPath, EdgeKey, PlacedTile, TileGeometry, map_index
from route18xx.engine.geometry import tile_geometry

#: (hex, node index) — a node of the tile on a hex.
NodeKey: TypeAlias = tuple[HexId, int]

#: One end to look at after arriving: a node of the tile — (its ``Arrival``, its key,
#: its key) — or an edge on a side track may cross — (None, the edge, the facing edge).
Step: TypeAlias = "tuple[Arrival | None, EdgeKey, EdgeKey]"


@dataclass(eq=False, slots=True)
class Arrival:
    """Arriving at one edge or node of a laid tile: what the walk takes there.

    ``node_key``/``node``: the node arrived at (None at an edge): the walk asks
    whether it blocks before taking anything (ROUTES.md §3.8).
    ``paths``: each path with an end here, as (path key, path), in tile order.
    ``edge_ends``: every edge end of those paths (the hex sides they touch).
    ``steps``: the ends to look at next, in path order and each path's end order,
    each once; arriving at a node leaves that node out (the walk has it already),
    and an edge on a side no track may cross is none (it leads nowhere).
    """

    node_key: NodeKey | None
    node: RevenueCenter | None
    paths: tuple[tuple[NodeKey, BoardPath], ...] = ()
    edge_ends: tuple[EdgeKey, ...] = ()
    steps: tuple[Step, ...] = field(default=())


@dataclass(frozen=True, eq=False)
class TileArrivals:
    """One tile at one rotation on one hex of a map: its geometry, its exits, and the
    ``Arrival`` at each edge with track and at each node."""

    geometry: TileGeometry
    exits: frozenset[int]
    at_edge: Mapping[int, Arrival]
    at_node: Mapping[int, Arrival]


def _compile(hex_id: HexId, placed: PlacedTile, sides: Mapping[int, EdgeKey]) -> TileArrivals:
    geo = tile_geometry(hex_id, placed)
    at_edge = {e: Arrival(None, None) for e in geo.at_edge}
    at_node = {n: Arrival((hex_id, n), geo.nodes.get(n)) for n in {*geo.nodes, *geo.at_node}}
    for arrivals, by_index in ((at_edge, geo.at_edge), (at_node, geo.at_node)):
        for index, arrival in arrivals.items():
            paths = by_index.get(index, ())
            edge_ends: list[EdgeKey] = []
            steps: list[Step] = []
            for path in paths:
                for is_edge, end in path.end_keys:
                    step: Step | None
                    if is_edge:
                        if end not in edge_ends:
                            edge_ends.append(end)
                        other = sides.get(end[1])
                        step = None if other is None else (None, end, other)
                    else:
                        step = None if end == arrival.node_key else (at_node[end[1]], end, end)
                    if step is not None and step not in steps:
                        steps.append(step)
            arrival.paths = tuple((p.key, p) for p in paths)
            arrival.edge_ends = tuple(edge_ends)
            arrival.steps = tuple(steps)
    return TileArrivals(geo, geo.exits, at_edge, at_node)


class _Map:
    """A map's identity as a memo key (``GameData`` itself is unhashable)."""


def _map(data: GameData) -> _Map:
    return _Map()


def _known(tile: TileDef) -> dict[tuple[_Map, HexId, int], TileArrivals]:
    """(map, hex, rotation) → the tile's arrivals there, filled as asked."""
    return {}


def tile_arrivals(data: GameData, hex_id: HexId, placed: PlacedTile) -> TileArrivals:
    """The arrivals of ``placed`` on ``hex_id`` of ``data``'s map, compiled once and held
    by the tile."""
    known = placed.tile.derived(_known)
    key = (data.derived(_map), hex_id, placed.rotation)
    found = known.get(key)
    if found is None:
        found = known[key] = _compile(hex_id, placed, map_index(data).sides.get(hex_id, {}))
    return found


def _preprinted(data: GameData) -> dict[HexId, TileArrivals]:
    return {h: tile_arrivals(data, h, PlacedTile(d.preprinted, 0)) for h, d in data.hexes.items()}


def preprinted_arrivals(data: GameData) -> Mapping[HexId, TileArrivals]:
    """Each hex's preprinted tile's arrivals, built once and held by ``data``."""
    return data.derived(_preprinted)
