"""Rebuilding a recorded route's chains from its hex sequence (ROUTES.md §1.5, §6).

A chain runs from a node on the first hex of a ``connections`` entry, through
one path per listed hex, to a node on the last hex, and never passes through
a node. ``find_chains`` lists every chain of the board that matches an entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence
from weakref import WeakKeyDictionary

from route18xx.engine.arrivals import TileArrivals
from route18xx.engine.board import Board, EdgeKey, NodeId, node_id
from route18xx.engine.gamedata import HexId
from route18xx.engine.geometry import map_index


@dataclass(frozen=True)
class Chain:
    """Track between two stops: end nodes, paths walked (hex, index), edge keys used."""

    start: NodeId
    end: NodeId
    paths: tuple[tuple[HexId, int], ...]
    edge_keys: tuple[EdgeKey, ...]
    #: End nodes reached by terminal track (ROUTES.md §3.4): they may only end a route.
    terminal_ends: frozenset[NodeId]

    def other_end(self, node: NodeId) -> NodeId:
        return self.end if node == self.start else self.start

    @property
    def hexes(self) -> tuple[HexId, ...]:
        return tuple(h for h, _ in self.paths)


#: Chains found per board and hex sequence: a board is immutable (its geometry is
#: memoised the same way), and the engine re-judges every answer on the same board
#: (issue 21: a warm answer's re-check reads each connection once per board).
_FOUND: WeakKeyDictionary[Board, dict[tuple[HexId, ...], tuple[Chain, ...]]] = (
    WeakKeyDictionary()
)


def find_chains(board: Board, hexes: Sequence[HexId]) -> list[Chain]:
    """Every chain whose paths lie on ``hexes`` in that order, one path per hex
    (memoised per board: ``_FOUND``)."""
    memo = _FOUND.get(board)
    if memo is None:
        memo = _FOUND.setdefault(board, {})
    key = tuple(hexes)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_find_chains(board, key))
    return list(found)


def _find_chains(board: Board, hexes: Sequence[HexId]) -> list[Chain]:
    if len(hexes) < 2 or any(h not in board.data.hexes for h in hexes):
        return []
    found: list[Chain] = []
    first = hexes[0]
    tiles = board.arrivals
    sides = map_index(board.data).sides
    geo = tiles[first].geometry
    for node in geo.placed.tile.nodes:
        start = node_id(first, node.index)
        for path in geo.at_node.get(node.index, ()):
            edge_ends = path.edges
            if not edge_ends:
                continue
            _extend(
                tiles,
                sides,
                hexes,
                1,
                start,
                [path.key],
                [(first, edge_ends[0])],
                path.terminal,
                edge_ends[0],
                found,
            )
    return found


def _extend(
    tiles: Mapping[HexId, TileArrivals],
    sides: Mapping[HexId, Mapping[int, EdgeKey]],
    hexes: Sequence[HexId],
    position: int,
    start: NodeId,
    paths: list[tuple[HexId, int]],
    keys: list[EdgeKey],
    terminal: bool,
    leaving_edge: int,
    found: list[Chain],
) -> None:
    here = paths[-1][0]
    # ``Board.linked`` read off the board's tables: the side leads to the next listed
    # hex and the tile there has track on it (ROUTES.md §1.2, §3.7).
    across = sides[here].get(leaving_edge)
    if across is None or across[0] != hexes[position]:
        return
    hex_id, entry_edge = across
    tile = tiles[hex_id]
    if entry_edge not in tile.exits:
        return
    last = position == len(hexes) - 1
    for path in tile.geometry.at_edge.get(entry_edge, ()):
        if path.key in paths:
            continue
        new_paths = paths + [path.key]
        new_keys = keys + [across]
        others = [end for end in path.ends if end != ("edge", entry_edge)]
        if not others:
            continue
        kind, index = others[0]
        if kind == "edge":
            if not last:
                _extend(
                    tiles,
                    sides,
                    hexes,
                    position + 1,
                    start,
                    new_paths,
                    new_keys + [(hex_id, index)],
                    terminal,
                    index,
                    found,
                )
        elif last:
            end = node_id(hex_id, index)
            ends = {n for n, t in ((start, terminal), (end, path.terminal)) if t}
            found.append(Chain(start, end, tuple(new_paths), tuple(new_keys), frozenset(ends)))
