"""The engine-level witness on hand-computed boards (ROUTES.md §7 example 1).

Expected values are worked out by hand from ROUTES.md, not by running the solver.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from route18xx.engine.inputs.state_file import parse_state
from route18xx.engine.answer.witness import company_network, runs, track_network, witness
from tests.engine.test_routes import WORKED_EXAMPLE_STATE


def state(**changes: Any) -> Any:
    raw = copy.deepcopy(WORKED_EXAMPLE_STATE)
    raw.update(changes)
    return parse_state(raw)


def test_the_track_network_of_the_worked_example() -> None:
    """F16 → G15 (tile 9, straight) → H14 (tile 5) → H16: one line of track."""
    graph = company_network(state().board, "LYR")
    centres = sorted(n for n in graph if n[0] == "node")
    assert centres == [("node", "F16", 0), ("node", "H14", 0), ("node", "H16", 0)]
    listed = sorted((r.stops, r.connections) for r in runs(graph))
    assert listed == [
        (("F16-0", "H14-0"), (("F16", "G15", "H14"),)),
        (("F16-0", "H14-0", "H16-0"), (("F16", "G15", "H14"), ("H14", "H16"))),
        (("H14-0", "H16-0"), (("H14", "H16"),)),
    ]
    # The whole board's network is bigger: preprinted track elsewhere is not LYR's.
    assert track_network(state().board).number_of_nodes() > graph.number_of_nodes()


@pytest.mark.parametrize("objective", ["total", "revenue"])
def test_worked_example_lyr_harbour_destination_is_90(objective: str) -> None:
    """40 + 20 + 10 (harbour free of distance) + 20 destination bonus = ¥90."""
    found = witness(state(), objective=objective)
    assert found is not None
    assert (found.revenue, found.subsidy, found.objective) == (90, 0, 90)
    (spec,) = found.specs
    assert spec.nodes == ("F16-0", "H14-0", "H16-0")
    assert spec.connections == (("F16", "G15", "H14"), ("H14", "H16"))


def test_a_second_train_finds_no_free_hex_side() -> None:
    """Two 2-trains: the only track is taken by the first (ROUTES.md §3.7), still ¥90."""
    found = witness(state(trains=["2", "2"]))
    assert found is not None
    assert (found.objective, len(found.specs)) == (90, 1)


def test_without_a_station_nothing_runs() -> None:
    found = witness(state(tokens=[]))
    assert found is not None
    assert (found.objective, found.specs, found.runs) == (0, (), 0)


def test_too_many_runs_is_no_answer() -> None:
    assert witness(state(), max_runs=2) is None
