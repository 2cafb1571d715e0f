"""The hard legal 1888 boards (tests/data/boards, issue 11 items 2-3).

* with a long time limit the solver proves each board's recorded optimum;
* with 20 ms every board still gets legal routes (re-checked by the engine in
  ``optimize``) and an honest bound: the greedy answer when CP-SAT has none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.optimize import optimize
from route18xx.engine.state_file import parse_state

BOARDS = Path(__file__).resolve().parent.parent / "data" / "boards"
#: file → proven optimum (revenue, subsidy), recorded with the solver as of issue 11
OPTIMA = json.loads((BOARDS / "optima.json").read_text("utf-8"))


def _board(name: str) -> dict[str, Any]:
    state: dict[str, Any] = json.loads((BOARDS / name).read_text("utf-8"))["state"]
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OPTIMA))
def test_the_solver_proves_the_recorded_optimum(name: str) -> None:
    opt = optimize(parse_state(_board(name)), time_limit_s=120.0)
    sol = opt.solution
    assert sol.status == "OPTIMAL"
    assert [sol.revenue, sol.subsidy] == OPTIMA[name]


@pytest.mark.parametrize("name", sorted(OPTIMA))
def test_twenty_milliseconds_still_give_legal_routes_and_a_bound(name: str) -> None:
    opt = optimize(parse_state(_board(name)), time_limit_s=0.02)
    sol = opt.solution
    assert sol.status in ("OPTIMAL", "FEASIBLE")
    assert sol.routes
    assert opt.judgement.legal
    assert sol.objective <= sum(OPTIMA[name]) <= sol.bound
