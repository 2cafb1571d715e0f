"""Graph reduction (solver/graph/reduce.py): unreachable track, dead ends, chains."""

from __future__ import annotations

import pytest

from route18xx.solver import InvalidProblem, RouteProblem, Segment, solve
from route18xx.solver.graph.reduce import _checked_ends, _reachable_segments, reduce_problem
from tests.solver.boards import Board


def test_unreachable_track_is_dropped() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30).stop("D", 40)
        .link("A", "B").link("C", "D")
    )
    graph = reduce_problem(board.problem(2))
    assert graph.nodes == (0, 1)
    assert [s.originals for s in graph.segments] == [(0,)]


def test_reachability_does_not_pass_through_a_route_end_only_stop() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("E", 20, route_end_only=True).stop("C", 30)
        .link("A", "E").link("E", "C")
    )
    graph = reduce_problem(board.problem(2))
    assert graph.nodes == (0, 1)  # E is reached, C is not


def test_a_route_end_only_station_is_a_start() -> None:
    board = Board().stop("E", 20, station=True, route_end_only=True).stop("C", 30).link("E", "C")
    assert reduce_problem(board.problem(2)).nodes == (0, 1)


def test_reachability_respects_junction_sides() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J")
        .link("A", ("J", 0)).link(("J", 0), "B")
    )
    problem = board.problem(2)
    used = _reachable_segments(problem, _checked_ends(problem))
    assert [i for i, u in enumerate(used) if u] == [0]  # not J-B: a U-turn
    assert reduce_problem(problem).node_count == 0


def test_dead_end_junctions_are_dropped_repeatedly() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J").junction("K")
        .link("A", "B").link("A", ("J", 0)).link(("J", 1), ("K", 0))
    )
    graph = reduce_problem(board.problem(2))
    assert graph.nodes == (0, 1)
    assert len(graph.segments) == 1


def test_stops_of_degree_one_are_kept() -> None:
    board = Board().stop("A", 10, station=True).stop("B", 20).stop("C", 5)
    board.link("A", "B").link("A", "C")
    assert reduce_problem(board.problem(2)).nodes == (0, 1, 2)


def test_chains_are_contracted_with_their_original_segments_in_order() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J").junction("K")
        .link(("J", 0), "A").link(("K", 0), ("J", 1)).link("B", ("K", 1))
    )
    graph = reduce_problem(board.problem(2))
    assert graph.nodes == (0, 1)
    (seg,) = graph.segments
    if seg.a == 0:
        assert (seg.originals, seg.junctions) == ((0, 1, 2), (2, 3))
    else:
        assert (seg.originals, seg.junctions) == ((2, 1, 0), (3, 2))


def test_a_chain_closing_on_itself_is_dropped() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J").junction("K")
        .link("A", "B").link("A", ("J", 0)).link(("J", 1), ("K", 0)).link(("K", 1), "A")
    )
    graph = reduce_problem(board.problem(2))
    assert [s.originals for s in graph.segments] == [(0,)]


def test_junction_with_branches_is_kept() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).stop("C", 30).junction("J")
        .link("A", ("J", 0)).link(("J", 1), "B").link(("J", 1), "C")
    )
    graph = reduce_problem(board.problem(2))
    assert graph.node_count == 4 and len(graph.segments) == 3


def test_sizes_are_reported() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J").junction("K")
        .link("A", ("J", 0)).link(("J", 1), "B").link("B", ("K", 0))
    )
    circuit = solve(board.problem(2), method="circuit")
    stats = circuit.stats
    assert (stats.nodes_before, stats.segments_before) == (4, 3)
    assert (stats.nodes_after, stats.segments_after) == (2, 1)
    assert (stats.arcs, circuit.listed_routes) == (2, 0)
    assert stats.variables > 0 and stats.constraints > 0
    assert min(stats.reduce_ms, stats.build_ms, stats.solver_ms) >= 0
    listed = solve(board.problem(2, 2))
    assert (listed.stats.arcs, listed.listed_routes) == (0, 1)


@pytest.mark.parametrize(
    "segment",
    [Segment(0, 5, -1, 0, "x"), Segment(0, 2, -1, 2, "x"), Segment(0, 2, -1, -1, "x")],
    ids=["no such node", "side 2", "junction without side"],
)
def test_malformed_segments_are_rejected(segment: Segment) -> None:
    board = Board().stop("A", 10, station=True).stop("B", 20).junction("J")
    problem = board.problem(2)
    bad = RouteProblem(problem.stops, problem.junctions, (segment,), problem.trains)
    with pytest.raises(InvalidProblem):
        solve(bad)



def test_negative_distance_cost_is_rejected() -> None:
    board = Board().stop("A", 10, station=True).stop("B", 20, distance_cost=-1).link("A", "B")
    with pytest.raises(InvalidProblem, match="distance_cost"):
        solve(board.problem(2))
