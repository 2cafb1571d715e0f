"""Three or more trains by listing and a branch and bound over bitsets
(solver/listing/setscan.py), checked against brute force.

``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of random boards (default 300,
as test_property.py).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.api import solve_routes
from route18xx.solver import OBJECTIVES, RouteProblem, Solution, solve
from route18xx.solver.errors import Cancelled
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.pairs import users_of
from route18xx.solver.listing.setscan import Reach, best_set, set_routes
from route18xx.solver.model.model import Instance, build_model
from route18xx.solver.problem import Train
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.search import _expand
from route18xx.solver.tuning import SolveOptions
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import grid_problem
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300"))


def _best_set(routes: Sequence[tuple[int, tuple[int, ...]]], runs: Sequence[int],
              max_work: int = 10**6) -> tuple[int, list[int | None]] | None:
    """``best_set`` with train t running the routes of bitset ``runs[t]`` (routes
    heaviest first), trains of one bitset side by side; the ids in ``runs``' order."""
    distinct = sorted(set(runs), key=runs.index)
    reaches = []
    for run in distinct:
        ids = [i for i in range(len(routes)) if run >> i & 1]
        reaches.append(Reach([routes[i][0] for i in ids], ids,
                             users_of([routes[i] for i in ids])))
    order = sorted(range(len(runs)), key=lambda t: distinct.index(runs[t]))
    found = best_set(reaches, [distinct.index(runs[t]) for t in order],
                     lambda i: routes[i][1], max_work)
    if found is None:
        return None
    chosen: list[int | None] = [None] * len(runs)
    for t, i in zip(order, found[1]):
        chosen[t] = i
    return found[0], chosen


def _brute(routes: Sequence[tuple[int, tuple[int, ...]]], runs: Sequence[int]) -> int:
    """The heaviest choice of one route or none per train, no key shared (routes
    without keys may be run by several trains)."""
    best = 0
    options = [[None] + [i for i in range(len(routes)) if run >> i & 1] for run in runs]
    for choice in itertools.product(*options):
        taken = [i for i in choice if i is not None]
        keys = [key for i in taken for key in routes[i][1]]
        if len(keys) == len(set(keys)):
            best = max(best, sum(routes[i][0] for i in taken))
    return best


def test_the_heaviest_disjoint_set_wins() -> None:
    # Heaviest first: 50 and 40 share key 2, 30 and 20 share nothing with 50.
    routes = [(50, (1, 2)), (40, (2, 3)), (30, (4,)), (20, (5,)), (5, (9,))]
    every = (1 << len(routes)) - 1
    assert _best_set(routes, [every] * 3) == (100, [0, 2, 3])


def test_a_train_may_run_nothing() -> None:
    # The 5 only clashes: the three trains' best is the other two's pair.
    routes = [(50, (1,)), (40, (2,)), (5, (1, 2))]
    assert _best_set(routes, [0b011, 0b011, 0b100]) == (90, [0, 1, None])


def test_each_train_runs_only_its_reach() -> None:
    routes = [(50, (1,)), (40, (2,)), (30, (3,))]
    # The first train may run only the 30, the others anything.
    assert _best_set(routes, [0b100, 0b111, 0b111]) == (120, [2, 0, 1])


def test_a_route_without_track_may_run_on_several_trains() -> None:
    assert _best_set([(30, ()), (20, (1,))], [0b11] * 3) == (90, [0, 0, 0])


def test_the_search_gives_up_past_its_work() -> None:
    routes = [(100 - i, (i, i + 1)) for i in range(40)]
    every = (1 << len(routes)) - 1
    assert _best_set(routes, [every] * 3, max_work=3) is None
    assert _best_set(routes, [every] * 3) == (100 + 98 + 96, [0, 2, 4])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 60), st.frozensets(st.integers(0, 7), max_size=3)),
                max_size=9),
       st.lists(st.integers(0, 2**9 - 1), min_size=3, max_size=4), st.booleans())
def test_the_set_search_matches_brute_force(
    raw: list[tuple[int, frozenset[int]]], runs: list[int], alike: bool,
) -> None:
    """Random lists, three or four trains; ``alike``: every train runs the same routes
    (the identical trains' order)."""
    routes = sorted(((w, tuple(sorted(keys))) for w, keys in raw), key=lambda r: -r[0])
    every = (1 << len(routes)) - 1
    runs = [every] * len(runs) if alike else [run & every for run in runs]
    found = _best_set(routes, runs)
    assert found is not None
    value, chosen = found
    assert value == _brute(routes, runs)
    taken = [i for i in chosen if i is not None]
    assert sum(routes[i][0] for i in taken) == value
    keys = [key for i in taken for key in routes[i][1]]
    assert len(keys) == len(set(keys))
    assert all(i is None or runs[t] >> i & 1 for t, i in enumerate(chosen))


def _set_solution(problem: RouteProblem, objective: str,
                  options: SolveOptions) -> Solution | None:
    instance = Instance.make(problem, reduce_problem(problem), objective)  # type: ignore[arg-type]
    found = set_routes(instance, options=options)
    if found is None:
        return None
    built = build_model(instance, "circuit")  # only for ``_expand``'s reduced graph
    routes = tuple(_expand(built, k, r.stops, r.steps) for k, r in sorted(found.items()))
    revenue, subsidy = sum(r.revenue for r in routes), sum(r.subsidy for r in routes)
    value = revenue + subsidy if objective == "total" else revenue
    return Solution(routes, revenue, subsidy, "OPTIMAL", value, value)


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(max_nodes=8), st.lists(st.sampled_from([None, 1, 2, 3]), min_size=3,
                                             max_size=3),
       st.sampled_from([None, 0]))
def test_the_set_scan_matches_brute_force(problem: RouteProblem, distances: list[int | None],
                                          vector_from: int | None) -> None:
    """Three trains; both listings: depth first in Python (None), a layer at a time in
    numpy (0)."""
    problem = RouteProblem(problem.stops, problem.junctions, problem.segments,
                           tuple(Train(f"t{k}", d) for k, d in enumerate(distances)),
                           problem.groups, problem.bonuses, problem.min_stops)
    options = SolveOptions() if vector_from is None else SolveOptions(vector_from=vector_from)
    for objective in OBJECTIVES:
        got = _set_solution(problem, objective, options)
        assert got is not None  # small boards list within the budget
        want = brute_force(problem, objective=objective)
        assert validate(problem, got, objective) == []
        if objective == "revenue":  # the weights put revenue first, subsidy as a tie-break
            assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy)
        else:
            assert got.revenue + got.subsidy == want.revenue + want.subsidy


#: Three trains, two of them unlimited, on a 5×4 grid: circuits for CP-SAT before.
THREE = grid_problem(5, 4, (None, None, 2), seed=2)


def test_three_circuit_trains_are_answered_by_the_set_scan() -> None:
    instance = Instance.make(THREE, reduce_problem(THREE), "total")
    assert sorted(build_model(instance, options=SolveOptions(pair_work=0)).circuits) == [0, 1]
    built = build_model(instance)
    assert built.packed is not None and not built.circuits
    sol = solve(THREE)
    want = solve(THREE, method="circuit", time_limit_s=60.0)  # CP-SAT's circuits, every train
    assert want.status == "OPTIMAL"
    assert (sol.status, sol.objective, sol.stats.branches) == ("OPTIMAL", want.objective, 0)
    assert validate(THREE, sol, "total") == []


def test_a_cancelled_set_search_stops() -> None:
    instance = Instance.make(THREE, reduce_problem(THREE), "total")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        set_routes(instance, cancel=token)


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(max_nodes=8), st.lists(st.sampled_from([1, 2, 3]), min_size=3,
                                             max_size=3))
def test_a_packing_past_the_packing_search_is_the_set_scans(
    problem: RouteProblem, distances: list[int],
) -> None:
    """Three listed trains whose packing search gives up at once (``packing_steps`` 0):
    the set scan packs them, no CP-SAT search, the brute force's optimum."""
    problem = RouteProblem(problem.stops, problem.junctions, problem.segments,
                           tuple(Train(f"t{k}", d) for k, d in enumerate(distances)),
                           problem.groups, problem.bonuses, problem.min_stops)
    for objective in OBJECTIVES:
        got = solve(problem, objective=objective, options=SolveOptions(packing_steps=0))
        want = brute_force(problem, objective=objective)
        assert got.status == "OPTIMAL" and got.stats.branches == 0
        assert validate(problem, got, objective) == []
        if objective == "revenue":
            assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy)
        else:
            assert got.revenue + got.subsidy == want.revenue + want.subsidy


BOARDS3 = sorted((Path(__file__).resolve().parents[1] / "data" / "boards3").glob("*.json"))


@pytest.mark.parametrize("path", BOARDS3, ids=[p.stem for p in BOARDS3])
def test_three_train_boards_match_the_independent_model(path: Path) -> None:
    """tests/data/boards3: 1856's CGR with three trains, each board's optimum from CP-SAT's
    circuits for every train (``meta.reference``); answered by the set scan."""
    board = json.loads(path.read_text())
    report = solve_routes(board["state"], time_limit_s=60.0)
    reference = board["meta"]["reference"]
    assert reference["status"] == "OPTIMAL"
    assert report["status"] == "OPTIMAL"
    assert report["revenue"] + report["subsidy"] == reference["total"]
