"""A call's budget is the call's (issue 21 item 4).

``time_limit_s`` bounds the whole solve answer: every solve it makes (the
answer's own, each train set, the other objective) stops at one shared
deadline; ``solve_ms`` is the engine's time of the whole answer, and
``stats["solves"]`` lists each solve with its own time.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.answer import prepared as whatif
from route18xx.engine.answer.budget import AnswerBudget
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import parse_state
from route18xx.server.convert import converters
from route18xx.solver import CancelToken, Solution, solve
from route18xx.solver.model.model import Instance, build_model
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.search import _search
from tests.conftest import STATES_DIR

BOARDS = STATES_DIR.parent / "boards"
#: Phase 6, HJR runs 4 + 5 on a board with the mine: the best total and the best
#: revenue differ (two solves), and a 4 + 4 set is legal beside them.
MINE_STATE = "129026-447"


def _state(name: str) -> dict[str, Any]:
    return dict(json.loads((STATES_DIR / f"{name}.json").read_text())["state"])


class Recorder:
    """Wraps the solver as ``engine.answer.prepared`` calls it and notes what each solve was given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[dict[str, Any]] = []

    def __call__(self, problem: Any, *, objective: str, time_limit_s: float,
                 cancel: CancelToken, **options: Any) -> Solution:
        self.calls.append({"objective": objective, "time_limit_s": time_limit_s,
                           "token": cancel, "left": cancel.time_left()})
        return self.inner(problem, objective=objective,  # type: ignore[no-any-return]
                          time_limit_s=time_limit_s, cancel=cancel, **options)


def test_every_solve_of_an_answer_shares_one_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(solve)
    monkeypatch.setattr(whatif, "solve", recorder)
    before = time.monotonic()
    report = api.solve_report(_state(MINE_STATE), time_limit_s=7.0, train_sets=[["4", "4"]])
    after = time.monotonic()
    wall_ms = (after - before) * 1000
    purposes = [s.purpose for s in report.stats.solves]
    assert purposes == ["answer", "train_sets[0]", "objectives.revenue"]
    assert report.objectives is not None
    assert len(recorder.calls) == 3
    tokens = {id(c["token"]) for c in recorder.calls}
    assert len(tokens) == 1  # one token, one deadline, for every solve
    deadline = recorder.calls[0]["token"].deadline
    assert before + 7.0 <= deadline <= after + 7.0  # the limit from the answer's start
    # each solve is handed the request's limit (its search plan), not what is left
    assert [c["time_limit_s"] for c in recorder.calls] == [7.0, 7.0, 7.0]
    # solve_ms is the whole answer: at least every solve's own time, at most the call
    own = sum(s.solve_ms for s in report.stats.solves)
    assert own <= report.solve_ms <= wall_ms
    assert all(s.status == "OPTIMAL" for s in report.stats.solves)


def test_time_limit_bounds_the_whole_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in search that runs until its deadline: the first solve uses the whole
    budget, so the others find it spent instead of getting a limit of their own."""

    def slow(problem: Any, *, objective: str, time_limit_s: float,
             cancel: CancelToken, **options: Any) -> Solution:
        end = time.monotonic() + time_limit_s
        if cancel.deadline is not None:
            end = min(end, cancel.deadline)
        while time.monotonic() < end and not cancel.cancelled:
            time.sleep(0.002)
        return Solution((), 0, 0, "FEASIBLE", 0, 100)

    recorder = Recorder(slow)
    monkeypatch.setattr(whatif, "solve", recorder)
    # the answer and two train sets (the answer is not proven: no second objective)
    report = api.solve_report(_state(MINE_STATE), time_limit_s=0.2,
                              train_sets=[["4", "4"], ["4"]])
    lefts = [c["left"] for c in recorder.calls]
    assert len(lefts) == 3
    assert lefts[0] > 0 and all(left <= 0 for left in lefts[1:]), lefts
    assert report.solve_ms >= 200  # the first solve alone used the budget
    assert [s.status for s in report.stats.solves] == ["FEASIBLE"] * 3


def test_the_budget_follows_the_callers_token() -> None:
    parent = CancelToken(time.monotonic() + 5.0)
    with AnswerBudget(60.0, parent) as budget:
        assert budget.token.deadline == parent.deadline  # the caller's, sooner
        assert not budget.token.cancelled
        parent.cancel()
        assert budget.token.cancelled
    cancelled = CancelToken()
    cancelled.cancel()
    with AnswerBudget(1.0, cancelled) as budget:
        assert budget.token.cancelled


def test_a_tokens_deadline_ends_the_search() -> None:
    """The search stops at its token's deadline even with a long ``time_limit_s``:
    a 5 + D board searched in one stage, which takes CP-SAT well over 50 ms to
    prove (~0.25 s of CPU), is cut there. Built as circuits: the two trains' pair
    scan (``solver/listing/pairs.py``) would answer it without CP-SAT.
    (The model is built beforehand, so that the deadline falls in the search.)"""
    board = json.loads((BOARDS / "grown-032-HJR-5D.json").read_text())["state"]
    problem = build_problem(parse_state(board)).problem
    built = build_model(Instance.make(problem, reduce_problem(problem), "total"), "circuit")
    started = time.monotonic()
    response, searched, _, _ = _search(built, 60.0, 1, 0, CancelToken(started + 0.05))
    assert searched and response is not None
    assert response.status.name in ("FEASIBLE", "UNKNOWN")  # cut: not proven
    assert time.monotonic() - started < 30  # not the 60 s limit


def test_solve_timings_cross_the_wire() -> None:
    report = api.solve_report(_state(MINE_STATE), time_limit_s=5.0)
    msg = converters.solve_report_to_proto(report)
    assert [t.purpose for t in msg.stats.solves] == ["answer", "objectives.revenue"]
    assert msg.solve_ms == report.solve_ms
    back = converters.solve_report_from_proto(msg)
    assert back["stats"]["solves"] == report.to_json()["stats"]["solves"]
    assert converters.typed_solve_report(msg).stats.solves == report.stats.solves


def _reference(name: str) -> dict[str, Any]:
    return dict(json.loads((STATES_DIR / f"{name}.json").read_text())["reference"])


@pytest.mark.parametrize("name, solves", [
    # one D through the mine earns the best revenue and every subsidy a train can:
    # the best total is settled by the bound, no second solve
    ("129026-658", ["answer"]),
    # the best revenue skips the mine: the best total from the same search (one D:
    # solver/both.py)
    ("129026-693", ["answer"]),
])
def test_a_best_revenue_with_every_subsidy_is_the_best_total(name: str, solves: list[str]) -> None:
    reference = _reference(name)
    report = api.solve_report(_state(name), objective="revenue", time_limit_s=10.0)
    assert [s.purpose for s in report.stats.solves] == solves
    assert report.revenue == reference["optimal_revenue"]
    best_total = report.objectives.total if report.objectives is not None else None
    total = best_total.revenue + best_total.subsidy if best_total else (
        report.revenue + report.subsidy)
    assert total == reference["optimal_total"]  # the independent solver's figure


def test_pins_share_the_budget_too(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(solve)
    monkeypatch.setattr(whatif, "solve", recorder)
    pin = _reference(MINE_STATE)["recorded_routes"][:1]  # the player's first route, pinned
    report = api.solve_report(_state(MINE_STATE), time_limit_s=7.0, pinned_routes=pin)
    assert [s.purpose for s in report.stats.solves] == ["answer", "unpinned"]
    assert report.pinned is not None
    assert len({id(c["token"]) for c in recorder.calls}) == 1
    assert sum(s.solve_ms for s in report.stats.solves) <= report.solve_ms
