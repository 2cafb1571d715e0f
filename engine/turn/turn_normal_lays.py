"""The normal lay on the boards of one turn, listed fast and exactly (issue 24).

``lay_boards`` (``engine.turn_plans``) asks for the normal lay (RULES.md §6.5)
after every private lay of the turn: hundreds of boards with the Great Wall.
Most of those private tiles leave the company's network as it was. When the
network reaches the same hex sides on a board as on the turn's first board, a
normal lay's legality there differs from the first board only by what is local
to it (§6.5 #2-#4: the hex's own tile, the hexes next to it, the connection
through the same reached sides), by the supply (an upgrade returns the tile it
replaces, §6.5 #5) and by the cash (which only falls). So the lays checked are
those legal on the first board (with no cash limit), every candidate on a
changed hex or next to one, and every candidate of a tile whose supply grew —
each checked by ``check_in_context`` with the board's own cash, in
``legal_tile_lays``' order. When the reached sides differ, ``legal_tile_lays``
is asked whole.
"""

from __future__ import annotations

from typing import Any

from route18xx.engine.board.board import Board
from route18xx.engine.errors import IllegalAction
from route18xx.engine.board.tile_lay import (
    TileLay, check_in_context, legal_tile_lays, make_context, upgrade_refusal,
)
from route18xx.engine.board.tile_rules import distinct_rotations
from route18xx.engine.turn.turn_private_lays import Candidate, changed_and_next


class NormalLays:
    """``legal_tile_lays`` (no ``special``) on the boards of one turn."""

    def __init__(self, root: Board, corp: str, common: dict[str, Any]) -> None:
        self.root, self.corp, self.common = root, corp, common
        data = root.data
        self.tiles = [t for t in data.tiles.values() if not t.special_only]
        self.order = {h: i for i, h in enumerate(data.hexes)}
        self.tile_order = {t.name: i for i, t in enumerate(self.tiles)}
        self.rotations = {t.name: distinct_rotations(t) for t in self.tiles}
        self._root: tuple[frozenset[Any], set[Candidate], Any] | None = None

    def lays(self, board: Board, cash: int | None) -> list[TileLay]:
        """The normal lays on ``board`` with ``cash``."""
        if board is self.root:
            return legal_tile_lays(board, self.corp, cash=cash, **self.common)
        if self._root is None:
            ctx = make_context(self.root, self.corp, cash=None, **self.common)
            legal = {(l.hex, l.tile, l.rotation)
                     for l in legal_tile_lays(self.root, self.corp, cash=None, **self.common)}
            self._root = (ctx.network.edges, legal, ctx.supply)
        edges, legal, supply = self._root
        ctx = make_context(board, self.corp, cash=cash, **self.common)
        if ctx.network.edges != edges:
            return legal_tile_lays(board, self.corp, cash=cash, **self.common)
        near = changed_and_next(self.root, board)
        grew = {t for t, n in ctx.supply.items() if n > supply.get(t, 0)}
        wanted = set(legal)
        hexes = near | ({h for h in ctx.candidate_hexes()} if grew else set())
        for hex_id in hexes:
            if hex_id not in self.order or not ctx.sides(hex_id):
                continue  # §6.5 #3: no reached side, no normal lay (legal_tile_lays' filter)
            current = board.tile_on(hex_id).tile
            hex_def = board.data.hexes[hex_id]
            for tile in self.tiles:
                if hex_id not in near and tile.name not in grew:
                    continue
                if upgrade_refusal(ctx, hex_def, current, tile) is not None:
                    continue
                wanted.update((hex_id, tile.name, r) for r in self.rotations[tile.name])
        out = []
        for hex_id, tile_name, rotation in sorted(
                wanted, key=lambda c: (self.order[c[0]], self.tile_order[c[1]], c[2])):
            try:
                out.append(check_in_context(ctx, hex_id, tile_name, rotation))
            except IllegalAction:
                continue
        return out


__all__ = ["NormalLays"]
