"""What a network walk takes on arriving at an edge or a node of a laid tile (ROUTES.md §1).

A walk (``engine.network.walk``, RULES.md §6.5 #3) that arrives at an edge or a
node of a tile takes every path of the tile with an end there, and then looks at
each end of those paths: a node of the tile is visited next; an edge leads across
its hex side when the map lets track cross it (ROUTES.md §1.2) and the facing
tile has track there (§3.7). All of that but the facing tile depends only on the
tile, its rotation, its hex and the map, so it is worked out once per process and
held by the game data (``GameData.derived``), as the tile's geometry is held by the
tile (``engine.geometry``): a board first seen is walked from these pieces, not
re-derived path by path (issue 21). Nothing here depends on a state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, TypeAlias

from route18xx.engine.facts.gamedata import GameData, HexId, RevenueCenter, TileDef
from route18xx.engine.facts.geometry import BoardPath, EdgeKey, PlacedTile, TileGeometry, edge_id
from route18xx.engine.facts.geometry import map_index, tile_geometry

#: (hex, node index) — a node of the tile on a hex.
NodeKey: TypeAlias = tuple[HexId, int]

#: One end to look at after arriving: a node of the tile — (its ``Arrival``, None, its
#: key, None) — or an edge on a side track may cross — (None, the ``Arrival`` at the
#: edge or None, the facing edge, the side). The edge's arrival is given when it would
#: take no path this arrival has not taken: the walk marks it entered as it crosses, so
#: it does not walk back across the side it just crossed (issue 21: a third of a walk's
#: arrivals did).
Step: TypeAlias = "tuple[Arrival | None, Arrival | None, EdgeKey, HexSide | None]"


def order_key(hex_id: HexId, index: int) -> str:
    """A string that sorts as ``(hex_id, index)`` does: the hex id, a NUL (below every
    character of an id, so ``C1`` before ``C11``), the index as one character. Sorting
    these strings costs a third of sorting the tuples (issue 21: a problem lists its
    paths and junctions in key order)."""
    return f"{hex_id}\0{chr(index)}"


@dataclass(eq=False, slots=True)
class Arrival:
    """Arriving at one edge or node of a laid tile: what the walk takes there.

    ``node_key``/``node``: the node arrived at (None at an edge): the walk asks
    whether it blocks before taking anything (ROUTES.md §3.8).
    ``paths``: each path with an end here, by its key's ``order_key``, in tile order (a
    dict, merged whole into the walk's with ``|=``: 0.03 µs against 0.12 for pairs; not to
    be changed).
    ``steps``: the ends to look at next, in path order and each path's end order,
    each once; arriving at a node leaves that node out (the walk has it already),
    and an edge on a side no track may cross is none (it leads nowhere).
    ``terminal``: a path here is terminal track (ROUTES.md §3.4: A19), so a node
    the walk takes its paths at may only end a route.
    """

    node_key: NodeKey | None
    node: RevenueCenter | None
    paths: dict[str, BoardPath] = field(default_factory=dict)
    steps: tuple[Step, ...] = field(default=())
    terminal: bool = False


@dataclass(frozen=True, slots=True)
class HexSide:
    """A hex side track may cross, as a problem lists it (ROUTES.md §3.7): its ends, the
    smaller first, with their ``edge_id``s, its ``order_key`` (the smaller end's) and its
    junction's name (``C9/4|C11/1``). A fact of the map, made once per side and tile."""

    order: str
    low: EdgeKey
    high: EdgeKey
    low_id: str
    high_id: str
    name: str


@dataclass(frozen=True, eq=False)
class TileArrivals:
    """One tile at one rotation on one hex of a map: its geometry, its exits, the
    ``Arrival`` at each edge with track and at each node, and each city's token slots
    (read for every token of a state: ``engine.board_file``)."""

    geometry: TileGeometry
    exits: frozenset[int]
    at_edge: Mapping[int, Arrival]
    at_node: Mapping[int, Arrival]
    city_slots: Mapping[int, int]


def _compile(hex_id: HexId, placed: PlacedTile, sides: Mapping[int, EdgeKey]) -> TileArrivals:
    geo = tile_geometry(hex_id, placed)
    at_edge = {e: Arrival(None, None) for e in geo.at_edge}
    at_node = {n: Arrival((hex_id, n), geo.nodes.get(n)) for n in {*geo.nodes, *geo.at_node}}
    for arrivals, by_index in ((at_edge, geo.at_edge), (at_node, geo.at_node)):
        for index, arrival in arrivals.items():
            paths = by_index.get(index, ())
            steps: list[Step] = []
            for path in paths:
                for is_edge, end in path.end_keys:
                    step: Step | None
                    if is_edge:
                        other = sides.get(end[1])
                        covered = set(geo.at_edge[end[1]]) <= set(paths)
                        step = None if other is None else (
                            None, at_edge[end[1]] if covered else None, other, _side(end, other)
                        )
                    else:
                        step = (
                            None if end == arrival.node_key
                            else (at_node[end[1]], None, end, None)
                        )
                    if step is not None and step not in steps:
                        steps.append(step)
            arrival.paths = {order_key(*p.key): p for p in paths}
            arrival.steps = tuple(steps)
            arrival.terminal = any(p.terminal for p in paths)
    slots = {n: node.slots for n, node in geo.nodes.items() if node.kind == "city"}
    return TileArrivals(geo, geo.exits, at_edge, at_node, slots)


def _side(end: EdgeKey, other: EdgeKey) -> HexSide:
    low, high = (end, other) if end < other else (other, end)
    low_id, high_id = edge_id(*low), edge_id(*high)
    return HexSide(order_key(*low), low, high, low_id, high_id, f"{low_id}|{high_id}")


def _known(data: GameData) -> dict[tuple[HexId, str, int], tuple[TileDef, TileArrivals]]:
    """(hex, tile name, rotation) → (the tile, its arrivals there), filled as asked. The
    tile is kept to tell apart a tile of another name space (a test's own tile)."""
    return {}


def tile_arrivals(data: GameData, hex_id: HexId, placed: PlacedTile) -> TileArrivals:
    """The arrivals of ``placed`` on ``hex_id`` of ``data``'s map, compiled once per
    process and held by ``data``."""
    known = data.derived(_known)
    tile = placed.tile
    key = (hex_id, tile.name, placed.rotation)
    found = known.get(key)
    if found is None or found[0] is not tile:
        found = known[key] = (tile, _compile(hex_id, placed, map_index(data).sides.get(hex_id, {})))
    return found[1]


def board_arrivals(data: GameData, placed: Mapping[HexId, PlacedTile]) -> dict[HexId, TileArrivals]:
    """hex → arrivals, for every hex of ``data``'s map with the tiles ``placed`` laid:
    the preprinted tiles' table copied, each laid tile's looked up (a first-seen board
    does this once; written flat for that)."""
    table = map_arrivals(data)
    known = data.derived(_known)
    for hex_id, on_hex in placed.items():
        tile = on_hex.tile
        found = known.get((hex_id, tile.name, on_hex.rotation))
        table[hex_id] = (
            found[1] if found is not None and found[0] is tile
            else tile_arrivals(data, hex_id, on_hex)
        )
    return table


def map_arrivals(data: GameData) -> dict[HexId, TileArrivals]:
    """hex → arrivals of its preprinted tile, for every hex of ``data``'s map: a new
    table, for a board to lay its tiles on."""
    return dict(data.derived(_preprinted))


def _preprinted(data: GameData) -> dict[HexId, TileArrivals]:
    return {h: tile_arrivals(data, h, PlacedTile(d.preprinted, 0)) for h, d in data.hexes.items()}
