"""The adversarial search's yardstick reaches every board (issue 35, item 2).

``benchmarks.adversarial.listing_steps`` counts the pair listing's partial routes; it
failed on every board of more than 64 reduced nodes (the numpy listing's one-word
masks), so growth by it never reached where the solver was slow. Its Python count
(``count_partial_routes``, no width) must equal the numpy listing's on boards both
sides of 64 nodes, and the count must answer on boards past the listing's declared
width (``capacity.MASK_WORDS``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.adversarial import board_size, count_partial_routes, listing_steps
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing import capacity
from route18xx.solver.listing.pairvector import Lister
from route18xx.solver.model.model import Instance
from tests.solver.boards import grid_problem

BOARDS = Path(__file__).resolve().parents[1] / "data" / "boards"


def _numpy_count(instance: Instance, max_cost: int) -> int:
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    assert lister.list(max_cost, instance.problem.min_stops, 10**7) is not None
    return sum(len(parent) for parent, _ in lister.layers)


@pytest.mark.parametrize("shape", [(6, 8), (7, 10), (9, 12)])
@pytest.mark.parametrize("cost", [2, 4])
def test_the_python_count_is_the_numpy_listings(shape: tuple[int, int], cost: int) -> None:
    problem = grid_problem(*shape, (cost, cost), seed=sum(shape) + cost)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    count = count_partial_routes(instance, cost, 10**7)
    assert count == _numpy_count(instance, cost)
    assert count_partial_routes(instance, cost, count - 1) == count  # past the cap: cap + 1


def test_the_count_answers_on_every_board_of_tests_data_boards_past_64_nodes() -> None:
    wide = [p for p in sorted(BOARDS.glob("*.json"))
            if json.loads(p.read_text())["meta"].get("size", {}).get("nodes", 0) > 64]
    assert wide, "tests/data/boards has boards past 64 reduced nodes"
    for path in wide[:2]:
        state = json.loads(path.read_text())["state"]
        assert board_size(state)["nodes"] > capacity.WORD_BITS
        assert 0 < listing_steps(state, cap=50_000) <= 50_001


def test_the_count_answers_past_the_listings_declared_width(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A board the numpy listing may not hold (``fits`` false) is counted in Python."""
    problem = grid_problem(7, 10, (2, 2), seed=1)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    want = _numpy_count(instance, 2)
    monkeypatch.setattr(capacity, "MASK_WORDS", 1)
    assert not capacity.fits(instance.graph, instance.groups)
    assert count_partial_routes(instance, 2, 10**7) == want


def test_growth_reaches_1830s_late_states() -> None:
    """Issue 35: ``grow --bases late1830`` starts from 1830's phase-D real states (a map
    larger than 1888's north map), named ``1830:NAME``, and grows them by size."""
    from benchmarks.adversarial import base_state, grow_by_size, late_bases_1830

    bases = late_bases_1830()
    assert bases and all(b.startswith("1830:") for b in bases)
    assert all(base_state(b)["title"] == "1830" and base_state(b)["phase"] == "D" for b in bases)
    board = grow_by_size(1, 2, "nodes", [["D", "D"]], bases, 2)
    assert board["state"]["title"] == "1830" and board["state"]["trains"] == ["D", "D"]
    assert board["meta"]["size"] == board_size(board["state"])
