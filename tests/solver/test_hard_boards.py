"""The hard legal boards of tests/data/boards (issue 11, items 1 and 2).

Each board's optimum was recorded by a long run of the solver before issue 11
(``meta.reference``), or for the ``size-*`` boards (issue 35) by the independent model,
CP-SAT's circuits for every train (``benchmarks.adversarial reference``); the current
solver must prove the same value, and with a 20 ms time limit still return legal routes
and an honest bound. The boards lie on both sides of the numpy listing's one-word edge
(64 reduced nodes, ``capacity.WORD_BITS``), with two unlimited trains.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.api import solve_routes

BOARDS = sorted((Path(__file__).resolve().parents[1] / "data" / "boards").glob("*.json"))


def _board(path: Path) -> dict[str, Any]:
    board: dict[str, Any] = json.loads(path.read_text())
    return board


def test_boards_lie_on_both_sides_of_the_one_word_edge() -> None:
    """Issue 35: boards of 60-64 reduced nodes (one word) and 65-100 (two), D + D, each
    with its size recorded as ``benchmarks.adversarial.board_size`` measures it now."""
    from benchmarks.adversarial import board_size
    from route18xx.solver.listing.capacity import WORD_BITS

    sized = [_board(p) for p in BOARDS if "size" in _board(p)["meta"]]
    for board in sized:
        assert board_size(board["state"]) == board["meta"]["size"]
    nodes = [b["meta"]["size"]["nodes"] for b in sized if b["meta"]["trains"] == ["D", "D"]]
    assert any(60 <= n <= WORD_BITS for n in nodes)
    assert sum(WORD_BITS < n <= 100 for n in nodes) >= 2


def test_boards_of_both_titles_lie_past_the_one_word_edge() -> None:
    """Issue 35: D + D boards grown by size on 1830's map (larger than 1888's north map) as
    on 1888's, at 64 reduced nodes and past it."""
    from route18xx.solver.listing.capacity import WORD_BITS

    sized = [_board(p) for p in BOARDS if "size" in _board(p)["meta"]]
    for title in ("1888", "1830"):
        nodes = [b["meta"]["size"]["nodes"] for b in sized if b["state"]["title"] == title
                 and b["meta"]["trains"] == ["D", "D"]]
        assert any(n > WORD_BITS for n in nodes), title
    assert any(b["meta"]["size"]["nodes"] == WORD_BITS for b in sized)


def test_there_are_enough_hard_boards() -> None:
    assert len([p for p in BOARDS if p.name.startswith("grown-")]) >= 30
    kinds = {"".join(_board(p)["meta"]["trains"]) for p in BOARDS}
    assert {"DD", "6D", "5D", "56", "66"} <= kinds


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_the_optimum_matches_the_reference(path: Path) -> None:
    board = _board(path)
    report = solve_routes(board["state"], time_limit_s=60.0)
    reference = board["meta"]["reference"]
    assert reference["status"] == "OPTIMAL"
    assert report["status"] == "OPTIMAL"
    assert report["revenue"] + report["subsidy"] == reference["total"]


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_20_ms_still_gives_legal_routes_and_an_honest_bound(path: Path) -> None:
    board = _board(path)
    report = solve_routes(board["state"], time_limit_s=0.02)  # the engine re-checks the routes
    total = board["meta"]["reference"]["total"]
    assert report["status"] in ("OPTIMAL", "FEASIBLE")
    assert report["routes"]
    assert 0 < report["revenue"] + report["subsidy"] <= total <= report["bound"]
