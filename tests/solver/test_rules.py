"""One feasible and one infeasible hand-computed case per route rule (DESIGN.md §3).

Every case is solved by CP-SAT and by the brute-force enumerator, both must
reach the hand-computed optimum, and the CP-SAT routes must validate.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from route18xx.solver import METHODS, RouteProblem, Solution, solve
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import Board


def optimum(problem: RouteProblem, objective: str = "total") -> Solution:
    """Solve with CP-SAT (both methods), check against brute force and the validator.

    Returns the answer of the default method.
    """
    want = brute_force(problem, objective=objective)
    answers = []
    for method in METHODS:
        got = solve(problem, objective=objective, method=method)  # type: ignore[arg-type]
        assert got.status == "OPTIMAL"
        assert validate(problem, got, objective) == []
        assert got.objective == want.objective, method
        assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy) or objective == "total"
        answers.append(got)
    return answers[0]


def ab(**b_flags: object) -> Board:
    return Board().stop("A", 20, station=True).stop("B", 30, **b_flags).link("A", "B")


def test_two_stops_with_a_station() -> None:
    sol = optimum(ab().problem(2))
    assert sol.objective == 50
    assert [(r.train, r.stops, r.segments) for r in sol.routes] == [(0, (0, 1), (0,))]
    assert sol.bound == 50


def test_no_station_earns_nothing() -> None:
    board = Board().stop("A", 20).stop("B", 30).link("A", "B")
    sol = optimum(board.problem(2))
    assert (sol.objective, sol.routes, sol.status) == (0, (), "OPTIMAL")


@pytest.mark.parametrize(
    "problem",
    [
        Board().problem(2),
        ab().problem(),
        RouteProblem((), (), (), ()),
    ],
    ids=["no stops", "no trains", "nothing"],
)
def test_empty_problems(problem: RouteProblem) -> None:
    sol = solve(problem)
    assert (sol.objective, sol.routes, sol.status, sol.bound) == (0, (), "OPTIMAL", 0)


def test_route_end_only_stop_may_end_a_route() -> None:
    board = ab(route_end_only=True)
    assert optimum(board.problem(2)).objective == 50


def test_route_end_only_stop_may_not_be_passed_through() -> None:
    board = ab(route_end_only=True).stop("C", 100).link("B", "C")
    assert optimum(board.problem(3)).objective == 50  # A-B-C (150) is illegal
    plain = ab().stop("C", 100).link("B", "C")
    assert optimum(plain.problem(3)).objective == 150


def sided(side_b: int) -> Board:
    return (
        Board().stop("A", 10, station=True).stop("B", 50).junction("J")
        .link("A", ("J", 0)).link(("J", side_b), "B")
    )


def test_junction_is_passed_from_one_side_to_the_other() -> None:
    sol = optimum(sided(1).problem(2))
    assert sol.objective == 60
    assert sol.routes[0].segments == (0, 1)


def test_junction_forbids_a_u_turn() -> None:
    assert optimum(sided(0).problem(2)).objective == 0


def test_two_trains_cannot_share_a_junction() -> None:
    assert optimum(sided(1).problem(2, 2)).objective == 60


def test_two_trains_can_share_a_stop() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30)
        .link("A", "B").link("A", "C")
    )
    sol = optimum(board.problem(2, 2))
    assert sol.objective == 30 + 40
    assert len(sol.routes) == 2


def test_two_trains_cannot_share_a_stop_to_stop_segment() -> None:
    assert optimum(ab().problem(2, 2)).objective == 50


def chain() -> Board:
    return (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30)
        .link("A", "B").link("B", "C")
    )


def test_distance_limit() -> None:
    assert optimum(chain().problem(3)).objective == 60
    assert optimum(chain().problem(2)).objective == 30  # B-C has no station
    assert optimum(chain().problem(None)).objective == 60


def test_free_stop_does_not_count_toward_distance() -> None:
    harbour = chain().stop("H", 10, distance_cost=0, route_end_only=True).link("C", "H")
    assert optimum(harbour.problem(3)).objective == 70
    paid = chain().stop("H", 10, route_end_only=True).link("C", "H")
    assert optimum(paid.problem(3)).objective == 60


def star() -> Board:
    return (
        Board().stop("A", 10, station=True).stop("X", 40).stop("Y", 40)
        .link("X", "A").link("A", "Y")
    )


def test_group_allows_one_stop_per_route() -> None:
    assert optimum(star().problem(3)).objective == 90
    assert optimum(star().problem(3, groups=(("X", "Y"),))).objective == 50


def test_pair_bonus_needs_both_sets() -> None:
    bonus = ((50, ("A",), ("C",)),)
    assert optimum(chain().problem(3, bonuses=bonus)).objective == 60 + 50
    sol = optimum(chain().problem(2, bonuses=bonus))  # C out of reach: no bonus
    assert (sol.objective, sol.routes[0].bonus) == (30, 0)


def test_pair_bonus_is_earned_per_route() -> None:
    board = Board().stop("A", 10, station=True).stop("B", 10).stop("C", 10)
    board.link("A", "B").link("A", "C")
    bonus = ((20, ("A",), ("B", "C")),)
    sol = optimum(board.problem(2, 2, bonuses=bonus))
    assert sol.objective == 2 * (20 + 20)
    assert [r.bonus for r in sol.routes] == [20, 20]


def mine() -> Board:
    return (
        Board().stop("A", 10, station=True).stop("M", 0, subsidy=40).stop("B", 30)
        .link("M", "A").link("A", "B")
    )


def test_subsidy_counts_in_the_total_objective() -> None:
    sol = optimum(mine().problem(2))
    assert (sol.revenue, sol.subsidy, sol.objective) == (10, 40, 50)


def test_revenue_objective_prefers_revenue_over_subsidy() -> None:
    sol = optimum(mine().problem(2), "revenue")
    assert (sol.revenue, sol.subsidy, sol.objective) == (40, 0, 40)


def test_revenue_objective_breaks_ties_by_subsidy() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("M", 30, subsidy=40).stop("B", 30)
        .link("M", "A").link("A", "B")
    )
    sol = optimum(board.problem(2), "revenue")
    assert (sol.revenue, sol.subsidy, sol.objective) == (40, 40, 40)


def test_min_stops() -> None:
    lonely = Board().stop("A", 20, station=True)
    assert optimum(lonely.problem(2, min_stops=1)).objective == 20
    assert optimum(lonely.problem(2, min_stops=2)).objective == 0
    assert optimum(chain().problem(3, min_stops=3)).objective == 60
    assert optimum(ab().problem(3, min_stops=3)).objective == 0


def test_identical_trains_still_reach_the_optimum() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 10).stop("C", 20).stop("D", 30)
        .link("A", "B").link("A", "C").link("A", "D")
    )
    sol = optimum(board.problem(2, 2, 2))
    assert sol.objective == 3 * 10 + 10 + 20 + 30
    assert sorted(r.train for r in sol.routes) == [0, 1, 2]


def test_parallel_segments_carry_one_train_each() -> None:
    board = ab().link("B", "A")
    sol = optimum(board.problem(2, 2))
    assert sol.objective == 100
    assert sorted(r.segments for r in sol.routes) == [(0,), (1,)]


def test_parallel_chains_are_contracted_and_expanded_in_walking_order() -> None:
    board = Board().stop("A", 10, station=True).stop("B", 20)
    for j in ("J", "K"):
        board.junction(j + "1").junction(j + "2")
        board.link(("J1" if j == "J" else "K1", 0), "A")  # written backwards on purpose
        board.link((j + "1", 1), (j + "2", 1)).link("B", (j + "2", 0))
    sol = optimum(board.problem(2, 2))
    assert sol.objective == 60
    assert sorted(r.segments for r in sol.routes) == [(0, 1, 2), (3, 4, 5)]
    assert sol.stats.segments_after == 2


def with_own_values(problem: RouteProblem, own: dict[int, tuple[tuple[int, int], ...]]) -> RouteProblem:
    """``problem`` whose train k earns ``own[k]``'s (stop, value) pairs instead."""
    trains = tuple(replace(t, stop_values=own.get(k, ())) for k, t in enumerate(problem.trains))
    return replace(problem, trains=trains)


@pytest.mark.parametrize("d_first", [True, False], ids=["D first", "D second"])
def test_a_stop_may_pay_a_train_its_own_value(d_first: bool) -> None:
    """1889's off-boards pay by train: the D earns 100 at B where the 2-train earns 30.
    One segment A–B: one train runs it, and the D's 20 + 100 beats the 2's 20 + 30."""
    board = Board().stop("A", 20, station=True).stop("B", 30, route_end_only=True).link("A", "B")
    distances = (None, 2) if d_first else (2, None)
    d = 0 if d_first else 1
    problem = with_own_values(board.problem(*distances), {d: ((1, 100),)})
    sol = optimum(problem)
    assert (sol.objective, [r.train for r in sol.routes]) == (120, [d])
    assert optimum(problem, "revenue").revenue == 120


def test_trains_that_earn_differently_are_not_interchangeable() -> None:
    """Two 2-trains, the second earning 90 at C: it runs A–C (20 + 90), the first A–B
    (20 + 30): 160, where swapping them would give 20 + 10 + 20 + 30 = 80."""
    board = (Board().stop("A", 20, station=True).stop("B", 30).stop("C", 10)
             .link("A", "B").link("A", "C"))
    problem = with_own_values(board.problem(2, 2), {1: ((2, 90),)})
    sol = optimum(problem)
    assert sol.objective == 160
    assert {(r.train, r.stops[-1]) for r in sol.routes} == {(0, 1), (1, 2)}
