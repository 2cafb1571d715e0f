"""Both objectives of an answer, the second searched above a floor (issue 21 item 4).

Every figure is checked against the reference's independent optima
(``tests/data/states``): the best total, the best revenue and the most subsidy at
that revenue. The floor search does the work only where a different answer could
be: its CP-SAT branches are compared with a plain search's (counts, not times).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import parse_state
from route18xx.solver import clear_caches, solve
from route18xx.engine.answer import tuning
from tests.conftest import STATES_DIR


def _load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    data = json.loads((STATES_DIR / f"{name}.json").read_text())
    return data["state"], data["reference"]


def _both(report: Any) -> tuple[dict[str, int], dict[str, int]]:
    """(best total, best revenue) as revenue/subsidy pairs, from an answer."""
    chosen = report.objectives
    if chosen is None:  # the two coincide
        same = {"revenue": report.revenue, "subsidy": report.subsidy}
        return same, same
    return ({"revenue": chosen.total.revenue, "subsidy": chosen.total.subsidy},
            {"revenue": chosen.revenue.revenue, "subsidy": chosen.revenue.subsidy})


@pytest.mark.parametrize("name, objective, solves", [
    # one D through the mine; a better revenue runs elsewhere (the mine avoided): both
    # objectives from one search (solver/both.py)
    ("129026-693", "total", ["answer"]),
    # one D through the mine, which is also the best revenue: one search too
    ("129026-614", "total", ["answer"]),
    # the best revenue skips the mine; the best total from the same search
    ("129026-693", "revenue", ["answer"]),
    # 4 + 5, one of them through the mine
    ("129026-447", "total", ["answer", "objectives.revenue"]),
    # a state whose best total pays no subsidy: one solve
    ("129026-296", "total", ["answer"]),
])
def test_both_objectives_match_the_reference(name: str, objective: str, solves: list[str]) -> None:
    state, reference = _load(name)
    report = api.solve_report(state, objective=objective, time_limit_s=10.0)
    assert [s.purpose for s in report.stats.solves] == solves
    assert all(s.status == "OPTIMAL" for s in report.stats.solves)
    total, revenue = _both(report)
    assert total["revenue"] + total["subsidy"] == reference["optimal_total"]
    assert revenue["revenue"] == reference["optimal_revenue"]
    assert revenue["subsidy"] == reference["optimal_revenue_best_subsidy"]
    if len(solves) == 2:
        assert report.stats.solves[1].floor > 0


@pytest.mark.parametrize("name, objective", [
    ("129026-693", "total"), ("129026-693", "revenue"), ("129026-728", "total"),
    ("129026-614", "total"), ("129026-658", "revenue"),
])
def test_one_search_answers_both_objectives_as_two_did(
    name: str, objective: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lone D's two objectives from one walk (solver/both.py) against the two searches
    # it replaces (no walk steps: both searches of engine/answer/objectives.py, the second above
    # its floor, by CP-SAT's circuit) and the reference's independent optima.
    state, reference = _load(name)
    clear_caches()
    one = api.solve_report(state, objective=objective, time_limit_s=10.0)
    assert [s.purpose for s in one.stats.solves] == ["answer"]
    monkeypatch.setattr(tuning, "SOLVE_OPTIONS", replace(tuning.SOLVE_OPTIONS, reach_steps=0))
    clear_caches()
    try:
        two = api.solve_report(state, objective=objective, time_limit_s=10.0)
    finally:
        clear_caches()
    assert len(two.stats.solves) in (1, 2)
    for report in (one, two):
        total, revenue = _both(report)
        assert total["revenue"] + total["subsidy"] == reference["optimal_total"]
        assert (revenue["revenue"], revenue["subsidy"]) == (
            reference["optimal_revenue"], reference["optimal_revenue_best_subsidy"])
    figures = [[(b["revenue"], b["subsidy"]) for b in _both(r)]
               for r in (one, two)]
    assert figures[0] == figures[1]  # the routes may differ among tied optima
    assert (one.revenue, one.subsidy, one.proven_optimal) == (two.revenue, two.subsidy, True)


@pytest.mark.parametrize("name", ["129026-614", "129026-658", "129026-693"])
def test_the_floor_search_does_less_work_than_a_plain_one(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # These lone D trains are answered by the branch and bound (solver/listing/bestreach.py)
    # with no CP-SAT branch; without it (no steps) the circuit's floor search is measured.
    monkeypatch.setattr(tuning, "SOLVE_OPTIONS", replace(tuning.SOLVE_OPTIONS, reach_steps=0))
    clear_caches()
    state, _ = _load(name)
    report = api.solve_report(state, time_limit_s=10.0)
    floor_search = report.stats.solves[1]
    plain = solve(build_problem(parse_state(state)).problem, objective="revenue",
                  options=tuning.SOLVE_OPTIONS)
    assert floor_search.branches < plain.stats.branches
    clear_caches()  # the routes listed without the branch and bound


def test_every_real_answer_has_both_optima_of_the_reference() -> None:
    """All 123 real states, both objectives: the answer and its ``objectives``
    (or their absence: the two coincide) give the reference's best total, best
    revenue and the most subsidy at that revenue."""
    wrong = []
    for path in sorted(STATES_DIR.glob("*.json")):
        data = json.loads(path.read_text())
        reference = data["reference"]
        for objective in ("total", "revenue"):
            report = api.solve_report(data["state"], objective=objective, time_limit_s=10.0)
            total, revenue = _both(report)
            got = (report.proven_optimal, total["revenue"] + total["subsidy"],
                   revenue["revenue"], revenue["subsidy"])
            want = (True, reference["optimal_total"], reference["optimal_revenue"],
                    reference["optimal_revenue_best_subsidy"])
            if got != want:
                wrong.append((path.stem, objective, got, want))
    assert not wrong
