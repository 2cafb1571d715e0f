"""The game-agnostic validator finds every kind of violation (solver/witnesses/validate.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from route18xx.solver import RouteProblem, RouteResult, Solution
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import Board


def board() -> Board:
    """A(station) -e0- J -e1- B -e2- C(end only), A -e3- B, J side 0 also -e4- D."""
    return (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30, route_end_only=True)
        .stop("D", 5, subsidy=40).junction("J")
        .link("A", ("J", 0)).link(("J", 1), "B").link("B", "C").link("A", "B").link(("J", 0), "D")
    )


def route(problem: RouteProblem, train: int, stops: tuple[int, ...], segs: tuple[int, ...],
          bonus: int = 0) -> RouteResult:
    revenue = sum(problem.stops[s].value for s in stops) + bonus
    subsidy = sum(problem.stops[s].subsidy for s in stops)
    return RouteResult(train, stops, segs, revenue, subsidy, bonus)


def solution(*routes: RouteResult) -> Solution:
    revenue = sum(r.revenue for r in routes)
    subsidy = sum(r.subsidy for r in routes)
    total = revenue + subsidy
    return Solution(tuple(routes), revenue, subsidy, "OPTIMAL", total, total)


def test_a_legal_solution_has_no_violation() -> None:
    p = board().problem(3, 2)
    sol = solution(route(p, 0, (0, 1, 2), (0, 1, 2)), route(p, 1, (0, 1), (3,)))
    assert validate(p, sol, "total") == []


@pytest.mark.parametrize(
    ("stops", "segs", "distance", "expected"),
    [
        ((0, 1, 0), (3, 3), 3, "visited twice"),
        ((0, 1), (1,), 3, "does not continue"),
        ((0, 2), (3,), 3, "not the listed stop"),
        ((0, 1), (0,), 3, "do not lead"),
        ((0, 3), (0, 4), 3, "entered on side"),
        ((0, 1, 2), (0, 1, 2), 2, "distance"),
        ((1, 2), (2,), 2, "no station"),
        ((0,), (), 2, "at least 2"),
        ((0, 1), (9,), 2, "does not exist"),
    ],
)
def test_route_violations(
    stops: tuple[int, ...], segs: tuple[int, ...], distance: int, expected: str
) -> None:
    p = board().problem(distance)
    errors = validate(p, solution(route(p, 0, stops, segs)))
    assert any(expected in e for e in errors), errors


def test_route_end_only_stop_in_the_middle() -> None:
    b = board().stop("E", 1).link("C", "E")
    p = b.problem(5)
    errors = validate(p, solution(route(p, 0, (0, 1, 2, 4), (3, 2, 5))))
    assert any("may only be a route end" in e for e in errors), errors


def test_group_violation() -> None:
    p = board().problem(3, groups=(("A", "B"),))
    errors = validate(p, solution(route(p, 0, (0, 1), (3,))))
    assert any("group 0" in e for e in errors), errors


def test_junction_and_segment_shared_by_two_trains() -> None:
    p = board().problem(2, 2)
    sol = solution(route(p, 0, (0, 1), (0, 1)), route(p, 1, (3, 1), (4, 1)))
    errors = validate(p, sol)
    assert any("junction 4 already used" in e for e in errors), errors
    sol = solution(route(p, 0, (0, 1), (3,)), route(p, 1, (1, 0), (3,)))
    assert any("segment 3 already used" in e for e in validate(p, sol))


def test_two_routes_for_one_train() -> None:
    p = board().problem(2)
    sol = solution(route(p, 0, (0, 1), (3,)), route(p, 0, (0, 1), (0, 1)))
    assert any("more than one route" in e for e in validate(p, sol))


def test_figures_are_recomputed() -> None:
    p = board().problem(2, bonuses=((15, ("A",), ("B",)),))
    good = route(p, 0, (0, 1), (3,), bonus=15)
    assert validate(p, solution(good), "total") == []
    wrong = replace(good, revenue=good.revenue + 1, bonus=0)
    errors = validate(p, solution(wrong))
    assert any("revenue" in e for e in errors) and any("bonus" in e for e in errors)
    sol = replace(solution(good), subsidy=40, objective=1)
    errors = validate(p, sol, "revenue")
    assert any("solution subsidy" in e for e in errors) and any("objective" in e for e in errors)
