"""What a legal route may reach: every route a company could run, walked one by one
(ROUTES.md §3: the route rules; RULES.md §6.5 #3 and §6.6: reach for tile lays and tokens).

This is the reference form of reach: a depth-first search over every legal partial route
from each of the company's token cities, written from the route rules and nothing else.
A partial route takes one tile path at a time and may not

* take a path twice, nor a path one of whose hex-edge ends it has used already: each
  (hex, edge) key at most once (§3.7). So no hex side carries the route twice, and a
  route that reached a hex edge along one path cannot turn back into the same hex along
  another path ending at that edge (the reversing junction: tiles 23-29 and 39-47 have
  two or more paths meeting at one edge);
* visit a node twice (§3.5);
* continue past a node that blocks the company (§3.8: off-boards, cities full of other
  companies' tokens), nor past the node at the end of terminal track (§3.4); such a node
  is reached, the route ends there.

Everything a partial route touches is reached: its nodes, its paths, and the hex-edge
ends of its paths with the facing end of each side it could cross. The search is
exhaustive (exponential in the worst case): ``engine.board.network.reach`` is the fast
form, a walk over directed arrivals, and the tests hold it to this one on real and
generated boards (``tests/engine/test_reach_conformance.py``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterable

from route18xx.engine.board.board import Board, BoardPath, EdgeKey
from route18xx.engine.facts.gamedata import CorpId, HexId

NodeKey = tuple[HexId, int]
PathKey = tuple[HexId, int]


@dataclass(frozen=True)
class LegalReach:
    """What some legal partial route from the company's tokens touches."""

    nodes: frozenset[NodeKey]
    paths: frozenset[PathKey]
    edges: frozenset[EdgeKey]


def legal_reach(
    board: Board, corp: CorpId, starts: Iterable[NodeKey] | None = None,
) -> LegalReach:
    """The nodes, paths and hex-edge ends some legal partial route of ``corp`` touches,
    walked from its token cities (or from ``starts``).

    A branch is cut where it cannot touch anything new: entering a path by an end with
    a partial route that uses a superset of what an earlier, finished entry there used
    (what the route has used only takes moves away, so that entry reached all this one
    could). The partial route is one bit mask over its (hex, edge) keys, paths and nodes.
    """
    nodes: set[NodeKey] = set()
    paths: set[PathKey] = set()
    edges: set[EdgeKey] = set()
    bits: dict[object, int] = {}  # an edge key, a path key or a node key -> its bit

    def bit(item: object) -> int:
        found = bits.get(item)
        if found is None:
            found = bits[item] = 1 << len(bits)
        return found

    #: per (path, end entered by): the partial routes of finished entries
    done: dict[tuple[PathKey, int], list[int]] = {}

    def from_node(node: NodeKey, used: int) -> None:
        hex_id, index = node
        for path in board.geometry(hex_id).at_node.get(index, ()):
            take(path, path.ends.index(("node", index)) if ("node", index) in path.ends
                 else _end_of(path, index), used)

    def take(path: BoardPath, k: int, used: int) -> None:
        key = path.key
        mask = bit(("path", key))
        for e in path.edges:
            mask |= bit((path.hex, e))
        if used & mask:
            return  # the path, or one of its (hex, edge) keys, is on the route already
        state = (key, k)
        seen = done.get(state)
        if seen is not None and any(earlier & ~used == 0 for earlier in seen):
            return  # an entry here with less used reached all this one can
        now = used | mask
        hex_id = path.hex
        paths.add(key)
        edges.update((hex_id, e) for e in path.edges)
        kind, i = path.ends[1 - k]
        if kind == "edge":
            facing = board.linked((hex_id, i))
            if facing is not None:
                edges.add(facing)
                there, edge = facing
                for other in board.geometry(there).at_edge.get(edge, ()):
                    take(other, _end_at_edge(other, edge), now)
        else:
            node = (hex_id, i)
            nodes.add(node)
            node_bit = bit(("node", node))
            if not (now & node_bit or path.terminal or board.blocks(hex_id, i, corp)):
                from_node(node, now | node_bit)
        done.setdefault(state, []).append(used)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        for start in board.token_cities(corp) if starts is None else starts:
            nodes.add(start)
            from_node(start, bit(("node", start)))
    finally:
        sys.setrecursionlimit(limit)
    return LegalReach(frozenset(nodes), frozenset(paths), frozenset(edges))


def _end_at_edge(path: BoardPath, edge: int) -> int:
    """Which end (0 or 1) of ``path`` lies on ``edge``."""
    return 0 if path.ends[0] == ("edge", edge) else 1


def _end_of(path: BoardPath, index: int) -> int:
    """Which end (0 or 1) of ``path`` is the node ``index`` (a city, town or off-board)."""
    return 0 if path.ends[0][0] != "edge" and path.ends[0][1] == index else 1
