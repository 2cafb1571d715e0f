"""The only best packing of listed routes (solver/packing.py), checked against CP-SAT."""

from __future__ import annotations

import pytest

from route18xx.solver.model import Instance, build_model
from route18xx.solver.packing import unique_best_packing
from route18xx.solver.reduce import reduce_problem
from route18xx.solver.routes import ListedRoute
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
    if fast is not None:
        assert fast == _routes(built, list(response.solution))
