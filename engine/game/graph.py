"""What a corporation's track reaches, as the tile, token and route steps ask it.

RULES.md §6.5 #3 (a tile must touch a reached hex side), §6.6 (a token goes to
a reachable city), and ROUTES.md §8 (the run step waits only when a walk from
one token city reaches a second revenue centre). The walk itself is
``engine.network.reach``; this module derives the questions from it.
"""

from __future__ import annotations

from route18xx.engine.board import Board
from route18xx.engine.gamedata import CorpId, HexId
from route18xx.engine.hexgrid import facing_edge
from route18xx.engine.network import Network, linked_side, paths_at_edge, paths_at_node, reach

ALL_EDGES = frozenset(range(6))


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


def reached_sides(board: Board, network: Network, corp: CorpId, hex_id: HexId) -> frozenset[int]:
    """Sides of ``hex_id`` that ``corp``'s network touches (RULES.md §6.5 #3).

    A side counts when a reached path uses it from either side; in a hex with
    one of the corporation's tokens every side counts.
    """
    if any(h == hex_id for h, _ in board.token_cities(corp)):
        return ALL_EDGES
    sides = {e for h, e in network.edges if h == hex_id}
    for edge in range(6):
        across = board.across(hex_id, edge)
        if across is not None and across in network.edges:
            sides.add(edge)
    return frozenset(sides)


def route_available(board: Board, corp: CorpId) -> bool:
    """Does a walk from one token city reach a second revenue centre? (ROUTES.md §8)"""
    for start in board.token_cities(corp):
        if len(_walk_nodes(board, corp, start, limit=2)) >= 2:
            return True
    return False


def _walk_nodes(board: Board, corp: CorpId, start: tuple[HexId, int], limit: int) -> set[tuple[HexId, int]]:
    nodes = {start}
    seen_paths: set[tuple[HexId, int]] = set()
    seen_edges: set[tuple[HexId, int]] = set()
    stack: list[tuple[str, HexId, int]] = [("node", *start)]
    while stack and len(nodes) < limit:
        kind, hex_id, index = stack.pop()
        if kind == "node":
            if (hex_id, index) != start and board.blocks(hex_id, index, corp):
                continue
            candidates = paths_at_node(board, hex_id, index)
        else:
            candidates = paths_at_edge(board, hex_id, index)
        for path in candidates:
            if (hex_id, path.index) in seen_paths:
                continue
            seen_paths.add((hex_id, path.index))
            for end_kind, i in path.ends:
                if end_kind == "edge":
                    other = linked_side(board, hex_id, i)
                    if other is not None and other not in seen_edges:
                        seen_edges.add(other)
                        stack.append(("edge", other[0], other[1]))
                elif (hex_id, i) not in nodes:
                    nodes.add((hex_id, i))
                    stack.append(("node", hex_id, i))
    return nodes


def enterable(board: Board, hex_id: HexId, edge: int) -> bool:
    """May track leave ``hex_id`` across ``edge``? (RULES.md §6.5 #4, ROUTES.md §1.2)

    Not off the map, not across an impassable border, and not into a red, gray
    or blue hex unless that hex has track pointing back.
    """
    across = board.across(hex_id, edge)
    if across is None:
        return False
    other, back = across
    if board.tile_on(other).tile.color in ("red", "gray", "blue"):
        return back in board.exits(other)
    return True


__all__ = ["GraphCache", "reached_sides", "route_available", "enterable", "facing_edge"]
