"""What a network walk meets on a laid tile: its paths, where each leads, its nodes (ROUTES.md §1).

A walk (``engine.board.network.walk``, RULES.md §6.5 #3) moves along tile paths in a
direction: a path entered by one end is left by its other end (ROUTES.md §3.7: no
(hex, edge) key twice, so never back out the edge it came in by). What the other end
leads to — a node of the tile, or across a hex side the map lets track cross (ROUTES.md
§1.2) — depends only on the tile, its rotation, its hex and the map, so it is worked out
once per process and held by the game data (``GameData.derived``), as the tile's geometry
is held by the tile (``engine.facts.geometry``): a board first seen is walked from these
pieces, not re-derived path by path (issue 21). Nothing here depends on a state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, TypeAlias

from route18xx.engine.facts.gamedata import GameData, HexId, RevenueCenter, TileDef
from route18xx.engine.facts.geometry import BoardPath, EdgeKey, PlacedTile, TileGeometry, edge_id
from route18xx.engine.facts.geometry import map_index, tile_geometry

#: (hex, node index) — a node of the tile on a hex.
NodeKey: TypeAlias = tuple[HexId, int]

#: Where leaving a path by one of its ends leads: a node of the tile — (True, its key,
#: None) — or an edge on a side track may cross — (False, the facing edge, the side).
#: An edge on a side no track may cross leads nowhere (None).
Exit: TypeAlias = "tuple[bool, EdgeKey, HexSide | None] | None"


def order_key(hex_id: HexId, index: int) -> str:
    """A string that sorts as ``(hex_id, index)`` does: the hex id, a NUL (below every
    character of an id, so ``C1`` before ``C11``), the index as one character. Sorting
    these strings costs a third of sorting the tuples (issue 21: a problem lists its
    paths and junctions in key order)."""
    return f"{hex_id}\0{chr(index)}"


@dataclass(eq=False, slots=True)
class Arrival:
    """A node of a laid tile as a walk and a problem read it.

    ``node_key``/``node``: the node (the walk asks whether it blocks before going on,
    ROUTES.md §3.8). ``paths``: each path with an end here, by its key's ``order_key``,
    in tile order. ``terminal``: a path here is terminal track (ROUTES.md §3.4: A19), so
    the node may only end a route.
    """

    node_key: NodeKey | None
    node: RevenueCenter | None
    paths: dict[str, BoardPath] = field(default_factory=dict)
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
    ``Arrival`` at each node, where each path leads when left by either end, and each
    city's token slots (read for every token of a state: ``engine.board_file``).

    ``leaving[i][k]``: where path ``i`` (tile order) leads when entered by its end ``k``
    and left by its other end. ``entries_at_edge[e]`` / ``entries_at_node[n]``: the
    (path, end) pairs by which a walk enters the tile's paths at edge ``e`` / node ``n``.
    """

    geometry: TileGeometry
    exits: frozenset[int]
    at_node: Mapping[int, Arrival]
    leaving: tuple[tuple[Exit, Exit], ...]
    entries_at_edge: Mapping[int, tuple[tuple[BoardPath, int], ...]]
    entries_at_node: Mapping[int, tuple[tuple[BoardPath, int], ...]]
    city_slots: Mapping[int, int]


def _compile(hex_id: HexId, placed: PlacedTile, sides: Mapping[int, EdgeKey]) -> TileArrivals:
    geo = tile_geometry(hex_id, placed)
    at_node = {n: Arrival((hex_id, n), geo.nodes.get(n)) for n in {*geo.nodes, *geo.at_node}}
    for index, arrival in at_node.items():
        paths = geo.at_node.get(index, ())
        arrival.paths = {order_key(*p.key): p for p in paths}
        arrival.terminal = any(p.terminal for p in paths)

    def exit_by(end: tuple[bool, EdgeKey]) -> Exit:
        is_edge, key = end
        if not is_edge:
            return True, key, None
        other = sides.get(key[1])
        return None if other is None else (False, other, _side(key, other))

    leaving = tuple((exit_by(p.end_keys[1]), exit_by(p.end_keys[0])) for p in geo.paths)
    entries_at_edge: dict[int, list[tuple[BoardPath, int]]] = {}
    entries_at_node: dict[int, list[tuple[BoardPath, int]]] = {}
    for path in geo.paths:
        for k, (kind, i) in enumerate(path.ends):
            (entries_at_edge if kind == "edge" else entries_at_node).setdefault(i, []).append(
                (path, k))
    slots = {n: node.slots for n, node in geo.nodes.items() if node.kind == "city"}
    return TileArrivals(geo, geo.exits, at_node, leaving,
                        {e: tuple(v) for e, v in entries_at_edge.items()},
                        {n: tuple(v) for n, v in entries_at_node.items()}, slots)


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
