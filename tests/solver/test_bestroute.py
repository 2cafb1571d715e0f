"""The best route of a lone train by branch and bound (solver/listing/bestroute.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from route18xx.solver.listing.bestroute import best_route, off_route_bound
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.model.model import Instance
from route18xx.solver.problem import PairBonus
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.routes import ListedRoute, list_routes
from tests.solver.boards import grid_problem


def instance(seed: int, distance: int) -> Instance:
    problem = grid_problem(4, 4, (distance,), seed=seed)
    return Instance.make(problem, reduce_problem(problem), "total")


def assert_best_route_is_the_first_best_of_the_listing(inst: Instance, distance: int) -> None:
    """``best_route`` gives the whole listing's first best route (priced by
    ``Instance.route_weight``), or none where no route earns anything."""
    routes = list_routes(inst.graph, inst.stops, distance, inst.problem.min_stops,
                         inst.groups, max_steps=10**7)
    assert routes is not None
    weights = [inst.route_weight(r.stops) for r in routes]
    keep = [i for i, w in enumerate(weights) if w > 0]
    expected = [routes[max(keep, key=lambda i: (weights[i], -i))]] if keep else []
    got = best_route(inst.graph, inst.stops, inst.stop_weights, inst.bonuses, distance,
                     inst.problem.min_stops, inst.groups, 10**7)
    assert got == expected


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("distance", [2, 3, 5])
def test_best_route_is_the_first_best_of_the_listing(seed: int, distance: int) -> None:
    assert_best_route_is_the_first_best_of_the_listing(instance(seed, distance), distance)


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


def _with_bonuses(seed: int, distance: int, sides: list[tuple[int, list[int], list[int]]],
                  free: tuple[int, ...] = ()) -> Instance:
    """``instance`` with these pair bonuses (value, first stops, second stops, original
    indices) and stops ``free`` costing no distance."""
    problem = grid_problem(4, 4, (distance,), seed=seed)
    stops = tuple(replace(s, distance_cost=0) if i in free else s
                  for i, s in enumerate(problem.stops))
    bonuses = tuple(PairBonus(v, frozenset(a), frozenset(b)) for v, a, b in sides)
    problem = replace(problem, stops=stops, bonuses=bonuses)
    return Instance.make(problem, reduce_problem(problem), "total")


#: Bonus shapes the walk's bound treats apart (``off_route_bound``): one bonus of one stop
#: a side (1888's destination), sides of several stops, a side with a stop costing no
#: distance, sides sharing a stop, two bonuses, a bonus worth nothing or less.
BONUSES: list[tuple[list[tuple[int, list[int], list[int]]], tuple[int, ...]]] = [
    ([(40, [0], [15])], ()),
    ([(90, [3], [12])], ()),
    ([(60, [1, 2], [13, 14])], ()),
    ([(70, [5], [10])], (5,)),
    ([(70, [5, 6], [10])], (6,)),
    ([(50, [4, 9], [9, 11])], ()),
    ([(30, [0], [15]), (40, [3], [12])], ()),
    ([(-20, [0], [15]), (50, [3], [12])], ()),
    ([(0, [2], [7])], (7,)),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("distance", [2, 3, 4])
@pytest.mark.parametrize("shape", range(len(BONUSES)))
def test_best_route_with_bonuses_is_the_first_best_of_the_listing(
    seed: int, distance: int, shape: int
) -> None:
    """The bonus-aware bound prunes only routes that cannot win: the same route as the
    whole listing's first best (priced by ``Instance.route_weight``, bonuses included)."""
    sides, free = BONUSES[shape]
    inst = _with_bonuses(seed, distance, sides, free)
    assert_best_route_is_the_first_best_of_the_listing(inst, distance)


def test_the_bonus_bound_by_hand() -> None:
    """``off_route_bound`` on five stops worth 50, 40, 30, 20, 10 (one unit of distance
    each) and a bonus of 100 for stops 0 and 4 on one route, figured by hand."""
    weights, costs = [50, 40, 30, 20, 10], [1] * 5
    bound = off_route_bound(weights, costs, [(100, 1 << 0, 1 << 4)])
    # stop 1 on the route, one stop left: the bonus needs two more, so only stop 0 (50)
    assert bound(1 << 1, 1, 60) == 50
    # two stops left: the bonus with stops 0 and 4 (160) beats stops 0 and 2 (80)
    assert bound(1 << 1, 2, 100) == 160
    # stops 0 and 1 on the route, one left: stop 4 and the bonus (110), not stop 2 (30)
    assert bound(0b11, 1, 60) == 110
    # a bound that decides nothing may stay loose: the bonus counted always
    assert bound(1 << 1, 1, 10) == 150  # below 50: prunes nothing either way
    assert bound(1 << 1, 1, 200) == 150  # 150 or more: pruned by the loose bound already
    # sides sharing a stop: the bonus counts always
    shared = off_route_bound(weights, costs, [(100, 0b10001, 1 << 4)])
    assert shared(1 << 1, 1, 60) == 150
    # a stop costing no distance satisfies its side without taking a stop's place
    free = off_route_bound(weights, [1, 1, 1, 1, 0], [(100, 1 << 0, 1 << 4)])
    assert free(0b11, 1, 60) == 140  # 100 + 10 + 30 (stop 2), where a paid stop 4 gives 110


def _steps(inst: Instance, distance: int) -> tuple[int, list[ListedRoute] | None]:
    """The fewest steps with which the walk completes (it is deterministic), and its answer."""
    args = (inst.graph, inst.stops, inst.stop_weights, inst.bonuses, distance,
            inst.problem.min_stops, inst.groups)
    low, high = 0, 10**6
    while low < high:
        mid = (low + high) // 2
        if best_route(*args, mid) is None:
            low = mid + 1
        else:
            high = mid
    return low, best_route(*args, low)


def test_the_bonus_bound_saves_steps_and_changes_no_answer() -> None:
    """A destination bonus of 80 as one bonus (the finer bound) or as two of 40 on the
    same stops (counted always): the same route, and never more steps with one; fewer
    on some boards (the steps the finer bound saves)."""
    saved = 0
    for seed in range(8):
        one = _with_bonuses(seed, 4, [(80, [0], [15])])
        two = _with_bonuses(seed, 4, [(40, [0], [15]), (40, [0], [15])])
        steps_one, route_one = _steps(one, 4)
        steps_two, route_two = _steps(two, 4)
        assert route_one == route_two
        assert steps_one <= steps_two
        saved += steps_two - steps_one
    assert saved > 0
