"""A lone unlimited train's best route by branch and bound on reach (solver/listing/bestreach.py).

Witnesses: the full listing of ``solver/listing/routes.py`` (every legal route, weighed),
and the exhaustive enumerator ``solver/witnesses/bruteforce.py`` through ``solve``.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings

from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import parse_state
from route18xx.solver import RouteProblem, clear_caches, solve
from route18xx.solver.tuning import DEFAULT_OPTIONS
from route18xx.solver.listing.bestreach import best_reach_route, best_reach_search
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.model.model import Instance, build_model
from route18xx.solver.problem import Train
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.routes import list_routes
from route18xx.solver.witnesses.validate import validate
from tests.conftest import STATES_DIR
from tests.solver.boards import grid_problem
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "60"))


def instance(seed: int, rows: int = 4, cols: int = 5) -> Instance:
    problem = grid_problem(rows, cols, (None,), seed=seed)
    return Instance.make(problem, reduce_problem(problem), "total")


def _best(inst: Instance, steps: int = 10**7) -> list:  # type: ignore[type-arg]
    return best_reach_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses,
                            inst.problem.min_stops, inst.groups, steps) or []


@pytest.mark.parametrize("seed", range(10))
def test_best_reach_route_weighs_the_best_of_the_full_listing(seed: int) -> None:
    inst = instance(seed)
    full = sum(max(0, s.distance_cost) for s in inst.stops)
    routes = list_routes(inst.graph, inst.stops, full, inst.problem.min_stops, inst.groups,
                         max_steps=10**7)
    assert routes is not None
    best_listed = max([inst.route_weight(r.stops) for r in routes if
                       inst.route_weight(r.stops) > 0], default=None)
    got = _best(inst)
    if best_listed is None:
        assert got == []
        return
    assert len(got) == 1
    assert inst.route_weight(got[0].stops) == best_listed
    assert got[0] in routes  # a legal route: the listing has it, steps and track alike


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems())
def test_a_lone_unlimited_train_matches_brute_force(problem: RouteProblem) -> None:
    lone = replace(problem, trains=(Train("D", None),))
    for objective in ("total", "revenue"):
        got = solve(lone, objective=objective)
        want = brute_force(lone, objective=objective)
        assert got.status == "OPTIMAL"
        assert validate(lone, got, objective) == []
        assert got.objective == want.objective
        assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy) or objective == "total"


def test_best_reach_route_gives_up_past_its_budget() -> None:
    inst = instance(0)
    assert _best(inst)
    assert best_reach_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses,
                            inst.problem.min_stops, inst.groups, 3) is None


def test_best_reach_route_stops_when_cancelled() -> None:
    inst = instance(0)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        best_reach_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses,
                         inst.problem.min_stops, inst.groups, 10**7, cancel=token)



@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems())
def test_the_walk_itself_matches_brute_force_with_and_without_a_floor(
    problem: RouteProblem,
) -> None:
    # The walk called directly (``solve`` lists small boards' routes instead); the
    # witness is brute force, which shares no code with it. A floor starts the walk
    # with floor - 1 as the best so far (a second objective's search).
    lone = replace(problem, trains=(Train("D", None),))
    for objective in ("total", "revenue"):
        inst = Instance.make(lone, reduce_problem(lone), objective)
        want = brute_force(lone, objective=objective)
        weight = want.revenue * inst.scale + want.subsidy if objective == "revenue" \
            else want.objective
        got = _best(inst)
        assert [inst.route_weight(r.stops) for r in got] == ([weight] if weight > 0 else [])
        if weight > 0:
            at = best_reach_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses,
                                  inst.problem.min_stops, inst.groups, 10**7, floor=weight)
            assert at == got
            above = best_reach_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses,
                                     inst.problem.min_stops, inst.groups, 10**7,
                                     floor=weight + 1)
            assert above == []


def test_a_walk_that_gives_up_hands_its_best_route_to_the_circuit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fullest real lone-D board, its optimum from the reference's independent solver.
    data = json.loads((STATES_DIR / "129026-693.json").read_text())
    problem = build_problem(parse_state(data["state"])).problem
    inst = Instance.make(problem, reduce_problem(problem), "total")
    found, complete = best_reach_search(inst.graph, inst.stops, inst.stop_weights,
                                        inst.bonuses, problem.min_stops, inst.groups, 40)
    assert not complete and len(found) == 1  # a route found, not proven
    short = replace(DEFAULT_OPTIONS, reach_steps=40)
    clear_caches()
    try:
        built = build_model(inst, options=short)
        assert sorted(built.circuits) == [0] and built.first == {0: found[0]}
        got = solve(problem, options=short)
        assert (got.status, got.objective) == ("OPTIMAL", data["reference"]["optimal_total"])
        assert validate(problem, got, "total") == []
    finally:
        clear_caches()  # nothing listed with the short budget stays behind


def test_a_short_limit_shortens_the_walk_and_still_answers() -> None:
    # 5 ms of limit: 50 steps of walk (SolveOptions.reach_steps_per_s), fewer than the 87
    # this board needs; the circuit starts from the walk's route and answers in time.
    data = json.loads((STATES_DIR / "129026-693.json").read_text())
    problem = build_problem(parse_state(data["state"])).problem
    inst = Instance.make(problem, reduce_problem(problem), "total")
    clear_caches()
    try:
        assert sorted(build_model(inst, reach_steps=50).circuits) == [0]
        assert not build_model(inst).circuits  # the whole walk: no circuit
        got = solve(problem, time_limit_s=0.005)
        assert got.status in ("OPTIMAL", "FEASIBLE") and got.routes
        assert validate(problem, got, "total") == []
        assert 0 < got.objective <= data["reference"]["optimal_total"] <= got.bound
    finally:
        clear_caches()
