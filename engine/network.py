"""A company's track network: what it reaches from its tokens (RULES.md §6.5 #3, ROUTES.md §3.8).

The walk starts at every city holding the company's token, follows tile paths
across hex sides whose both ends carry track, and never continues past a node
that blocks the company (off-boards; cities full of other companies' tokens).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from route18xx.engine.board import Board, BoardPath, EdgeKey
from route18xx.engine.gamedata import CorpId, HexId


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
    nodes: set[tuple[HexId, int]] = set()
    paths: set[tuple[HexId, int]] = set()
    edges: set[EdgeKey] = set()
    entered: set[EdgeKey] = set()  # edge ends the walk has arrived at (and will expand)
    stack: list[tuple[bool, tuple[HexId, int]]] = []  # (at a node?, (hex, node or edge))
    for hex_id, city in board.token_cities(corp) if starts is None else starts:
        nodes.add((hex_id, city))
        stack.append((True, (hex_id, city)))
    geometry = board.geometry
    linked = board.linked
    while stack and (limit is None or len(nodes) < limit):
        at_node, (hex_id, index) = stack.pop()
        geo = geometry(hex_id)
        if at_node:
            if board.blocks(hex_id, index, corp):
                continue
            candidates = geo.at_node.get(index, ())
        else:
            candidates = geo.at_edge.get(index, ())
        for path in candidates:
            key = path.key
            if key in paths:
                continue
            paths.add(key)
            for is_edge, end in path.end_keys:
                if is_edge:
                    edges.add(end)
                    other = linked(end)
                    if other is not None and other not in entered:
                        entered.add(other)
                        edges.add(other)
                        stack.append((False, other))
                elif end not in nodes:
                    nodes.add(end)
                    stack.append((True, end))
    return Network(frozenset(nodes), frozenset(paths), frozenset(edges))
