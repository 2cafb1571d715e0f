"""A company's track network: what it reaches from its tokens (RULES.md §6.5 #3, ROUTES.md §3.8).

Two walks, one rule (ROUTES.md §3, written once as ``engine.routes.route_walk``):

* ``reach``: what the company's routes can reach, for its tile lays and tokens
  (``engine.board.token_reach``: exactly what some legal route reaches);
* ``walk``: the track a route problem is built on, walked fast over directed arrivals;
  it reaches at least what some legal route reaches (the solver keeps routes legal).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass

from route18xx.engine.board.arrivals import HexSide, TileArrivals, order_key
from route18xx.engine.board.board import Board, BoardPath, EdgeKey, node_blocks
from route18xx.engine.board.token_reach import token_reach
from route18xx.engine.facts.gamedata import CorpId, HexId


@dataclass(frozen=True)
class Network:
    """What ``corp`` reaches: nodes, paths (hex, path index), and edge keys touched."""

    nodes: frozenset[tuple[HexId, int]]
    paths: frozenset[tuple[HexId, int]]
    edges: frozenset[EdgeKey]


def linked_side(board: Board, hex_id: HexId, edge: int) -> EdgeKey | None:
    """The facing (hex, edge) if both sides of this hex side carry track, else None."""
    return board.linked_side(hex_id, edge)


def paths_at_edge(board: Board, hex_id: HexId, edge: int) -> list[BoardPath]:
    return list(board.geometry(hex_id).at_edge.get(edge, ()))


def paths_at_node(board: Board, hex_id: HexId, index: int) -> list[BoardPath]:
    return list(board.geometry(hex_id).at_node.get(index, ()))


@dataclass
class Walk:
    """What one walk found, as ``build_problem`` reads it (``reach`` freezes it).

    ``paths`` maps each reached path's ``order_key`` (``engine.board.arrivals``) to the
    path; ``crossed`` each hex side the walk crossed (track on both sides, ROUTES.md
    §3.7), from its ``order`` to the side; ``blocked`` holds the reached nodes that stop
    the company (ROUTES.md §3.8).
    """

    nodes: set[tuple[HexId, int]]
    paths: dict[str, BoardPath]
    crossed: dict[str, HexSide]
    blocked: set[tuple[HexId, int]]

    def in_order(self) -> list[BoardPath]:
        """The reached paths in the order of their (hex, index) keys."""
        paths = self.paths
        return [paths[order] for order in sorted(paths)]

    def crossings(self) -> list[HexSide]:
        """Each crossed side once, in the order of their smaller ends."""
        crossed = self.crossed
        return [crossed[order] for order in sorted(crossed)]


def reach(
    board: Board,
    corp: CorpId,
    starts: Iterable[tuple[HexId, int]] | None = None,
) -> Network:
    """What ``corp``'s routes can reach from its token cities (RULES.md §6.5 #3, §6.6):
    the cities it may token, the track its lays may join (``engine.board.token_reach``,
    the search the decisions of a game follow). ``starts`` walks from those cities."""
    nodes, paths, edges = token_reach(board, corp, starts)
    return Network(nodes, paths, edges)


def walk(
    board: Board,
    corp: CorpId,
    starts: Iterable[tuple[HexId, int]] | None = None,
    limit: int | None = None,
) -> Walk:
    """``reach``'s walk, with what it saw on the way (see ``Walk``).

    The walk moves as routes do (ROUTES.md §3): along a path entered by one end and left
    by the other; at a node, on by any other path there (a route may not take back the
    path it came by, §3.7), unless the node blocks the company (§3.8) or the path was
    terminal track (§3.4: the node ends a route); at an edge, across the side into every
    path of the facing tile there (never back into its own tile at that edge: a reversing
    junction, §3.7). Each (path, end entered by) is walked once. It is the fast form of
    ``engine.routes.route_walk.legal_reach``, which walks every legal route one by one:
    it reaches at least what some legal route reaches (the tests hold the two together).

    Read off the board's compiled tiles (``Board.arrivals``, ``engine.board.arrivals``)
    and written flat (a first-seen answer walks ~40 paths; issue 21). ``limit`` stops once
    that many nodes are found (ROUTES.md §8 asks only whether a walk reaches a second).
    """
    nodes: set[tuple[HexId, int]] = set()
    paths: dict[str, BoardPath] = {}
    crossed: dict[str, HexSide] = {}
    blocked: set[tuple[HexId, int]] = set()
    tiles = board.arrivals
    tokens = board.tokens
    neutral = board.data.neutral_stations
    taken: set[tuple[HexId, int, int]] = set()  # (hex, path index, end entered by)
    # (the tile's arrivals, the path, the end it is entered by), depth first
    stack: list[tuple[TileArrivals, BoardPath, int]] = []
    for hex_id, city in reversed(list(board.token_cities(corp) if starts is None else starts)):
        nodes.add((hex_id, city))
        here = tiles[hex_id]
        stack.extend(reversed([(here, path, k)
                               for path, k in here.entries_at_node.get(city, ())]))
    cap = sys.maxsize if limit is None else limit
    while stack and len(nodes) < cap:
        here, path, k = stack.pop()
        hex_id = path.hex
        key = (hex_id, path.index, k)
        if key in taken:
            continue
        taken.add(key)
        paths[order_key(hex_id, path.index)] = path
        leads = here.leaving[path.index][k]
        if leads is None:
            continue  # an edge on a side no track may cross
        at_node, other, side = leads
        if at_node:
            nodes.add(other)
            arrival = here.at_node[other[1]]
            if path.terminal or node_blocks(arrival.node, tokens.get(other, ()), corp, neutral):
                if not path.terminal:
                    blocked.add(other)
                continue
            stack.extend(reversed([(here, p, e) for p, e in here.entries_at_node.get(other[1], ())
                                   if p is not path]))
            continue
        there = tiles[other[0]]
        entries = there.entries_at_edge.get(other[1])
        if entries is None:
            continue  # no track on the far side
        assert side is not None  # an edge exit has its side
        crossed[side.order] = side
        stack.extend(reversed([(there, p, e) for p, e in entries]))
    return Walk(nodes, paths, crossed, blocked)
