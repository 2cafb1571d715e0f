"""Pointy-top hex math written apart from route18xx.draw, to read its pictures back.

A page point → the hex it lies in (axial coordinates, cube rounding, then the
engine's doubled-width x = 2q + r, y = r); an SVG path's ``d`` → its points.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def hex_at(px: float, py: float, size: float, ox: float, oy: float) -> str:
    x, y = px - ox, py - oy
    q = (math.sqrt(3) / 3 * x - y / 3) / size
    r = (2 / 3 * y) / size
    cx, cz = q, r
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    col = 2 * rx + rz
    return f"{ROWS[rz]}{col + 1}"


def hex_center(hex_id: str, size: float, ox: float, oy: float) -> tuple[float, float]:
    x, y = int(hex_id[1:]) - 1, ROWS.index(hex_id[0])
    return ox + x * math.sqrt(3) / 2 * size, oy + y * 1.5 * size


def flat_hex_center(hex_id: str, size: float, ox: float, oy: float,
                    letter_rows: bool = False) -> tuple[float, float]:
    """A flat-top map's hex (18xx.games ``layout :flat``, 1889): column letter, row number,
    doubled-height coordinates x = letter index, y = number − 1; centres 1.5·size apart
    across columns and √3/2·size apart per doubled row. ``letter_rows``: the letters name
    the rows (1882, ``AXES = {x: :number, y: :letter}``): x = number − 1, y = letter index."""
    x, y = ROWS.index(hex_id[0]), int(hex_id[1:]) - 1
    if letter_rows:
        x, y = y, x
    return ox + x * 1.5 * size, oy + y * math.sqrt(3) / 2 * size


def polyline(d: str) -> list[tuple[float, float]]:
    """The points of an ``M x y L x y …`` path."""
    assert set(re.sub(r"[-\d.\s]", "", d)) <= {"M", "L"}, d
    nums = [float(n) for n in _NUMBER.findall(d)]
    return list(zip(nums[0::2], nums[1::2]))


def path_ends(d: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """First and last point of a path made of M, L and A commands."""
    nums = [float(n) for n in _NUMBER.findall(d)]
    return (nums[0], nums[1]), (nums[-2], nums[-1])


def layout_of(root: ET.Element) -> tuple[float, float, float]:
    return (float(root.get("data-hex-size", "nan")), float(root.get("data-origin-x", "nan")),
            float(root.get("data-origin-y", "nan")))


def walked_hexes(points: list[tuple[float, float]], size: float, ox: float, oy: float) -> list[str]:
    """The hexes a polyline passes through, read at the middle of each of its segments."""
    out: list[str] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if math.hypot(x1 - x0, y1 - y0) < 0.5:
            continue
        h = hex_at((x0 + x1) / 2, (y0 + y1) / 2, size, ox, oy)
        if not out or out[-1] != h:
            out.append(h)
    return out
