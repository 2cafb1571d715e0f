"""``solve(floor=...)``: only answers reaching the floor (issue 21 item 4).

The expected optima are the reference's (``tests/data/states``: an independent
exact solver, cross-checked by brute force), not this solver's: with the floor at
the optimum the answer is that optimum; one above it is proven ``INFEASIBLE``.
The states cover each way the solver answers: a lone listed train (best route),
trains all listed (packing), a lone D circuit and a CP-SAT model of two trains.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import parse_state
from route18xx.solver import RouteProblem, solve
from route18xx.solver.problem import Segment, Stop, Train
from tests.conftest import STATES_DIR

STATES = ("129026-654", "129026-296", "129026-576", "129026-447")


def _problem(name: str) -> tuple[RouteProblem, dict[str, Any]]:
    data = json.loads((STATES_DIR / f"{name}.json").read_text())
    return build_problem(parse_state(data["state"])).problem, data["reference"]


@pytest.mark.parametrize("name", STATES)
@pytest.mark.parametrize("objective", ["total", "revenue"])
def test_a_floor_at_the_optimum_keeps_it_one_above_is_infeasible(name: str, objective: str) -> None:
    problem, reference = _problem(name)
    best = reference["optimal_total" if objective == "total" else "optimal_revenue"]
    at = solve(problem, objective=objective, floor=best)  # type: ignore[arg-type]
    assert at.status == "OPTIMAL" and at.objective == best
    if objective == "revenue":
        assert at.subsidy == reference["optimal_revenue_best_subsidy"]
    above = solve(problem, objective=objective, floor=best + 1)  # type: ignore[arg-type]
    assert (above.status, above.routes, above.bound) == ("INFEASIBLE", (), best)


def test_a_floor_on_a_tiny_board() -> None:
    p = RouteProblem(stops=(Stop("A", 20, station=True), Stop("B", 30)), junctions=(),
                     segments=(Segment(0, 1, -1, -1, "ab"),), trains=(Train("2", 2),))
    assert solve(p, floor=50).revenue == 50
    assert solve(p, floor=51).status == "INFEASIBLE"
    assert solve(p, floor=0).status == "OPTIMAL"
