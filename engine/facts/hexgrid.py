"""Hex geometry in 18xx.games coordinates (ROUTES.md §1.1).

Pointy tops (1888, 1830): hex id = row letter + column number; x = column − 1,
y = row index ("doubled width": columns in one row step by 2). Edges 0–5: SW, W,
NW, NE, E, SE.

Flat tops (18xx.games ``layout :flat``, 1889): hex id = column letter + row number;
x = column letter index, y = row − 1 ("doubled height": rows in one column step by 2).
Edges 0–5: S, SW, NW, N, NE, SE (``Hex::DIRECTIONS[:flat]``).

On both, edge ``e`` of a hex faces edge ``(e + 3) % 6`` of its neighbour and a tile laid
at rotation r turns edge e into (e + r) % 6: the rules read edge numbers only; which way
an edge faces matters to pictures and words (``GameData.layout``).
"""

from __future__ import annotations

from typing import TypeAlias

HexId: TypeAlias = str

#: (dx, dy) to the neighbour across each edge of a pointy-top hex.
EDGE_OFFSETS: dict[int, tuple[int, int]] = {
    0: (-1, 1),
    1: (-2, 0),
    2: (-1, -1),
    3: (1, -1),
    4: (2, 0),
    5: (1, 1),
}
#: (dx, dy) to the neighbour across each edge of a flat-top hex (``Hex::DIRECTIONS[:flat]``).
FLAT_EDGE_OFFSETS: dict[int, tuple[int, int]] = {
    0: (0, 2),
    1: (-1, 1),
    2: (-1, -1),
    3: (0, -2),
    4: (1, -1),
    5: (1, 1),
}
#: Each layout's offsets (``GameData.layout``: ``"pointy"`` or ``"flat"``).
EDGE_OFFSETS_BY_LAYOUT: dict[str, dict[int, tuple[int, int]]] = {
    "pointy": EDGE_OFFSETS, "flat": FLAT_EDGE_OFFSETS,
}
#: The side each edge faces, by layout: a player's words for an edge.
EDGE_NAMES_BY_LAYOUT: dict[str, tuple[str, ...]] = {
    "pointy": ("SW", "W", "NW", "NE", "E", "SE"),
    "flat": ("S", "SW", "NW", "N", "NE", "SE"),
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
