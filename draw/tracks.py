"""Where a tile's cities, towns and off-boards stand, and the shape of each path.

One revenue centre stands in the middle of its hex. A town between exactly two
edges stands on the track joining them (a bar across a straight or a curve, as
printed). Several centres on one tile stand half way towards the edges they
serve (Beijing's four cities, the OO tiles' pairs), or, without track, side by
side. A path between two edges is a straight, gentle or sharp curve
(``geometry.edge_to_edge``); a path to a centre is a line from the edge, or the
half of the curve on which the town stands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from route18xx.draw.geometry import Piece, Point, edge_direction, edge_midpoint, edge_to_edge, split
from route18xx.engine.api import HexView, PathView

NodeKey = tuple[str, int]

#: How far from the centre the cities of a multi-city tile stand (unit hex).
SPREAD = 0.5


@dataclass(frozen=True)
class TileShape:
    """A hex's revenue centres (positions) and its paths as pieces of track."""

    nodes: Mapping[NodeKey, Point]
    #: Town on a two-edge track: the direction of that track where it stands (for the bar).
    town_bars: Mapping[NodeKey, Point]
    pieces: Mapping[int, Piece]


def _node_edges(hex_view: HexView) -> dict[NodeKey, list[int]]:
    edges: dict[NodeKey, list[int]] = {(n.kind, n.index): [] for n in hex_view.nodes}
    for p in hex_view.paths:
        for here, there in ((p.a, p.b), (p.b, p.a)):
            if here[0] != "edge" and there[0] == "edge" and here in edges:
                edges[here].append(there[1])
    return edges


def _town_curve(edges: list[int], index: int, straight_towns: int) -> tuple[Piece, float]:
    piece = edge_to_edge(edges[0], edges[1])
    t = 0.5
    if piece.arc is None and straight_towns > 1:  # two crossing straights (tile 55): apart
        t = 0.35 if index % 2 == 0 else 0.65
    return piece, t


def tile_shape(hex_view: HexView) -> TileShape:
    """Positions of the hex's centres and the piece of track for each of its paths."""
    edges = _node_edges(hex_view)
    keys = list(edges)
    positions: dict[NodeKey, Point] = {}
    bars: dict[NodeKey, Point] = {}
    curves: dict[NodeKey, tuple[Piece, float]] = {}
    straight_towns = sum(
        1 for k in keys
        if k[0] == "town" and len(edges[k]) == 2 and (edges[k][1] - edges[k][0]) % 6 == 3
    )
    for key in keys:
        e = edges[key]
        if key[0] == "town" and len(e) == 2 and (len(keys) > 1 or (e[1] - e[0]) % 6 != 3):
            piece, t = _town_curve(e, key[1], straight_towns)
            curves[key] = (piece, t)
            positions[key] = piece.point_at(t)
            bars[key] = piece.tangent_at(t)
    if len(keys) == 1 and not positions:
        positions[keys[0]] = (0.0, 0.0)
        e = edges[keys[0]]
        if keys[0][0] == "town" and len(e) == 2:
            bars[keys[0]] = edge_direction(e[1])
    free = [k for k in keys if k not in positions]
    placed_dirs: list[Point] = []
    for key in free:
        e = edges[key]
        if not e:
            continue
        sx = sum(edge_direction(x)[0] for x in e)
        sy = sum(edge_direction(x)[1] for x in e)
        norm = math.hypot(sx, sy)
        if norm < 1e-6:  # opposite edges: stand beside the line, away from the others
            dx, dy = edge_direction(e[0])
            sx, sy, norm = -dy, dx, 1.0
            others = [edges[k] for k in keys if k != key and edges[k]]
            if others:
                ox = sum(edge_direction(x)[0] for x in others[0])
                oy = sum(edge_direction(x)[1] for x in others[0])
                if sx * ox + sy * oy > 0:
                    sx, sy = -sx, -sy
        positions[key] = (SPREAD * sx / norm, SPREAD * sy / norm)
        placed_dirs.append((sx / norm, sy / norm))
    unplaced = [k for k in keys if k not in positions]
    if unplaced:
        if placed_dirs:  # e.g. Shenyang's second city: opposite the first
            mx = -sum(d[0] for d in placed_dirs)
            my = -sum(d[1] for d in placed_dirs)
            base = math.atan2(my, mx) if math.hypot(mx, my) > 1e-6 else 0.0
        else:
            base = math.pi
        step = 2 * math.pi / max(len(unplaced), 2) if len(unplaced) > 1 else 0.0
        for i, key in enumerate(unplaced):
            a = base + step * i
            positions[key] = (0.45 * math.cos(a), 0.45 * math.sin(a))
    pieces: dict[int, Piece] = {}
    for p in hex_view.paths:
        pieces[p.index] = _piece(p, positions, curves)
    return TileShape(positions, bars, pieces)


def _piece(path: PathView, positions: Mapping[NodeKey, Point],
           curves: Mapping[NodeKey, tuple[Piece, float]]) -> Piece:
    a, b = path.a, path.b
    if a[0] == "edge" and b[0] == "edge":
        return edge_to_edge(a[1], b[1])
    if a[0] != "edge" and b[0] == "edge":
        return _piece(PathView(path.index, b, a, path.terminal), positions, curves).reversed()
    if a[0] == "edge":  # edge → node
        curve = curves.get(b)
        if curve is not None:
            piece, t = curve
            first, second = split(piece, t)
            if piece.start == edge_midpoint(a[1]):
                return first
            return second.reversed()
        return Piece(edge_midpoint(a[1]), positions.get(b, (0.0, 0.0)))
    return Piece(positions.get(a, (0.0, 0.0)), positions.get(b, (0.0, 0.0)))


def oriented(piece: Piece, path: PathView, start: tuple[str, int]) -> Piece:
    """The path's piece travelled from ``start`` (one of its ends)."""
    return piece if path.a == start else piece.reversed()
