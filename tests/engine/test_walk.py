"""The problem's walk read from compiled tile pieces (engine/board/arrivals.py,
engine/board/network.py ``walk``, issue 21) against a walk written here path by path.

The witness walk below follows ROUTES.md §3 one tile path at a time with the board's
single-step questions (``geometry``, ``linked``, ``blocks``): a path entered by one end
is left by the other (§3.7: never back out the edge it came in by); at a node, on by any
other path unless the node blocks the company (§3.8) or the path was terminal (§3.4); at
an edge, across a side with track on both sides into every path of the facing tile there.
The problem's junctions are then the reached sides with track on both sides, and its
segments the reached paths with both ends on a stop or a junction, in board-key order.
Nothing here calls ``engine.board.arrivals`` or ``engine.board.network``. (What a legal
route reaches, for tile lays and tokens, is ``tests/engine/test_reach_conformance.py``.)
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Iterable

import pytest

from route18xx.engine.board.arrivals import order_key
from route18xx.engine.board.board import Board, EdgeKey
from route18xx.engine.board.network import walk
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import RouteState, parse_state
from tests.conftest import STATES_DIR

Key = tuple[str, int]


def _witness_walk(
    board: Board, corp: str, starts: Iterable[Key] | None = None,
) -> tuple[set[Key], set[Key], set[EdgeKey]]:
    """Path by path, in a direction: a path entered by one end is left by the other; at a
    node, on by any other path there unless the node blocks the company or the path was
    terminal track; at an edge, across the side into every path of the facing tile there."""
    nodes: set[Key] = set()
    paths: set[Key] = set()
    edges: set[EdgeKey] = set()
    taken: set[tuple[str, int, int]] = set()
    stack: list[tuple[str, int, int]] = []  # (hex, path index, end entered by)

    def enter_at(hex_id: str, kind: str, index: int, but: int | None = None) -> None:
        for path in board.geometry(hex_id).paths:
            for k, end in enumerate(path.ends):
                if path.index != but and (end == (kind, index) if kind == "edge"
                                          else end[0] != "edge" and end[1] == index):
                    stack.append((hex_id, path.index, k))

    for city in board.token_cities(corp) if starts is None else starts:
        nodes.add(city)
        enter_at(city[0], "node", city[1])
    while stack:
        hex_id, index, k = stack.pop()
        if (hex_id, index, k) in taken:
            continue
        taken.add((hex_id, index, k))
        path = board.geometry(hex_id).paths[index]
        paths.add((hex_id, index))
        kind, i = path.ends[1 - k]
        if kind == "edge":
            edges.add((hex_id, i))
            other = board.linked((hex_id, i))
            if other is not None:
                edges.add(other)
                enter_at(other[0], "edge", other[1])
            continue
        nodes.add((hex_id, i))
        if not path.terminal and not board.blocks(hex_id, i, corp):
            enter_at(hex_id, "node", i, but=index)
    for hex_id, index in paths:
        edges.update((hex_id, e) for e in board.geometry(hex_id).paths[index].edges)
    return nodes, paths, edges


def _states() -> list[RouteState]:
    return [parse_state(json.loads(p.read_text())["state"]) for p in sorted(STATES_DIR.glob("*.json"))]


STATES = _states()


def _fresh(board: Board) -> Board:
    return Board(board.placed, board.tokens, board.data)


def test_the_problem_walk_is_the_path_by_path_walk_for_every_company_on_every_state() -> None:
    corps = sorted(STATES[0].data.corporations)
    seen = 0
    for state in STATES:
        board = _fresh(state.board)
        for corp in corps:
            found = walk(board, corp)
            paths = {p.key for p in found.paths.values()}
            edges = {(p.hex, e) for p in found.paths.values() for e in p.edges}
            edges.update(end for side in found.crossed.values() for end in (side.low, side.high))
            assert (found.nodes, paths, edges) == _witness_walk(board, corp)
            seen += bool(paths)
    assert seen > len(STATES)  # most companies run on most boards: the walks did walk


@pytest.mark.parametrize("state", STATES[::10], ids=lambda s: s.corporation.sym)
def test_the_problem_is_read_off_the_witness_walk(state: RouteState) -> None:
    for corp in sorted(state.data.corporations.values(), key=lambda c: c.sym):
        board = _fresh(state.board)
        nodes, paths, edges = _witness_walk(board, corp.sym)
        built = build_problem(replace(state, board=board, corporation=corp))
        assert built.stop_ids == tuple(f"{h}-{i}" for h, i in sorted(nodes))
        sides = sorted({min(k, o): max(k, o) for k in edges
                        if (o := board.linked(k)) is not None and o in edges}.items())
        assert [j.name for j in built.problem.junctions] == [
            f"{a[0]}/{a[1]}|{b[0]}/{b[1]}" for a, b in sides]
        first = len(nodes)
        assert dict(built.edge_junctions) == {
            **{a: first + j for j, (a, _) in enumerate(sides)},
            **{b: first + j for j, (_, b) in enumerate(sides)}}
        crossed = {k for side in sides for k in side}
        whole = [(h, p) for h, p in sorted(paths) if all(
            ((h, i) in crossed) if kind == "edge" else ((h, i) in nodes)
            for kind, i in board.geometry(h).paths[p].ends)]
        assert list(built.segment_paths) == whole
        blocked = {n for n in nodes if board.blocks(n[0], n[1], corp.sym)}
        assert {built.stop_ids[i] for i, s in enumerate(built.problem.stops) if s.route_end_only} \
            >= {f"{h}-{i}" for h, i in blocked}


def test_order_keys_sort_as_the_hex_index_keys_do() -> None:
    """``order_key`` stands for (hex, index) when a problem lists paths and sides."""
    keys = [(h, i) for h in STATES[0].data.hexes for i in range(12)] + [("C1", 2), ("C11", 0)]
    assert sorted(keys, key=lambda k: order_key(*k)) == sorted(keys)
    assert len({order_key(*k) for k in keys}) == len(set(keys))
