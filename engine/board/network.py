"""A company's track network: what it reaches from its tokens (RULES.md §6.5 #3, ROUTES.md §3.8).

The walk starts at every city holding the company's token, follows tile paths
across hex sides whose both ends carry track, and never continues past a node
that blocks the company (off-boards; cities full of other companies' tokens).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from route18xx.engine.board.arrivals import Arrival, HexSide
from route18xx.engine.board.board import Board, BoardPath, EdgeKey, node_blocks
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

    ``paths`` maps each reached path's ``order_key`` (``engine.arrivals``) to the path;
    ``crossed`` each hex side the walk crossed (track on both sides, ROUTES.md §3.7) —
    every such side it touched — from its ``order`` to the side; ``entered`` the
    arrivals at the edges the walk crossed a side to, and at those it left by where
    arriving would take nothing new;
    ``blocked`` holds the reached nodes that stop the company (ROUTES.md §3.8).
    """

    nodes: set[tuple[HexId, int]]
    paths: dict[str, BoardPath]
    entered: set[Arrival]
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
    limit: int | None = None,
) -> Network:
    """Walk ``corp``'s network from its token cities (RULES.md §6.5 #3).

    ``starts`` walks from those cities instead; ``limit`` stops once that many
    nodes are found (ROUTES.md §8 asks only whether a walk reaches a second one).
    """
    found = walk(board, corp, starts, limit)
    paths = found.paths.values()
    # The hex side ends the reached track touches: its paths' edge ends, and both ends
    # of each side crossed (the far end's tile may not have been walked, past ``limit``).
    edges = {(p.hex, e) for p in paths for e in p.edges}
    edges.update(end for side in found.crossed.values() for end in (side.low, side.high))
    return Network(frozenset(found.nodes), frozenset(map(_KEY, paths)), frozenset(edges))


_KEY = attrgetter("key")  # a path's (hex, index)


def walk(
    board: Board,
    corp: CorpId,
    starts: Iterable[tuple[HexId, int]] | None = None,
    limit: int | None = None,
) -> Walk:
    """``reach``'s walk, with what it saw on the way (see ``Walk``).

    Read off the board's compiled tiles (``Board.arrivals``, ``engine.arrivals``) and
    written flat (a first-seen answer walks ~40 paths; issue 21): a side is crossed
    when the map lets track cross it and the facing tile has an exit there
    (``Board.linked``); a node stops the walk when it blocks the company
    (``Board.blocks``). Nodes and sides are looked at in the order a path-by-path
    walk looks at them, so a walk cut by ``limit`` finds the same nodes.
    """
    nodes: set[tuple[HexId, int]] = set()
    paths: dict[str, BoardPath] = {}
    crossed: dict[str, HexSide] = {}
    blocked: set[tuple[HexId, int]] = set()
    entered: set[Arrival] = set()  # edges the walk has arrived at (and will expand)
    tiles = board.arrivals
    stack: list[Arrival] = []  # where the walk has arrived and will take what is there
    for hex_id, city in board.token_cities(corp) if starts is None else starts:
        nodes.add((hex_id, city))
        arrival = tiles[hex_id].at_node.get(city)
        stack.append(Arrival((hex_id, city), None) if arrival is None else arrival)
    tokens = board.tokens
    cap = sys.maxsize if limit is None else limit
    while stack and len(nodes) < cap:
        arrival = stack.pop()
        node = arrival.node_key
        if node is not None and node_blocks(arrival.node, tokens.get(node, ()), corp):
            blocked.add(node)
            continue
        # The paths taken here, whole: a path taken before adds nothing (its ends were
        # looked at when it was first taken), so an arrival that takes no new path —
        # crossing back over a side just crossed — ends here.
        known = len(paths)
        paths |= arrival.paths
        if len(paths) == known:
            continue
        for at_node, here, other, side in arrival.steps:
            if at_node is not None:  # a node of this tile (``other`` is its key)
                if other not in nodes:
                    nodes.add(other)
                    stack.append(at_node)
                continue
            # Track on both sides: the facing tile has an arrival there (an exit).
            there = tiles[other[0]].at_edge.get(other[1])
            if there is not None and there not in entered:
                entered.add(there)
                if here is not None:  # nothing new there: not walked back to
                    entered.add(here)
                # an edge step has its side
                crossed[side.order] = side  # type: ignore[union-attr,assignment]
                stack.append(there)
    return Walk(nodes, paths, entered, crossed, blocked)
