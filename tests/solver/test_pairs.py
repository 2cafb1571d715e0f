"""Two trains by listing and a pair scan (solver/listing/pairs.py), checked against the brute force.

``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of random boards (default 300,
as test_property.py).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.solver import OBJECTIVES, CancelToken, RouteProblem, Solution, solve
from route18xx.solver.errors import Cancelled
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.model.model import Instance, build_model
from route18xx.solver.listing.pairs import best_pair, pair_routes
from route18xx.solver.tuning import DEFAULT_OPTIONS
from route18xx.solver.listing.pairwalk import list_weighed, rebuild
from route18xx.solver.problem import Train
from route18xx.solver.graph.reduce import reduce_problem
from route18xx.solver.listing.routes import list_routes
from route18xx.solver.search import _expand, _packed_listed
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import grid_problem
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300"))


def test_the_heaviest_disjoint_pair_wins() -> None:
    # (weight, track keys), heaviest first: 50 and 40 share key 2; 50 + 30 is best.
    one = [(50, (1, 2)), (40, (2, 3)), (30, (4,)), (5, (9,))]
    assert best_pair(one, None) == (80, 0, 2)
    # A second list of another distance: its best route clashes with the first's best.
    other = [(45, (1,)), (10, (5,))]
    assert best_pair(one, other) == (85, 1, 0)  # 40 + 45 beats 50 + 10


def test_a_lone_route_beats_clashing_pairs() -> None:
    assert best_pair([(50, (1,)), (10, (1,))], None) == (50, 0, None)
    assert best_pair([(10, (1,))], [(50, (1,)), (5, (1,))]) == (50, None, 0)
    assert best_pair([], None) == (0, None, None)


def test_a_route_without_track_may_run_twice_and_ties_keep_the_first() -> None:
    assert best_pair([(30, ()), (20, (1,))], None) == (60, 0, 0)
    assert best_pair([(30, (1,)), (30, (2,)), (30, (3,))], None) == (60, 0, 1)


def test_the_scan_gives_up_past_its_work() -> None:
    many = [(100 - i, (i, i + 1)) for i in range(40)]
    assert best_pair(many, None, max_work=2) is None
    assert best_pair(many, None) == (100 + 98, 0, 2)


def _pair_solution(problem: RouteProblem, objective: str,
                   vector_from: int | None = None) -> Solution | None:
    instance = Instance.make(problem, reduce_problem(problem), objective)  # type: ignore[arg-type]
    pair = pair_routes(instance, vector_from=vector_from)  # numpy: the pair bound from route 1
    if pair is None:
        return None
    built = build_model(instance, "circuit")  # only for ``_expand``'s reduced graph
    routes = tuple(_expand(built, k, r.stops, r.steps) for k, r in sorted(pair.items()))
    revenue, subsidy = sum(r.revenue for r in routes), sum(r.subsidy for r in routes)
    value = revenue + subsidy if objective == "total" else revenue
    return Solution(routes, revenue, subsidy, "OPTIMAL", value, value)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.sampled_from([None, 1, 2, 3, 4]), st.sampled_from([None, 2, 3]),
       st.sampled_from([None, 0]))
def test_the_pair_scan_matches_brute_force(problem: RouteProblem, d1: int | None,
                                           d2: int | None, vector_from: int | None) -> None:
    """Both listings: depth first in Python (None), a layer at a time in numpy (0)."""
    problem = RouteProblem(problem.stops, problem.junctions, problem.segments,
                           (Train("a", d1), Train("b", d2)), problem.groups, problem.bonuses,
                           problem.min_stops)
    for objective in OBJECTIVES:
        got = _pair_solution(problem, objective, vector_from)
        assert got is not None  # small boards list within the budget
        want = brute_force(problem, objective=objective)
        assert validate(problem, got, objective) == []
        if objective == "revenue":  # the weights put revenue first, subsidy as a tie-break
            assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy)
        else:
            assert got.revenue + got.subsidy == want.revenue + want.subsidy


#: Two unlimited trains on a 6×6 grid: a circuit model CP-SAT needs seconds to prove
#: (tests/solver/test_runtime.py, whose optimum 1150 was proven that way).
DD_GRID = grid_problem(6, 6, (None, None), seed=1)


def test_two_circuit_trains_are_answered_by_the_pair_scan() -> None:
    instance = Instance.make(DD_GRID, reduce_problem(DD_GRID), "total")
    built = build_model(instance)
    assert built.packed is not None and not built.circuits
    sol = solve(DD_GRID)
    assert (sol.status, sol.objective, sol.bound, sol.stats.branches) == ("OPTIMAL", 1150, 1150, 0)
    assert validate(DD_GRID, sol, "total") == []
    assert _packed_listed(built) == list(sol.routes)


def test_a_short_time_limit_or_budget_leaves_the_circuits() -> None:
    instance = Instance.make(DD_GRID, reduce_problem(DD_GRID), "total")
    assert sorted(build_model(instance, pair_steps=1000).circuits) == [0, 1]
    sol = solve(DD_GRID, time_limit_s=0.05)  # 20 000 steps: too few for this listing
    assert sol.status == "FEASIBLE" and sol.objective <= 1150 <= sol.bound


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.integers(1, 6))
def test_the_weighed_walk_lists_what_list_routes_lists(problem: RouteProblem, cost: int) -> None:
    instance = Instance.make(problem, reduce_problem(problem), "total")
    args = (instance.graph, instance.stops)
    plain = list_routes(*args, cost, problem.min_stops, instance.groups, 10**6)
    weighed = list_weighed(*args, instance.stop_weights, instance.bonuses, cost,
                           problem.min_stops, instance.groups, 10**6)
    assert plain is not None and weighed is not None
    want = [(instance.route_weight(r.stops), r) for r in plain]
    got = [(w, rebuild(instance.graph, weighed, i)) for i, w in enumerate(weighed.weights)]
    assert got == [(w, r) for w, r in want if w > 0]


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.integers(1, 6))
def test_the_numpy_listing_lists_what_list_routes_lists(problem: RouteProblem, cost: int) -> None:
    from route18xx.solver.listing.pairvector import Lister

    instance = Instance.make(problem, reduce_problem(problem), "total")
    plain = list_routes(instance.graph, instance.stops, cost, problem.min_stops,
                        instance.groups, 10**6)
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    listed = lister.list(cost, problem.min_stops, 10**6)
    assert plain is not None and listed is not None
    want = sorted((instance.route_weight(r.stops), r) for r in plain
                  if instance.route_weight(r.stops) > 0)
    got = sorted((int(w), lister.route(listed, i)) for i, w in enumerate(listed.weights))
    assert got == want


def test_the_numpy_listing_counts_steps_as_the_walk_does() -> None:
    # The 6×6 D + D grid: the walk's step count is where the depth-first walk (without
    # its early give-up) and the numpy layers both stop giving up.
    from route18xx.solver.listing.pairvector import Lister

    instance = Instance.make(DD_GRID, reduce_problem(DD_GRID), "total")
    args = (instance.graph, instance.stops, instance.stop_weights, instance.bonuses)
    full = sum(s.distance_cost for s in instance.stops)
    lister = Lister(*args, instance.groups)
    steps = next(n for n in (10**k for k in range(3, 8))
                 if lister.list(full, DD_GRID.min_stops, n) is not None)
    low, high = steps // 10, steps  # the exact count: the least budget that lists it
    while low + 1 < high:
        mid = (low + high) // 2
        low, high = (low, mid) if lister.list(full, DD_GRID.min_stops, mid) else (mid, high)
    assert lister.list(full, DD_GRID.min_stops, high - 1) is None
    # The walk gives up below that count and lists at it (its early give-up off: foretold).
    never = 10**6
    assert list_weighed(*args, full, DD_GRID.min_stops, instance.groups, high,
                        foretold=never) is not None
    assert list_weighed(*args, full, DD_GRID.min_stops, instance.groups, high - 1,
                        foretold=never) is None


def test_a_listing_too_long_is_dropped() -> None:
    big = grid_problem(8, 8, (None, None), seed=1)
    instance = Instance.make(big, reduce_problem(big), "total")
    assert list_weighed(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                        99, big.min_stops, instance.groups, DEFAULT_OPTIONS.pair_steps) is None
    assert pair_routes(instance) is None
    assert sorted(build_model(instance).circuits) == [0, 1]


def test_a_cancelled_pair_listing_stops() -> None:
    token = CancelToken()
    token.cancel()
    instance = Instance.make(DD_GRID, reduce_problem(DD_GRID), "total")
    with pytest.raises(Cancelled):
        pair_routes(instance, cancel=token)
    assert solve(DD_GRID, cancel=token).status == "UNKNOWN"


#: Track keys for the pair bound's tests: junction bits and segment bits (WIDTH + bit).
_BOUND_KEYS = (0, 1, 2, 7, 8, 63, 64, 65, 71, 72, 127)
_key_sets = st.frozensets(st.sampled_from(_BOUND_KEYS), max_size=5)


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 50), _key_sets), min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(1, 50), _key_sets), min_size=1, max_size=12),
       st.integers(0, 12), st.integers(0, 120))
def test_the_pair_bound_is_its_rule_and_never_below_the_best_partner(
        partners: list[tuple[int, frozenset[int]]],
        routes: list[tuple[int, frozenset[int]]], head: int, upto: int) -> None:
    """``PairBound``: a route's weight plus, over its keys b, the least heaviest partner
    avoiding its anchor a (its key of least single-key entry, ties by key) and b; at
    least the weight plus its heaviest partner with no key in common (brute force).
    Entries are looked for among the first ``head`` partners first; given ``upto``, the
    bound is exact where it is at most ``upto``, a bound elsewhere."""
    import numpy as np

    import route18xx.solver.listing.pairvector as pairvector

    partners = sorted(partners, key=lambda p: -p[0])  # the scan's partners, heaviest first
    weights = [w for w, _ in partners]
    users = [sum(1 << n for n, (_, keys) in enumerate(partners) if k in keys)
             for k in range(2 * pairvector.WIDTH)]
    bound = pairvector.PairBound(users, weights, (1 << len(partners)) - 1, head)

    def entry(*avoid: int) -> int:  # the heaviest partner using none of ``avoid``
        return max((w for w, keys in partners if not keys & set(avoid)), default=0)

    width = pairvector.WIDTH
    junctions = np.array([sum(1 << k for k in keys if k < width) for _, keys in routes],
                         dtype=np.uint64)
    segments = np.array([sum(1 << (k - width) for k in keys if k >= width)
                         for _, keys in routes], dtype=np.uint64)
    weighed = np.array([w for w, _ in routes], dtype=np.int64)
    got = bound.bounds(weighed, junctions, segments)
    some = bound.bounds(weighed, junctions, segments, upto)
    for (weight, keys), value, cut in zip(routes, got.tolist(), some.tolist()):
        used = sorted(k for k in keys if users[k])
        if used:
            anchor = min(used, key=lambda k: (entry(k), k))
            want = weight + min(entry(anchor, b) for b in used)
        else:
            want = weight + weights[0]
        assert value == want
        assert cut >= want and (cut == want or want > upto)
        assert value >= weight + entry(*keys)


_scan_routes = st.lists(st.tuples(st.integers(1, 30), _key_sets), max_size=40).map(
    lambda routes: sorted(routes, key=lambda r: -r[0]))


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(_scan_routes, st.none() | _scan_routes)
def test_the_numpy_scan_finds_the_pair_best_pair_finds(
        first: list[tuple[int, frozenset[int]]],
        second: list[tuple[int, frozenset[int]]] | None) -> None:
    """``pairvector.scan`` (masks, the pair bound, the repeated-track skip, the partners'
    window) returns ``pairs.best_pair``'s triple on the same lists; its value is the
    brute force's (the heaviest route, or pair with no key in common)."""
    import numpy as np

    from route18xx.solver.listing.pairvector import WIDTH, scan

    def table(routes: list[tuple[int, frozenset[int]]]) -> tuple[Any, Any, Any]:
        return (np.array([w for w, _ in routes], dtype=np.int64),
                np.array([sum(1 << k for k in keys if k < WIDTH) for _, keys in routes],
                         dtype=np.uint64),
                np.array([sum(1 << (k - WIDTH) for k in keys if k >= WIDTH)
                          for _, keys in routes], dtype=np.uint64))

    as_keys = [[(w, tuple(sorted(keys))) for w, keys in routes]
               for routes in (first, second if second is not None else first)]
    want = best_pair(as_keys[0], None if second is None else as_keys[1])
    got = scan(table(first), None if second is None else table(second), 10**9)
    assert got == want
    other = first if second is None else second
    pairs = [w + v for n, (w, a) in enumerate(first) for m, (v, b) in enumerate(other)
             if not a & b and (second is not None or m >= n)]
    singles = [w for w, _ in first + other]
    assert got is not None and got[0] == max(pairs + singles, default=0)


def test_the_numpy_scan_stops_when_its_call_is_cancelled() -> None:
    """A cancelled call does not wait for the scan's end (it may take 200 ms): the scan
    polls the token and raises ``Cancelled``; uncancelled, the same lists are scanned."""
    import numpy as np

    from route18xx.solver.listing.pairvector import scan

    lists = (np.array([10, 9, 8], dtype=np.int64), np.array([1, 1, 2], dtype=np.uint64),
             np.array([0, 0, 0], dtype=np.uint64))
    token = CancelToken()
    assert scan(lists, None, 10**9, token) == (18, 0, 2)  # 10 + 8: no junction shared
    token.cancel()
    with pytest.raises(Cancelled):
        scan(lists, None, 10**9, token)


#: Grids past one 64-bit word (issue 35): 70 stops, about 100 stop-to-stop segments.
_WIDE = (7, 10)


@settings(max_examples=max(3, EXAMPLES // 30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_the_numpy_listing_lists_boards_wider_than_a_word(seed: int, cost: int) -> None:
    """Multi-word masks (``capacity.words``): on boards of more than 64 nodes and 64
    stop-to-stop segments the numpy listing lists what ``list_routes`` lists, and its pair
    is the walk's (``vector_from=None``: the depth-first walk alone)."""
    from route18xx.solver.listing.capacity import WORD_BITS, fits
    from route18xx.solver.listing.pairvector import Lister

    problem = grid_problem(*_WIDE, (cost, cost + 1), seed=seed)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    assert instance.graph.node_count > WORD_BITS and fits(instance.graph, instance.groups)
    plain = list_routes(instance.graph, instance.stops, cost + 1, problem.min_stops,
                        instance.groups, 10**7)
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    listed = lister.list(cost + 1, problem.min_stops, 10**7)
    assert plain is not None and listed is not None and lister.node_words >= 2
    want = sorted((instance.route_weight(r.stops), r) for r in plain
                  if instance.route_weight(r.stops) > 0)
    got = sorted((int(w), lister.route(listed, i)) for i, w in enumerate(listed.weights))
    assert got == want
    walked = pair_routes(instance, vector_from=None)
    vectored = pair_routes(instance, vector_from=1)
    assert walked is not None and vectored is not None

    def weight(pair: dict[int, Any]) -> int:
        return sum(instance.route_weight(r.stops) for r in pair.values())

    assert weight(vectored) == weight(walked)


def test_a_wide_pair_equals_the_circuit_model() -> None:
    """The pair scan on a two-word board proves the optimum CP-SAT's circuits (the
    independent model: no listing) prove."""
    problem = grid_problem(*_WIDE, (3, 4), seed=5)
    listed = solve(problem)
    circuit = solve(problem, method="circuit", time_limit_s=60.0)
    assert listed.status == circuit.status == "OPTIMAL"
    assert listed.objective == circuit.objective
    assert listed.listed_routes and not circuit.listed_routes
    assert validate(problem, listed, "total") == []


def test_a_board_past_the_declared_words_is_walked_in_python() -> None:
    """``capacity.fits`` reads the declared width (``MASK_WORDS``): a board needing one word
    more is not given to the numpy listing, and the Python walk (no width) still finds
    its pair; one word less fits."""
    from route18xx.solver.listing import capacity

    problem = grid_problem(*_WIDE, (2, 2), seed=3)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    needed = capacity.words(instance.graph.node_count)
    assert needed == 2 and capacity.fits(instance.graph, instance.groups)
    narrow = pytest.MonkeyPatch()
    narrow.setattr(capacity, "MASK_WORDS", needed - 1)
    try:
        assert not capacity.fits(instance.graph, instance.groups)
        walked = pair_routes(instance, vector_from=1)
    finally:
        narrow.undo()
    assert walked is not None
    vectored = pair_routes(instance, vector_from=1)
    assert vectored is not None
    assert sorted(walked.items()) == sorted(vectored.items())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.sampled_from([None, 2, 3]), st.data())
def test_two_trains_that_earn_alike_their_own_values_take_the_pair_scan(
        problem: RouteProblem, distance: int | None, data: st.DataObject) -> None:
    """Two trains with the same ``stop_values`` (two D-trains at 1889's diesel off-boards)
    earn alike: one listing weighed with their values serves both, and the pair matches
    brute force; a train with other values beside them does not (``shared_weights``)."""
    n = len(problem.stops)
    chosen = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=3)) if n else []
    own = tuple((s, problem.stops[s].value + 50) for s in sorted(chosen))
    alike = RouteProblem(problem.stops, problem.junctions, problem.segments,
                         (Train("D", distance, own), Train("D", distance, own)), problem.groups,
                         problem.bonuses, problem.min_stops)
    got = _pair_solution(alike, "total")
    assert got is not None
    want = brute_force(alike, objective="total")
    assert validate(alike, got, "total") == []
    assert got.revenue + got.subsidy == want.revenue + want.subsidy
    if own:
        unlike = RouteProblem(problem.stops, problem.junctions, problem.segments,
                              (Train("6", distance), Train("D", distance, own)), problem.groups,
                              problem.bonuses, problem.min_stops)
        instance = Instance.make(unlike, reduce_problem(unlike), "total")
        if not instance.uniform and instance.shared_weights is None:
            assert pair_routes(instance) is None

@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.integers(1, 6), st.integers(1, 8))
def test_a_beam_lists_legal_routes_and_a_wide_one_lists_them_all(
        problem: RouteProblem, cost: int, width: int) -> None:
    """Issue 35: the beam keeps the heaviest partial routes of a layer; its routes are
    routes ``list_routes`` lists, and a beam wider than any layer is the whole listing."""
    from route18xx.solver.listing.pairvector import Lister

    instance = Instance.make(problem, reduce_problem(problem), "total")
    plain = list_routes(instance.graph, instance.stops, cost, problem.min_stops,
                        instance.groups, 10**6)
    assert plain is not None
    every = {(instance.route_weight(r.stops), r) for r in plain}
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    beam = lister.list(cost, problem.min_stops, 10**6, width=width)
    assert beam is not None
    got = [(int(w), lister.route(beam, i)) for i, w in enumerate(beam.weights)]
    assert set(got) <= every
    wide = lister.list(cost, problem.min_stops, 10**6, width=10**6)
    assert wide is not None
    assert sorted((int(w), lister.route(wide, i)) for i, w in enumerate(wide.weights)) == \
        sorted((w, r) for w, r in every if w > 0)


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems(), st.sampled_from([None, 2, 3]), st.integers(1, 8))
def test_the_beam_pair_is_legal_and_never_above_the_optimum(
        problem: RouteProblem, d2: int | None, width: int) -> None:
    """``beam_pair`` is a first solution: legal routes (the validator), worth at most the
    optimum (brute force), and the optimum itself when the beam holds every route."""
    from route18xx.solver.listing.pairs import beam_pair

    problem = RouteProblem(problem.stops, problem.junctions, problem.segments,
                           (Train("a", None), Train("b", d2)), problem.groups,
                           problem.bonuses, problem.min_stops)
    instance = Instance.make(problem, reduce_problem(problem), "total")
    want = brute_force(problem, objective="total")
    built = build_model(instance, "circuit")  # only for ``_expand``'s reduced graph
    for w, exact in ((width, False), (10**6, True)):
        pair = beam_pair(instance, w)
        assert pair is not None
        routes = tuple(_expand(built, k, r.stops, r.steps) for k, r in sorted(pair.items()))
        revenue, subsidy = sum(r.revenue for r in routes), sum(r.subsidy for r in routes)
        got = Solution(routes, revenue, subsidy, "FEASIBLE", revenue + subsidy, 10**9)
        assert validate(problem, got, "total") == []
        assert got.objective <= want.revenue + want.subsidy
        if exact:
            assert got.objective == want.revenue + want.subsidy


def test_the_first_solution_of_two_circuits_takes_the_beam_where_it_is_better() -> None:
    """On the 6×6 D + D grid the beam's pair is at least the sample's."""
    from route18xx.solver.listing.greedy import greedy_routes

    instance = Instance.make(DD_GRID, reduce_problem(DD_GRID), "total")
    value = instance.route_weight
    sampled = greedy_routes(instance, 2500)
    beamed = greedy_routes(instance, 2500, width=200)
    assert sum(value(r.stops) for r in beamed.values()) >= sum(
        value(r.stops) for r in sampled.values())
    assert set(beamed) == {0, 1}
