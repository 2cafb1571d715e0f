"""Chains and stop breakdowns memoised per board (engine/routes/chains.py, engine/answer/explain.py,
issue 21): the same as computed afresh, per board (and phase), and a caller's list
never changes the memo."""

from __future__ import annotations

import json

from route18xx.engine.routes import chains
from route18xx.engine.api import solve_report
from route18xx.engine.board.board import Board
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import STATES_DIR


def _board(name: str) -> Board:
    return parse_state(json.loads((STATES_DIR / f"{name}.json").read_text())["state"]).board


def test_memoised_chains_equal_a_fresh_search_per_board() -> None:
    raw = json.loads((STATES_DIR / "129026-554.json").read_text())["state"]
    report = solve_report(raw)
    connections = [tuple(c) for r in report.routes for c in r.connections]
    assert connections
    early, late = _board("129026-138"), _board("129026-554")
    for conn in connections:
        fresh = chains._find_chains(late, conn)
        first = chains.find_chains(late, conn)
        assert first == fresh and fresh  # the answer's track is on its board
        first.clear()  # the caller's list: the memo keeps its own
        assert chains.find_chains(late, list(conn)) == fresh
        assert chains.find_chains(early, conn) == chains._find_chains(early, conn)
    assert any(chains.find_chains(early, c) != chains.find_chains(late, c) for c in connections)
    assert late in chains._FOUND and early in chains._FOUND


def test_memoised_stop_breakdowns_follow_the_board_and_the_phase() -> None:
    from dataclasses import replace

    from route18xx.engine.answer import explain

    late = parse_state(json.loads((STATES_DIR / "129026-554.json").read_text())["state"])
    nodes = [n for r in solve_report(late).routes for n in r.nodes]
    for node in nodes:
        assert explain.stop_breakdown(late, node) == explain._stop_breakdown(late, node)
    # the same board in another phase: its own entries, priced for that phase
    first = late.data.phases[0]
    assert first != late.phase
    earlier = replace(late, phase=first)
    for node in nodes:
        assert explain.stop_breakdown(earlier, node) == explain._stop_breakdown(earlier, node)
    assert any(explain.stop_breakdown(earlier, n).value != explain.stop_breakdown(late, n).value
               or explain.stop_breakdown(earlier, n).rule != explain.stop_breakdown(late, n).rule
               for n in nodes)


def test_memoised_stop_breakdowns_follow_the_tile_on_the_hex() -> None:
    """The memo is the game data's (issue 21: a board seen first reuses what other
    boards priced): the same node under another tile is its own entry."""
    from dataclasses import replace

    from route18xx.engine.answer import explain
    from route18xx.engine.board.board import Board, split_node_id

    late = parse_state(json.loads((STATES_DIR / "129026-554.json").read_text())["state"])
    nodes = [n for r in solve_report(late).routes for n in r.nodes]
    bare = replace(late, board=Board({}, late.board.tokens, late.data))  # preprinted tiles only
    changed = [n for n in nodes if late.board.tile_on(split_node_id(n)[0]).tile.name
               != bare.board.tile_on(split_node_id(n)[0]).tile.name
               and bare.board.revenue_center(*split_node_id(n)) is not None]
    assert changed
    for node in nodes:
        assert explain.stop_breakdown(late, node) == explain._stop_breakdown(late, node)
    for node in changed:
        assert explain.stop_breakdown(bare, node) == explain._stop_breakdown(bare, node)
    assert any(explain.stop_breakdown(bare, n).rule != explain.stop_breakdown(late, n).rule
               for n in changed)
