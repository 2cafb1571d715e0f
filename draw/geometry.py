"""Hex geometry for pictures, in the engine's coordinates (engine.hexgrid).

A pointy-top hex of size ``R`` (centre to corner) at doubled-width coordinates (x, y)
has its centre at ``origin + (x·√3/2·R, y·1.5·R)``. Edge ``e`` (0 SW, 1 W, 2 NW,
3 NE, 4 E, 5 SE) faces the direction ``120° + 60°·e`` on screen (y down); its
midpoint lies at the apothem ``√3/2·R``. Track between two edges is a straight
line (opposite edges), a gentle curve (two edges apart: an arc of radius 1.5 R
centred beyond the edge between them) or a sharp curve (neighbouring edges: an
arc of radius R/2 centred on their shared corner), as 18xx.games draws them.

Tile-local shapes are computed for a unit pointy-top hex (R = 1, centre 0,0) and scaled.

A flat-top map (18xx.games ``layout :flat``, 1889) has doubled-height coordinates: the
centre of (x, y) is at ``origin + (x·1.5·R, y·√3/2·R)`` and edge ``e`` (0 S, 1 SW, 2 NW,
3 N, 4 NE, 5 SE) faces ``90° + 60°·e``, the pointy direction turned by −30°. So a flat
hex is the unit pointy hex turned by −30° about its centre: ``Layout.to_page`` turns every
tile-local point (track, cities, corners) before scaling, and text stays upright.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)
APOTHEM = SQRT3 / 2.0
GENTLE_RADIUS = 1.5
SHARP_RADIUS = 0.5


def edge_angle(edge: int) -> float:
    """Direction from a hex's centre to the midpoint of ``edge``, in radians (y down)."""
    return math.radians(120.0 + 60.0 * (edge % 6))


def edge_direction(edge: int) -> Point:
    a = edge_angle(edge)
    return math.cos(a), math.sin(a)


def edge_midpoint(edge: int) -> Point:
    dx, dy = edge_direction(edge)
    return APOTHEM * dx, APOTHEM * dy


def corner(index: int) -> Point:
    """Corner ``i`` of a unit hex: between edges ``i`` and ``i + 1`` (angle 150° + 60°·i)."""
    a = math.radians(150.0 + 60.0 * index)
    return math.cos(a), math.sin(a)


def edge_corners(edge: int) -> tuple[Point, Point]:
    """The two corners bounding ``edge`` (from edge−1's side to edge+1's side)."""
    return corner(edge - 1), corner(edge)


CORNERS: tuple[Point, ...] = tuple(corner(i) for i in range(6))


@dataclass(frozen=True)
class Arc:
    center: Point
    radius: float


@dataclass(frozen=True)
class Piece:
    """A piece of track in unit-hex coordinates: a line, or an arc of a circle."""

    start: Point
    end: Point
    arc: Arc | None = None

    def reversed(self) -> Piece:
        return Piece(self.end, self.start, self.arc)

    @property
    def sweep(self) -> int:
        """SVG sweep flag: 1 when the arc turns the positive (clockwise on screen) way."""
        if self.arc is None:
            return 0
        cx, cy = self.arc.center
        ax, ay = self.start[0] - cx, self.start[1] - cy
        bx, by = self.end[0] - cx, self.end[1] - cy
        return 1 if ax * by - ay * bx > 0 else 0

    def point_at(self, t: float) -> Point:
        if self.arc is None:
            return (self.start[0] + (self.end[0] - self.start[0]) * t,
                    self.start[1] + (self.end[1] - self.start[1]) * t)
        cx, cy = self.arc.center
        a0 = math.atan2(self.start[1] - cy, self.start[0] - cx)
        a1 = math.atan2(self.end[1] - cy, self.end[0] - cx)
        delta = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        a = a0 + delta * t
        return cx + self.arc.radius * math.cos(a), cy + self.arc.radius * math.sin(a)

    def tangent_at(self, t: float) -> Point:
        """Unit direction of travel at ``t``."""
        if self.arc is None:
            dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
        else:
            px, py = self.point_at(t)
            cx, cy = self.arc.center
            rx, ry = px - cx, py - cy
            dx, dy = (-ry, rx) if self.sweep else (ry, -rx)
        n = math.hypot(dx, dy) or 1.0
        return dx / n, dy / n


def edge_to_edge(a: int, b: int) -> Piece:
    """Track from edge ``a`` to edge ``b`` of a unit hex (straight, gentle or sharp)."""
    start, end = edge_midpoint(a), edge_midpoint(b)
    turn = (b - a) % 6
    if turn == 3:
        return Piece(start, end)
    if turn in (1, 5):
        low = a if turn == 1 else b  # the corner between edges low and low + 1
        return Piece(start, end, Arc(corner(low), SHARP_RADIUS))
    between = a + 1 if turn == 2 else b + 1
    dx, dy = edge_direction(between)
    return Piece(start, end, Arc((SQRT3 * dx, SQRT3 * dy), GENTLE_RADIUS))


def split(piece: Piece, t: float) -> tuple[Piece, Piece]:
    mid = piece.point_at(t)
    return Piece(piece.start, mid, piece.arc), Piece(mid, piece.end, piece.arc)


def sample(piece: Piece, steps: int = 8) -> list[tuple[Point, Point]]:
    """Points along a piece with their travel directions (lines need only their ends)."""
    n = 1 if piece.arc is None else steps
    return [(piece.point_at(i / n), piece.tangent_at(i / n)) for i in range(n + 1)]


def offset_points(samples: Sequence[tuple[Point, Point]], by: float) -> list[Point]:
    """Each point moved ``by`` to the left of its direction of travel (a parallel curve)."""
    return [(x + dy * by, y - dx * by) for (x, y), (dx, dy) in samples]


#: cos and sin of −30°: a flat-top hex is the pointy one turned by −30° (module docstring).
_FLAT_COS, _FLAT_SIN = math.cos(math.radians(-30.0)), math.sin(math.radians(-30.0))


@dataclass(frozen=True)
class Layout:
    """Where hexes sit on the page: hex size (centre to corner), the centre of the hex at
    (0, 0), and whether the map's hexes are flat-topped (1889) rather than pointy."""

    size: float
    origin_x: float
    origin_y: float
    flat: bool = False

    def center(self, x: int, y: int) -> Point:
        if self.flat:
            return (self.origin_x + x * 1.5 * self.size, self.origin_y + y * APOTHEM * self.size)
        return (self.origin_x + x * APOTHEM * self.size, self.origin_y + y * 1.5 * self.size)

    def turn(self, p: Point) -> Point:
        """A tile-local point or direction as the map's hexes stand (−30° on a flat map)."""
        if not self.flat:
            return p
        return p[0] * _FLAT_COS - p[1] * _FLAT_SIN, p[0] * _FLAT_SIN + p[1] * _FLAT_COS

    def to_page(self, center: Point, p: Point) -> Point:
        if self.flat:
            p = self.turn(p)
        return center[0] + p[0] * self.size, center[1] + p[1] * self.size
