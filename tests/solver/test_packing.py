"""The only best packing of listed routes (solver/listing/packing.py), checked against CP-SAT."""

from __future__ import annotations

import pytest

from route18xx.solver.model.model import Instance, build_model
from route18xx.solver.listing.packing import best_packing, unique_best_packing
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.routes import ListedRoute
from route18xx.solver.search import _packed_listed, _routes, _search
from tests.solver.boards import grid_problem


def route(*track: int) -> ListedRoute:
    return ListedRoute((0, 1), (), track, 2)


def test_the_only_best_packing_is_found() -> None:
    # Two trains of one distance: routes 0 and 2 share no track and weigh most.
    routes = [route(1, 2), route(2, 3), route(4)]
    assert unique_best_packing([(2, routes, [50, 40, 30])]) == [[0, 2]]
    # A second group: its best route clashes with the first group's best.
    other = [route(1), route(5)]
    assert unique_best_packing([(1, routes, [50, 40, 30]), (1, other, [45, 10])]) == [[1], [0]]


def test_a_tie_is_left_to_cp_sat() -> None:
    routes = [route(1), route(1, 2), route(3)]
    assert unique_best_packing([(1, routes, [30, 30, 10])]) is None
    assert unique_best_packing([(2, routes, [30, 30, 10])]) is None  # 0+2 and 1+2


def test_routes_without_track_or_a_long_search_are_left_to_cp_sat() -> None:
    assert unique_best_packing([(2, [route(), route(1)], [20, 10])]) is None
    many = [route(i) for i in range(40)]
    assert unique_best_packing([(3, many, list(range(100, 140)))], max_steps=3) is None
    assert unique_best_packing([(3, many, list(range(100, 140)))]) == [[39, 38, 37]]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("distances", [(2, 3), (3, 3), (2, 2, 4)])
def test_the_packing_is_what_cp_sat_answers(seed: int, distances: tuple[int, ...]) -> None:
    problem = grid_problem(4, 4, distances, seed=seed)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    fast = _packed_listed(build_model(instance, pair_steps=0))
    built = build_model(instance, pack=False)
    assert built.listed and not built.circuits and built.packed is None
    response, *_ = _search(built, 10.0, 1, 0, None)
    assert response is not None and response.status.name == "OPTIMAL"
    assert fast is not None  # these boards' packings are searched within the steps
    # the proven optimum ("total": revenue + subsidy, as the model weighs it)
    assert sum(r.revenue + r.subsidy for r in fast) == response.objective_value
    if unique_best_packing([(len(g.trains), g.routes, g.weights) for g in built.listed]):
        assert fast == _routes(built, list(response.solution))  # the only one: CP-SAT's


def test_the_best_weight_is_known_even_when_tied() -> None:
    # 30 + 10 twice (routes 0+2, 1+2): tied, so no packing, but the weight 40 is proven
    routes = [route(1), route(1, 2), route(3)]
    assert best_packing([(2, routes, [30, 30, 10])]) == (40, None)
    assert best_packing([(2, routes, [30, 29, 10])]) == (40, [[0, 2]])
    assert best_packing([(2, [route(), route(1)], [20, 10])]) is None
    # without uniqueness: the first best in the search's order (weight, then list order)
    assert best_packing([(2, routes, [30, 30, 10])], unique=False) == (40, [[0, 2]])
    assert best_packing([(1, routes, [30, 30, 10]), (1, [route(3)], [5])],
                        unique=False) == (35, [[0], [0]])


def test_a_tied_packing_needs_no_search() -> None:
    """129026-352 (4 + 5) with the mine's track taken away, as the engine's search for
    the best revenue avoiding the subsidy builds it (engine.objectives): the packings
    tie; the packing search answers (no CP-SAT branch) with CP-SAT's optimal weight,
    a floor above it is proven out of reach, and the reference's best revenue (270,
    an independent exact solver, with the mine allowed) bounds it."""
    import json
    from dataclasses import replace

    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver import solve
    from tests.conftest import STATES_DIR

    data = json.loads((STATES_DIR / "129026-352.json").read_text())
    problem = build_problem(parse_state(data["state"])).problem
    paying = {i for i, stop in enumerate(problem.stops) if stop.subsidy}
    assert paying
    problem = replace(problem, forbidden_segments=frozenset(
        i for i, seg in enumerate(problem.segments) if seg.a in paying or seg.b in paying))
    instance = Instance.make(problem, reduce_problem(problem), "revenue")
    built = build_model(instance, pack=False)
    groups = [(len(g.trains), g.routes, g.weights) for g in built.listed]
    assert unique_best_packing(groups) is None  # tied
    response, *_ = _search(built, 10.0, 1, 0, None)
    assert response is not None and response.status.name == "OPTIMAL"
    best = solve(problem, objective="revenue")
    assert (best.status, best.stats.branches, best.bound) == ("OPTIMAL", 0, best.revenue)
    assert best.revenue * instance.scale + best.subsidy == response.objective_value
    assert best.revenue <= data["reference"]["optimal_revenue"]
    above = solve(problem, objective="revenue", floor=best.revenue + 1)
    assert (above.status, above.routes, above.bound, above.stats.branches) == (
        "INFEASIBLE", (), best.revenue, 0)
