"""What a private may lay at one point of a turn, listed fast and exactly (issue 24).

``lay_boards`` (``engine.turn_plans``) asks for a private's lays on many boards
of one turn: the board before any lay, after each normal lay, after each first
Great Wall tile. Asking ``legal_tile_lays`` each time checks every hex of the
ability × tile × rotation (15 Great Wall hexes, about 800 candidates) hundreds
of times. This module checks the same candidates with the same legality function
(``check_in_context``), only fewer of them, by two rules of the lay itself:

* **A second tile joins the first** (RULES.md §7.4): it must have an exit facing
  an exit of the first tile, so it lies on a hex next to the first; only the
  candidates there that pass that test (``TileAbility.joins_first``) are checked.
* **A lay's legality is local** (RULES.md §6.5 #2-#4, §7): apart from the
  connection test (an ability that needs one, §6.5 #3, is always checked whole),
  it depends on the hex itself (empty, its printed track), the tiles and borders
  of the hexes next to it (§6.5 #4: no exit into a wall without track), the
  supply and the cash. Between the turn's first board and a later one the cash
  only falls and hexes only fill, so a lay refused on the first board (checked
  with no cash limit) stays refused unless its hex or a hex next to it changed
  or its tile came back to the supply (an upgrade returns the tile it replaces,
  §6.5 #5). On a later board the candidates are therefore the lays legal on the
  first board plus every candidate on a changed hex or next to one or of a tile
  whose supply grew, all checked again with the board's own cash. The second
  tile's candidates are found the same way, from the first board with the first
  tile on it.
"""

from __future__ import annotations

from typing import Any

from route18xx.engine.board.board import Board
from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import HexId, TileName
from route18xx.engine.board.tile_abilities import TileAbility
from route18xx.engine.board.tile_lay import TileLay, check_in_context, make_context
from route18xx.engine.board.tile_rules import distinct_rotations

Candidate = tuple[HexId, TileName, int]


class PrivateLays:
    """One private's lays on the boards of one turn (``legal_tile_lays`` with ``special``)."""

    def __init__(self, root: Board, corp: str, private: str, ability: TileAbility,
                 common: dict[str, Any], first_special_lay: HexId | None) -> None:
        self.root, self.corp, self.private, self.ability = root, corp, private, ability
        self.common, self.first = common, first_special_lay
        data = root.data
        tiles = [data.tiles[name] for name in ability.tiles if name in data.tiles]
        #: every candidate, in ``legal_tile_lays``' order (hex, tile, rotation)
        self.candidates: list[Candidate] = [
            (h, t.name, r) for h in ability.hexes if h in data.hexes
            for t in tiles for r in distinct_rotations(t)
        ]
        #: per first lay (None: the ability's first tile), the candidates legal on the
        #: turn's first board and its supply
        self._root: dict[Any, tuple[set[Candidate], Any]] = {}
        #: per first tile, the candidates next to it that join it (borders and exits only)
        self._joined: dict[Candidate, list[Candidate]] = {}

    def _context(self, board: Board, cash: int | None, first: HexId | None) -> Any:
        return make_context(board, self.corp, cash=cash, first_special_lay=first, **self.common)

    def _check(self, ctx: Any, candidates: list[Candidate]) -> list[TileLay]:
        out = []
        for hex_id, tile, rotation in candidates:
            try:
                out.append(check_in_context(ctx, hex_id, tile, rotation, special=self.private))
            except IllegalAction:
                continue
        return out

    def _local(self, key: Any, root: Board, board: Board, cash: int | None,
               first: HexId | None, candidates: list[Candidate]) -> list[TileLay]:
        """The legal ``candidates`` on ``board``, by the locality rule above from those
        legal on ``root`` (the same board before this turn's other lays)."""
        ctx = self._context(board, cash, first)
        if self.ability.needs_connection:
            return self._check(ctx, candidates)
        if key not in self._root:
            root_ctx = self._context(root, None, first)
            legal = {(l.hex, l.tile, l.rotation) for l in self._check(root_ctx, candidates)}
            self._root[key] = (legal, root_ctx.supply)
        legal, supply = self._root[key]
        near = changed_and_next(root, board)
        grew = {t for t, n in ctx.supply.items() if n > supply.get(t, 0)}
        return self._check(ctx, [c for c in candidates
                                 if c in legal or c[0] in near or c[1] in grew])

    def firsts(self, board: Board, cash: int | None) -> list[TileLay]:
        """The lays on ``board`` with ``cash`` (the ability's first tile this turn, or its
        next one when a tile of it was laid in an earlier action)."""
        return self._local(None, self.root, board, cash, self.first, self.candidates)

    def seconds(self, board: Board, first: TileLay, cash: int | None) -> list[TileLay]:
        """The second tile after ``first`` on ``board`` (which holds it): next to it, §7.4."""
        key = (first.hex, first.tile, first.rotation)
        if key not in self._joined:
            tiles = board.data.tiles
            near = set(board.hex(first.hex).neighbors.values())
            self._joined[key] = [c for c in self.candidates if c[0] in near and (
                self.ability.joins_first(board, first.hex, c[0], tiles[c[1]], c[2]) is None)]
        root = self.root.with_tile(first.hex, board.data.tiles[first.tile], first.rotation)
        return self._local(key, root, board, cash, first.hex, self._joined[key])


def changed_and_next(root: Board, board: Board) -> set[HexId]:
    """Hexes whose tile differs between the boards, and the hexes next to them."""
    changed = {h for h in set(root.placed) | set(board.placed)
               if root.placed.get(h) != board.placed.get(h)}
    out = set(changed)
    for h in changed:
        out.update(board.hex(h).neighbors.values())
    return out
