"""Can a tile stand on a hex? The static part of tile-lay legality (RULES.md §6.5).

Placeholder: the full tile-lay rules (phase colours, connectivity, costs,
private abilities) live in ``engine.tile_lay``; this module answers only
whether a tile could be on the hex at all, for reading state files.
"""

from __future__ import annotations

from engine.board import Board
from engine.gamedata import HexId, TileDef


def standing_problem(board: Board, hex_id: HexId, tile: TileDef, rotation: int) -> str | None:
    """None if ``tile`` at ``rotation`` may stand on ``hex_id``; else the reason."""
    hex_def = board.hex(hex_id)
    if hex_def.color in ("red", "gray", "blue") and not tile.special_only:
        return f"{hex_id} is a {hex_def.color} hex and takes no tiles"
    return None
