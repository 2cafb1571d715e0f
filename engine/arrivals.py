"""What a network walk takes on arriving at an edge or a node of a laid tile (ROUTES.md §1).

A walk (``engine.network.walk``, RULES.md §6.5 #3) that arrives at an edge or a
node of a tile takes every path of the tile with an end there, and then looks at
each end of those paths: a node is visited next, an edge is crossed when the
facing hex has track there. Which paths and ends those are depends only on the
tile, its rotation and its hex, so it is worked out once per process and held by
the tile (``TileDef.derived``), as the tile's geometry is (``engine.geometry``):
a board first seen is walked from these pieces, not re-derived path by path
(issue 21). Nothing here depends on a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from route18xx.engine.gamedata import GameData, HexId, TileDef
from route18xx.engine.geometry import BoardPath, EdgeKey, PlacedTile, TileGeometry, tile_geometry

#: (hex, node index) — a node of the tile on a hex.
NodeKey = tuple[HexId, int]


@dataclass(frozen=True)
class Arrival:
    """Arriving at one edge or node: the paths taken and the ends to look at next.

    ``paths``: each path with an end here, as (path key, path), in tile order.
    ``edge_ends``: every edge end of those paths (the hex sides they touch).
    ``steps``: the ends to look at, as (is an edge?, (hex, edge or node index)), in
    path order and each path's end order, each once; arriving at a node leaves that
    node out (the walk has it already).
    """

    paths: tuple[tuple[tuple[HexId, int], BoardPath], ...]
    edge_ends: tuple[EdgeKey, ...]
    steps: tuple[tuple[bool, tuple[HexId, int]], ...]


@dataclass(frozen=True)
class TileArrivals:
    """One tile at one rotation on one hex: its geometry, its exits, and the
    ``Arrival`` at each edge and node index that has track."""

    geometry: TileGeometry
    exits: frozenset[int]
    at_edge: Mapping[int, Arrival]
    at_node: Mapping[int, Arrival]


def _arrival(paths: tuple[BoardPath, ...], arrived: tuple[bool, tuple[HexId, int]] | None) -> Arrival:
    edge_ends: list[EdgeKey] = []
    steps: list[tuple[bool, tuple[HexId, int]]] = []
    for path in paths:
        for step in path.end_keys:
            if step[0] and step[1] not in edge_ends:
                edge_ends.append(step[1])
            if step != arrived and step not in steps:
                steps.append(step)
    return Arrival(tuple((p.key, p) for p in paths), tuple(edge_ends), tuple(steps))


def _compile(hex_id: HexId, placed: PlacedTile) -> TileArrivals:
    geo = tile_geometry(hex_id, placed)
    return TileArrivals(
        geo,
        geo.exits,
        {e: _arrival(paths, None) for e, paths in geo.at_edge.items()},
        {n: _arrival(paths, (False, (hex_id, n))) for n, paths in geo.at_node.items()},
    )


def _known(tile: TileDef) -> dict[tuple[HexId, int], TileArrivals]:
    """(hex, rotation) → the tile's arrivals there, filled as asked."""
    return {}


def tile_arrivals(hex_id: HexId, placed: PlacedTile) -> TileArrivals:
    """The arrivals of ``placed`` on ``hex_id``, compiled once and held by the tile."""
    known = placed.tile.derived(_known)
    found = known.get((hex_id, placed.rotation))
    if found is None:
        found = known[(hex_id, placed.rotation)] = _compile(hex_id, placed)
    return found


def _preprinted(data: GameData) -> dict[HexId, TileArrivals]:
    return {h: tile_arrivals(h, PlacedTile(d.preprinted, 0)) for h, d in data.hexes.items()}


def preprinted_arrivals(data: GameData) -> Mapping[HexId, TileArrivals]:
    """Each hex's preprinted tile's arrivals, built once and held by ``data``."""
    return data.derived(_preprinted)
