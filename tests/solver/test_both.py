"""Both objectives of a lone unlimited train from one walk (solver/listing/bothreach.py,
solver/both.py; issue 21 item 4).

Witness: the exhaustive enumerator ``solver/witnesses/bruteforce.py``, which shares no code
with the walk, run once per objective; and the engine's validator.
"""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.solver import RouteProblem, clear_caches, solve_both
from route18xx.solver.tuning import DEFAULT_OPTIONS
from route18xx.solver.listing.bothreach import best_reach_both
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.model.model import Instance
from route18xx.solver.problem import Stop, Train
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import grid_problem
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "60"))


def _weight(inst: Instance, objective: str, revenue: int, subsidy: int) -> int:
    """A brute-force answer as the walk's weight (``model.Instance``)."""
    return revenue * inst.scale + subsidy if objective == "revenue" else revenue + subsidy


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems())
def test_the_walk_finds_both_objectives_best_routes_as_brute_force(
    problem: RouteProblem,
) -> None:
    lone = replace(problem, trains=(Train("D", None),))
    graph = reduce_problem(lone)
    instances = {o: Instance.make(lone, graph, o) for o in ("total", "revenue")}
    want = {o: brute_force(lone, objective=o) for o in instances}
    for first, second in (("total", "revenue"), ("revenue", "total")):
        a, b = instances[first], instances[second]
        found = best_reach_both(graph, a.stops, (a.stop_weights, a.bonuses),
                                (b.stop_weights, b.bonuses), lone.min_stops, a.groups, 10**7)
        assert found is not None
        for routes, inst, objective in zip(found, (a, b), (first, second)):
            best = want[objective]
            weight = _weight(inst, objective, best.revenue, best.subsidy)
            assert [inst.route_weight(r.stops) for r in routes] == ([weight] if weight > 0
                                                                    else [])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.sampled_from([None, None, 1, 2, 3, 4]))
def test_solve_both_answers_as_brute_force_does(
    problem: RouteProblem, distance: int | None,
) -> None:
    # a lone D (one walk for both) or a lone limited train (two walks, one board)
    lone = replace(problem, trains=(Train("T", distance),))
    for objective, other in (("total", "revenue"), ("revenue", "total")):
        clear_caches()
        answers = solve_both(lone, objective=objective)
        assert answers is not None
        for got, goal in zip(answers, (objective, other)):
            want = brute_force(lone, objective=goal)
            assert got.status == "OPTIMAL"
            assert validate(lone, got, goal) == []
            assert got.objective == got.bound == want.objective
            if goal == "revenue":  # the most subsidy at the best revenue, too
                assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy)


def test_only_a_lone_train_is_answered_here() -> None:
    problem = grid_problem(3, 3, (None,), seed=1)
    assert solve_both(problem) is not None
    assert solve_both(replace(problem, trains=(Train("6", 6),))) is not None
    assert solve_both(replace(problem, trains=(Train("D", None), Train("D", None)))) is None
    assert solve_both(replace(problem, trains=(Train("4", 4), Train("D", None)))) is None


def test_a_walk_past_its_budget_or_cancelled_leaves_the_answer_to_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = grid_problem(4, 5, (None,), seed=0)
    clear_caches()
    try:  # gave up: the caller solves each objective
        assert solve_both(problem, options=replace(DEFAULT_OPTIONS, reach_steps=3)) is None
    finally:
        clear_caches()
    monkeypatch.undo()
    token = CancelToken()
    token.cancel()
    assert solve_both(problem, cancel=token) is None
    clear_caches()
    assert solve_both(problem) is not None


@pytest.mark.parametrize("distance", [None, 3])
def test_both_optima_on_a_board_where_they_differ(distance: int | None) -> None:
    # A station at the crossing of three arms, one of them a mine (subsidy 40, no
    # revenue): one route runs two arms (a D, or a 3-train: three stops). By hand:
    # the best total takes the mine (20 + 30 + 40 = 90 against 20 + 30 + 10 = 60), the
    # best revenue the two towns (60: just one step of 10 above the first's 50).
    from route18xx.solver.problem import Segment

    problem = RouteProblem(
        stops=(Stop("A", 20, station=True), Stop("B", 30), Stop("C", 10),
               Stop("M", 0, subsidy=40)),
        junctions=(), segments=(Segment(0, 1, -1, -1, "ab"), Segment(0, 2, -1, -1, "ac"),
                                Segment(0, 3, -1, -1, "am")),
        trains=(Train("T", distance),))
    for objective in ("total", "revenue"):
        clear_caches()
        answers = solve_both(problem, objective=objective)
        assert answers is not None
        total, revenue = answers if objective == "total" else answers[::-1]
        assert (revenue.revenue, revenue.subsidy, revenue.objective) == (60, 0, 60)
        assert (total.revenue, total.subsidy, total.objective) == (50, 40, 90)


def test_a_board_too_big_for_the_walk_is_left_to_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # SolveOptions.both_too_big: stops × independent cycles of the reduced graph
    problem = grid_problem(3, 4, (None,), seed=2)
    graph = reduce_problem(problem)
    size = graph.stop_count * (len(graph.segments) - graph.node_count + 1)
    assert 0 < size < DEFAULT_OPTIONS.both_too_big
    clear_caches()
    assert solve_both(problem) is not None
    clear_caches()
    assert solve_both(problem, options=replace(DEFAULT_OPTIONS, both_too_big=size)) is None
    clear_caches()
