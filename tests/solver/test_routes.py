"""Listing the routes of limited trains (solver/listing/routes.py) and the fallback to circuits."""

from __future__ import annotations

from route18xx.solver.model.model import Instance, _unlimited_listable, build_model
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.routes import list_routes
from tests.solver.boards import Board, grid_problem


def listed(board: Board, max_cost: int, min_stops: int = 2) -> list[tuple[int, ...]]:
    problem = board.problem(max_cost, min_stops=min_stops)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    routes = list_routes(instance.graph, instance.stops, max_cost, min_stops, instance.groups)
    assert routes is not None
    return sorted(r.stops for r in routes)


def triangle() -> Board:
    return (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30, route_end_only=True)
        .link("A", "B").link("B", "C").link("C", "A")
    )


def test_each_route_is_listed_once_in_one_direction() -> None:
    assert listed(triangle(), 2) == [(0, 1), (0, 2)]  # B-C has no station


def test_listing_respects_distance_route_ends_and_min_stops() -> None:
    assert listed(triangle(), 3) == [(0, 1), (0, 1, 2), (0, 2), (1, 0, 2)]  # never through C
    assert listed(triangle(), 3, min_stops=3) == [(0, 1, 2), (1, 0, 2)]
    assert listed(triangle(), 1, min_stops=1) == [(0,)]


def test_listing_gives_up_past_its_budget_and_circuits_take_over() -> None:
    problem = grid_problem(4, 4, (3, 3), seed=5)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    full = build_model(instance, "auto")
    assert full.listed and not full.circuits
    fallback = build_model(instance, "auto", max_steps=5, pair_steps=0)
    assert not fallback.listed and sorted(fallback.circuits) == [0, 1]


def test_an_unlimited_train_is_listed_on_small_boards_only() -> None:
    small = grid_problem(3, 3, (None,), seed=1)
    big = grid_problem(6, 6, (None,), seed=1)
    assert _unlimited_listable(reduce_problem(small))
    assert not _unlimited_listable(reduce_problem(big))
    listed = build_model(Instance.make(small, reduce_problem(small), "total"), "auto")
    assert listed.listed and not listed.circuits
    circuit = build_model(Instance.make(big, reduce_problem(big), "total"), "auto")
    assert not circuit.listed and list(circuit.circuits) == [0]
