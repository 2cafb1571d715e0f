"""The optimum on the 123 real decisions (issue 3 "Done when"): exact values from
an independent exact solver, every answer proven and accepted by the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.answer.optimize import Optimum, optimize
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import load_json, state_files


def _proven(path: Path, objective: str) -> tuple[Optimum, dict[str, Any]]:
    """The state file's optimum for ``objective`` (proven, and legal for the engine), and
    the file's reference figures."""
    data = load_json(path)
    opt = optimize(parse_state(data["state"]), objective=objective)
    assert opt.solution.status == "OPTIMAL"
    assert opt.judgement.legal
    return opt, data["reference"]


@pytest.mark.parametrize("path", state_files(), ids=lambda p: p.stem)
def test_revenue_objective_matches_reference(path: Path) -> None:
    opt, ref = _proven(path, "revenue")
    assert opt.judgement.revenue == ref["optimal_revenue"]
    assert opt.judgement.subsidy == ref["optimal_revenue_best_subsidy"]


@pytest.mark.parametrize("path", state_files(), ids=lambda p: p.stem)
def test_total_objective_matches_reference(path: Path) -> None:
    opt, ref = _proven(path, "total")
    assert opt.judgement.revenue + opt.judgement.subsidy == ref["optimal_total"]
    assert opt.judgement.revenue + opt.judgement.subsidy >= (
        ref["recorded_revenue"] + ref["recorded_subsidy"]
    )


def test_mine_beats_player_and_autorouter_in_five_states() -> None:
    """In 5 real states a train through the mine beats both the player and the auto-router."""
    better = []
    for path in state_files():
        ref = load_json(path)["reference"]
        if ref["optimal_total"] > max(
            ref["recorded_revenue"] + ref["recorded_subsidy"],
            ref["autorouter_revenue"] + ref["autorouter_subsidy"],
        ):
            opt = optimize(parse_state(load_json(path)["state"]), objective="total")
            assert opt.judgement.subsidy > 0
            better.append(path.stem)
    assert len(better) == 5


def test_solving_without_trains_is_malformed() -> None:
    from route18xx.engine.api import solve_routes
    from route18xx.engine.errors import MalformedInput
    from tests.conftest import STATES_DIR

    raw = dict(load_json(STATES_DIR / "129026-138.json")["state"], trains=[])
    with pytest.raises(MalformedInput) as exc:
        solve_routes(raw)
    assert (exc.value.field, exc.value.reason) == ("trains", "the company has no trains")


def test_warm_up_solves_the_worked_example() -> None:
    from route18xx.engine.api import solve_routes, warm_up
    from route18xx.engine.titles import TITLES

    warm_up()  # every title's warm-up state (issue 25: the title's, not api's)
    assert solve_routes(TITLES["1888"].warm_up_state)["revenue"] == 90  # ROUTES.md §7 example 1


def test_warm_up_leaves_cp_sat_loaded_and_nothing_counted() -> None:
    """A fresh process after ``warm_up`` has OR-Tools' CP-SAT extension loaded (the first
    hard board's answer paid its ~0.1 s import when the warm-up board never reached
    CP-SAT: issue 21), and its solves are not in the solve tally."""
    import os
    import subprocess
    import sys

    code = ("import sys\n"
            "from route18xx.engine.api import solve_tally, warm_up\n"
            "solve_tally.enable()\n"
            "warm_up()\n"
            "print('ortools.sat.python.cp_model_helper' in sys.modules, len(solve_tally.take()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120, check=True).stdout.split()
    assert out == ["True", "0"]
