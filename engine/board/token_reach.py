"""What a company's routes can reach, for its tile lays and tokens (RULES.md §6.5 #3, §6.6).

A city may take a token, and a hex a tile, only where some legal route of the company
could go (ROUTES.md §3). ``engine.routes.route_walk.legal_reach`` states that rule by
walking every legal partial route; this is the same search as the 18xx.games engine runs
it for the same question, and the decisions of a game follow it:

* from each token city in turn, depth first, a path at a time (a path is entered by one
  end and left by the other; at a node any other path there; at a hex edge every path of
  the facing tile there, never back into the same tile: ROUTES.md §3.7);
* a route's (hex, edge) keys are counted as it leaves by them, so no side is crossed
  twice, and a path with a key already left by is not taken;
* a path or a node, once walked, stays walked (each is looked at once), except after the
  route has crossed a side where two or more paths of the tile meet (a switch: tiles
  23-29, 39-47): from there on the walk backtracks, freeing what it walked, so every
  way through the switch is tried;
* a node that blocks the company (§3.8), and a node reached by terminal track (§3.4),
  is reached but not walked on from.

The tests hold it to the reference walk on real and generated boards
(``tests/engine/test_reach_conformance.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from route18xx.engine.board.board import Board, BoardPath, EdgeKey
from route18xx.engine.facts.gamedata import CorpId, HexId

NodeKey = tuple[HexId, int]
PathKey = tuple[HexId, int]


class _Search:
    """One company's search: what it reached, and the state of the walk in progress."""

    def __init__(self, board: Board, corp: CorpId) -> None:
        self.board = board
        self.corp = corp
        self.nodes: set[NodeKey] = set()
        self.paths: set[PathKey] = set()
        self.edges: set[EdgeKey] = set()
        self.left: dict[EdgeKey, int] = {}  # (hex, edge) keys the route has left by

    def node(self, node: NodeKey, visited: set[NodeKey], visited_paths: set[PathKey],
             converging: bool) -> None:
        """Walk on from ``node``: every path there, and on from the nodes they reach."""
        if node in visited:
            return
        visited.add(node)
        hex_id, index = node
        for path in self.board.geometry(hex_id).at_node.get(index, ()):
            self.path(path, None, visited_paths, converging, node, visited)
        if converging:
            visited.discard(node)

    def path(self, path: BoardPath, skip: int | None, visited_paths: set[PathKey],
             converging: bool, came_from: NodeKey, visited: set[NodeKey]) -> None:
        """Take ``path`` (entered at edge ``skip``, or at a node), then what it leads to."""
        key = path.key
        if key in visited_paths:
            return
        hex_id = path.hex
        left = self.left
        if any(left.get((hex_id, e), 0) for e in path.edges):
            return
        visited_paths.add(key)
        self._reached(path)
        if not path.terminal:
            for i in path.nodes:
                there = (hex_id, i)
                if there == came_from or self.board.blocks(hex_id, i, self.corp):
                    continue
                self.node(there, visited, visited_paths, converging)
        board = self.board
        for e in path.edges:
            if e == skip:
                continue
            facing = board.linked((hex_id, e))
            if facing is None:
                continue
            exit_key = (hex_id, e)
            left[exit_key] = left.get(exit_key, 0) + 1
            switch = converging or len(board.geometry(hex_id).at_edge.get(e, ())) > 1
            there_hex, there_edge = facing
            for other in board.geometry(there_hex).at_edge.get(there_edge, ()):
                self.path(other, there_edge, visited_paths, switch, came_from, visited)
            left[exit_key] -= 1
        if converging:
            visited_paths.discard(key)

    def _reached(self, path: BoardPath) -> None:
        hex_id = path.hex
        self.paths.add(path.key)
        self.nodes.update((hex_id, i) for i in path.nodes)
        for e in path.edges:
            self.edges.add((hex_id, e))
            facing = self.board.linked((hex_id, e))
            if facing is not None:
                self.edges.add(facing)


def token_reach(
    board: Board, corp: CorpId, starts: Iterable[NodeKey] | None = None,
) -> tuple[frozenset[NodeKey], frozenset[PathKey], frozenset[EdgeKey]]:
    """(nodes, paths, hex-edge ends) ``corp``'s routes can reach from its token cities (or
    ``starts``): the cities it may token, the track its lays may join."""
    search = _Search(board, corp)
    tokens = list(board.token_cities(corp))
    walked = tokens if starts is None else list(starts)
    search.nodes.update(walked)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        for token in walked:
            # the other token cities are walked from themselves (18xx.games marks them)
            visited = {other for other in tokens if other != token}
            search.node(token, visited, set(), False)
    finally:
        sys.setrecursionlimit(limit)
    return frozenset(search.nodes), frozenset(search.paths), frozenset(search.edges)
