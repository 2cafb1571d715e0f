"""The network walk read from compiled tile pieces (engine/board/arrivals.py, engine/board/network.py,
issue 21) against a walk written here path by path from the rules.

The witness walk below follows ROUTES.md §3.8 / RULES.md §6.5 #3 one tile path at a
time with the board's single-step questions (``geometry``, ``linked``, ``blocks``):
from each token city, take every path at a node or edge arrived at; cross a side
when both sides carry track (§3.7); stop at nodes that block the company. The
problem's junctions are then the reached sides with track on both sides, and its
segments the reached paths with both ends on a stop or a junction, in board-key
order. Nothing here calls ``engine.arrivals`` or ``engine.network``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Iterable

import pytest

from route18xx.engine.board.arrivals import order_key
from route18xx.engine.board.board import Board, EdgeKey
from route18xx.engine.board.network import reach
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import RouteState, parse_state
from tests.conftest import STATES_DIR

Key = tuple[str, int]


def _witness_walk(
    board: Board, corp: str, starts: Iterable[Key] | None = None, limit: int | None = None
) -> tuple[set[Key], set[Key], set[EdgeKey]]:
    """Depth first, path by path, in tile order (the order matters only with ``limit``)."""
    nodes: set[Key] = set()
    paths: set[Key] = set()
    edges: set[EdgeKey] = set()
    entered: set[EdgeKey] = set()
    stack: list[tuple[bool, Key]] = []
    for city in board.token_cities(corp) if starts is None else starts:
        nodes.add(city)
        stack.append((True, city))
    while stack and (limit is None or len(nodes) < limit):
        at_node, (hex_id, index) = stack.pop()
        geo = board.geometry(hex_id)
        if at_node and board.blocks(hex_id, index, corp):
            continue
        for path in (geo.at_node if at_node else geo.at_edge).get(index, ()):
            if (hex_id, path.index) in paths:
                continue
            paths.add((hex_id, path.index))
            for kind, i in path.ends:
                if kind == "edge":
                    edges.add((hex_id, i))
                    other = board.linked((hex_id, i))
                    if other is not None and other not in entered:
                        entered.add(other)
                        edges.add(other)
                        stack.append((False, other))
                elif (hex_id, i) not in nodes:
                    nodes.add((hex_id, i))
                    stack.append((True, (hex_id, i)))
    return nodes, paths, edges


def _states() -> list[RouteState]:
    return [parse_state(json.loads(p.read_text())["state"]) for p in sorted(STATES_DIR.glob("*.json"))]


STATES = _states()


def _fresh(board: Board) -> Board:
    return Board(board.placed, board.tokens, board.data)


def test_reach_is_the_path_by_path_walk_for_every_company_on_every_state() -> None:
    corps = sorted(STATES[0].data.corporations)
    seen = 0
    for state in STATES:
        board = _fresh(state.board)
        for corp in corps:
            net = reach(board, corp)
            assert (set(net.nodes), set(net.paths), set(net.edges)) == _witness_walk(board, corp)
            seen += bool(net.paths)
    assert seen > len(STATES)  # most companies run on most boards: the walks did walk


def test_a_walk_with_a_limit_stops_where_the_path_by_path_walk_stops() -> None:
    """ROUTES.md §8 asks a walk from one city whether it reaches a second node: the
    nodes found when it stops depend on the order, which must be the witness's."""
    checked = 0
    for state in STATES[::4]:
        board = _fresh(state.board)
        for corp in sorted(state.data.corporations):
            for city in board.token_cities(corp):
                for limit in (2, 3):
                    got = reach(board, corp, starts=(city,), limit=limit)
                    assert set(got.nodes) == _witness_walk(board, corp, (city,), limit)[0]
                    checked += 1
    assert checked > 100


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
