"""Pointy-top hex geometry in 18xx.games coordinates (ROUTES.md §1.1).

Hex id = row letter + column number; x = column − 1, y = row index ("doubled
width": columns in one row step by 2). Edges 0–5: SW, W, NW, NE, E, SE; edge
``e`` of a hex faces edge ``(e + 3) % 6`` of its neighbour.
"""

from __future__ import annotations

from typing import TypeAlias

HexId: TypeAlias = str

#: (dx, dy) to the neighbour across each edge.
EDGE_OFFSETS: dict[int, tuple[int, int]] = {
    0: (-1, 1),
    1: (-2, 0),
    2: (-1, -1),
    3: (1, -1),
    4: (2, 0),
    5: (1, 1),
}
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse_hex_id(hex_id: HexId) -> tuple[int, int]:
    """``"C9"`` → (x=8, y=2). Raises ValueError on a malformed id."""
    if len(hex_id) < 2 or hex_id[0] not in ROWS or not hex_id[1:].isdigit():
        raise ValueError(f"not a hex id: {hex_id!r}")
    return int(hex_id[1:]) - 1, ROWS.index(hex_id[0])


def facing_edge(edge: int) -> int:
    """The neighbour's edge that faces ``edge``."""
    return (edge + 3) % 6


def rotate_edge(edge: int, rotation: int) -> int:
    """A tile laid with rotation ``r`` turns edge ``e`` into ``(e + r) % 6`` (RULES.md §6.5 #9)."""
    return (edge + rotation) % 6
