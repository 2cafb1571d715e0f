"""Precompiled geometry: a tile as laid on a hex, and the map's hex sides (ROUTES.md §1).

What a board asks most often — which paths touch an edge or a node, which
edges carry track, which node has an index, which hex faces a side — depends
only on a tile and its rotation on one hex, or on the map. It is worked out
once per process here and shared by every board (issue 11: less Python per
solve). Nothing here depends on a state: boards differ only in which tile
stands where (``engine.board``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Mapping, TypeAlias

from route18xx.engine.facts.gamedata import GameData, HexId, RevenueCenter, TileDef
from route18xx.engine.facts.hexgrid import facing_edge, rotate_edge

#: (hex, edge) — one end of a hex side as seen from one hex (ROUTES.md §3.7 key).
EdgeKey: TypeAlias = tuple[HexId, int]


def node_id(hex_id: HexId, index: int) -> str:
    """``"C9-1"``: node ``index`` of the tile on ``hex_id`` (ROUTES.md §1.4)."""
    return f"{hex_id}-{index}"


def edge_id(hex_id: HexId, edge: int) -> str:
    """``"C9/4"``: edge ``edge`` of ``hex_id``, one end of a hex side (ROUTES.md §3.7)."""
    return f"{hex_id}/{edge}"


@dataclass(frozen=True)
class PlacedTile:
    """A tile at one rotation (0-5), as it lies on a hex."""

    tile: TileDef
    rotation: int


def placed_tile(tile: TileDef, rotation: int) -> PlacedTile:
    """``PlacedTile(tile, rotation)``, made once per tile and rotation and held by the
    tile (``TileDef.derived``; a value: equal either way)."""
    if 0 <= rotation < 6:
        return tile.derived(_placements)[rotation]
    return PlacedTile(tile, rotation)


def _placements(tile: TileDef) -> tuple[PlacedTile, ...]:
    return tuple(PlacedTile(tile, rotation) for rotation in range(6))


@dataclass(frozen=True)
class BoardPath:
    """A path of the tile on ``hex`` with edges already rotated.

    ``a``/``b`` are ("edge", e) or (kind, node index). ``index`` is the path's
    position in the tile definition, so ``(hex, index)`` is a stable path id.
    """

    hex: HexId
    index: int
    ends: tuple[tuple[str, int], tuple[str, int]]
    terminal: bool

    @cached_property
    def edges(self) -> tuple[int, ...]:
        return tuple(i for kind, i in self.ends if kind == "edge")

    @cached_property
    def nodes(self) -> tuple[int, ...]:
        return tuple(i for kind, i in self.ends if kind != "edge")

    @cached_property
    def key(self) -> tuple[HexId, int]:
        """``(hex, index)``: the path's id in networks and chains."""
        return self.hex, self.index

    @cached_property
    def label(self) -> str:
        """``"C9:2"``: the segment label of the path in a route problem (DESIGN.md §3),
        made once per path (a path is shared by every board with its tile there)."""
        return f"{self.hex}:{self.index}"

    @cached_property
    def end_ids(self) -> tuple[str, ...]:
        """Each end in order as its id: a node's ``node_id``, an edge's ``edge_id`` (one
        string per end, so a problem finds both ends of a path in one table, by strings
        whose hash is kept: issue 21)."""
        return tuple(
            edge_id(self.hex, i) if kind == "edge" else node_id(self.hex, i)
            for kind, i in self.ends
        )

    @cached_property
    def end_keys(self) -> tuple[tuple[bool, tuple[HexId, int]], ...]:
        """Each end in order as (is an edge?, (hex, edge or node index))."""
        return tuple((kind == "edge", (self.hex, i)) for kind, i in self.ends)


@dataclass(frozen=True)
class TileGeometry:
    """One tile at one rotation on one hex, indexed for walks (ROUTES.md §1.4).

    ``paths`` in tile order; ``at_edge``/``at_node`` list, in that order, the
    paths with an end on a (rotated) edge or on a node index; ``nodes`` gives
    each node index its revenue centre (the first one listed, as ``TileDef.node``).
    """

    placed: PlacedTile
    paths: tuple[BoardPath, ...]
    exits: frozenset[int]
    nodes: Mapping[int, RevenueCenter]
    at_edge: Mapping[int, tuple[BoardPath, ...]]
    at_node: Mapping[int, tuple[BoardPath, ...]]


def _hex_paths(hex_id: HexId, placed: PlacedTile) -> tuple[BoardPath, ...]:
    rot = placed.rotation
    paths = []
    for i, p in enumerate(placed.tile.paths):
        ends = tuple(
            ("edge", rotate_edge(e.index, rot)) if e.is_edge else (e.kind, e.index)
            for e in (p.a, p.b)
        )
        paths.append(BoardPath(hex_id, i, ends, p.terminal))  # type: ignore[arg-type]
    return tuple(paths)


def _compile(hex_id: HexId, placed: PlacedTile) -> TileGeometry:
    paths = _hex_paths(hex_id, placed)
    nodes: dict[int, RevenueCenter] = {}
    for node in placed.tile.nodes:
        nodes.setdefault(node.index, node)
    edges = sorted({e for p in paths for e in p.edges})
    indexes = sorted({n for p in paths for n in p.nodes})
    return TileGeometry(
        placed,
        paths,
        placed.tile.exits(placed.rotation),
        nodes,
        {e: tuple(p for p in paths if e in p.edges) for e in edges},
        {n: tuple(p for p in paths if n in p.nodes) for n in indexes},
    )


def _geometries(tile: TileDef) -> dict[tuple[HexId, int], TileGeometry]:
    """(hex, rotation) → the tile's geometry there, filled as asked."""
    return {}


def tile_geometry(hex_id: HexId, placed: PlacedTile) -> TileGeometry:
    """The geometry of ``placed`` on ``hex_id``, compiled once and held by the tile
    (``TileDef.derived``): a tile's geometry depends on nothing else."""
    known = placed.tile.derived(_geometries)
    found = known.get((hex_id, placed.rotation))
    if found is None:
        found = known[(hex_id, placed.rotation)] = _compile(hex_id, placed)
    return found


@dataclass(frozen=True)
class MapIndex:
    """The map's fixed facts as lookups: each hex's preprinted tile as placed and its
    geometry, and the facing (hex, edge) of every side track may cross (ROUTES.md
    §1.2: the neighbour is on the map and neither side has an impassable border)."""

    preprinted: Mapping[HexId, PlacedTile]
    preprinted_geometry: Mapping[HexId, TileGeometry]
    sides: Mapping[HexId, Mapping[int, EdgeKey]]


def _side(data: GameData, hex_id: HexId, edge: int) -> EdgeKey | None:
    hex_def = data.hexes[hex_id]
    other = hex_def.neighbors.get(edge)
    if other is None or edge in hex_def.impassable_edges:
        return None
    back = facing_edge(edge)
    if back in data.hexes[other].impassable_edges:
        return None
    return other, back


def _index(data: GameData) -> MapIndex:
    sides: dict[HexId, dict[int, EdgeKey]] = {}
    for hex_id, hex_def in data.hexes.items():
        crossing = sides[hex_id] = {}
        for edge in hex_def.neighbors:
            found = _side(data, hex_id, edge)
            if found is not None:
                crossing[edge] = found
    preprinted = {h: PlacedTile(d.preprinted, 0) for h, d in data.hexes.items()}
    geometry = {h: tile_geometry(h, p) for h, p in preprinted.items()}
    return MapIndex(preprinted, geometry, sides)


def map_index(data: GameData) -> MapIndex:
    """The index of ``data``'s map, built once and held by ``data`` (``GameData.derived``)."""
    return data.derived(_index)
