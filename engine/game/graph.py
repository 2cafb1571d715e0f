"""What a corporation's track reaches, as the tile, token and route steps ask it.

RULES.md §6.5 #3 (a tile must touch a reached hex side), §6.6 (a token goes to
a reachable city), and ROUTES.md §8 (the run step waits only when a walk from
one token city reaches a second revenue centre). The walk itself is
``engine.board.network.reach``; this module derives the questions from it.
"""

from __future__ import annotations

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import CorpId
from route18xx.engine.board.network import Network, reach


class GraphCache:
    """Memoised network walks for one board value (boards are immutable)."""

    def __init__(self) -> None:
        self._board: Board | None = None
        self._reach: dict[CorpId, Network] = {}
        self._route: dict[CorpId, bool] = {}

    def _for(self, board: Board) -> None:
        if board is not self._board:
            self._board = board
            self._reach = {}
            self._route = {}

    def reach(self, board: Board, corp: CorpId) -> Network:
        self._for(board)
        if corp not in self._reach:
            self._reach[corp] = reach(board, corp)
        return self._reach[corp]

    def route_available(self, board: Board, corp: CorpId) -> bool:
        self._for(board)
        if corp not in self._route:
            self._route[corp] = route_available(board, corp)
        return self._route[corp]


def route_available(board: Board, corp: CorpId) -> bool:
    """Does a walk from one token city reach a second revenue centre? (ROUTES.md §8)"""
    for start in board.token_cities(corp):
        if len(reach(board, corp, starts=(start,)).nodes) >= 2:
            return True
    return False


__all__ = ["GraphCache", "route_available"]
