"""The best route of a lone train by branch and bound (solver/bestroute.py)."""

from __future__ import annotations

import pytest

from route18xx.solver.bestroute import best_route
from route18xx.solver.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.model import Instance
from route18xx.solver.reduce import reduce_problem
from route18xx.solver.routes import list_routes
from tests.solver.boards import grid_problem


def instance(seed: int, distance: int) -> Instance:
    problem = grid_problem(4, 4, (distance,), seed=seed)
    return Instance.make(problem, reduce_problem(problem), "total")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("distance", [2, 3, 5])
def test_best_route_is_the_first_best_of_the_listing(seed: int, distance: int) -> None:
    inst = instance(seed, distance)
    args = (inst.graph, inst.stops, distance, inst.problem.min_stops, inst.groups)
    routes = list_routes(*args, max_steps=10**7)
    assert routes is not None
    weights = [inst.route_weight(r.stops) for r in routes]
    keep = [i for i, w in enumerate(weights) if w > 0]
    expected = [routes[max(keep, key=lambda i: (weights[i], -i))]] if keep else []
    got = best_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses, distance,
                     inst.problem.min_stops, inst.groups, 10**7)
    assert got == expected


def test_best_route_gives_up_past_its_budget() -> None:
    inst = instance(5, 4)
    args = (inst.graph, inst.stops, inst.stop_weights, inst.bonuses, 4,
            inst.problem.min_stops, inst.groups)
    assert best_route(*args, 10**7)
    assert best_route(*args, 3) is None


def test_best_route_stops_when_cancelled() -> None:
    inst = instance(5, 4)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        best_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses, 4,
                   inst.problem.min_stops, inst.groups, 10**7, cancel=token)
