"""Derived data kept per problem content (solver/runtime/derived.py, issue 21): the LRU itself,
and a solve from the caches equal to one computed afresh, never a stale one."""

from __future__ import annotations

from dataclasses import replace

from route18xx.solver import reduce_problem, solve
from route18xx.solver.runtime.derived import Lru, clear_caches
from route18xx.solver.model.model import LISTED
from route18xx.solver.problem import RouteProblem, Segment, Stop, Train
from route18xx.solver.search import REDUCED


def test_lru_keeps_the_most_recent_and_counts() -> None:
    cache: Lru[int] = Lru(size=2)
    calls: list[str] = []

    def make(key: str, value: int) -> int:
        calls.append(key)
        return value

    assert cache.get("a", lambda: make("a", 1)) == 1
    assert cache.get("b", lambda: make("b", 2)) == 2
    assert cache.get("a", lambda: make("a", 9)) == 1  # hit: not recomputed
    assert cache.get("c", lambda: make("c", 3)) == 3  # evicts b, the least recent
    assert cache.get("b", lambda: make("b", 4)) == 4
    assert calls == ["a", "b", "c", "b"]
    assert (cache.hits, cache.misses, len(cache)) == (1, 4, 2)
    cache.clear()
    assert (cache.hits, cache.misses, len(cache)) == (0, 0, 0)


def test_nothing_stored_when_the_computation_raises() -> None:
    cache: Lru[int] = Lru()

    def fail() -> int:
        raise ValueError("no")

    for _ in range(2):
        try:
            cache.get("k", fail)
        except ValueError:
            pass
    assert len(cache) == 0 and cache.misses == 2


def _line(value_c: int) -> RouteProblem:
    """A - B - C, a 2-train: the best route is the better pair (by hand)."""
    stops = (Stop("A", 20, station=True), Stop("B", 30), Stop("C", value_c))
    segments = (Segment(0, 1, -1, -1, "ab"), Segment(1, 2, -1, -1, "bc"))
    return RouteProblem(stops=stops, junctions=(), segments=segments, trains=(Train("2", 2),))


def test_a_solve_again_reuses_the_listing_and_a_changed_board_does_not() -> None:
    clear_caches()
    first = solve(_line(10))
    assert (first.revenue, first.routes[0].stops) == (50, (0, 1))  # A-B 20+30
    hits = (REDUCED.hits, LISTED.hits)
    again = solve(_line(10))
    assert (REDUCED.hits, LISTED.hits) == (hits[0] + 1, hits[1] + 1)
    assert again == replace(first, stats=again.stats)
    # C now worth 40: B-C is 70 but needs a station (A has the only one), so A-B stays
    changed = solve(_line(40))
    assert (changed.revenue, changed.routes[0].stops) == (50, (0, 1))
    # a station at C: the cached listing of the old board must not answer
    stations = _line(40)
    stations = replace(stations, stops=stations.stops[:2] + (Stop("C", 40, station=True),))
    best = solve(stations)
    assert (best.revenue, best.routes[0].stops) == (70, (1, 2))
    # "revenue" without a subsidy weighs stops as "total" does: the same entry …
    misses = LISTED.misses
    solve(_line(10), objective="revenue")
    assert LISTED.misses == misses
    # … with one (a mine at B) the weights differ: its own entry
    mine = replace(_line(10), stops=(Stop("A", 20, station=True), Stop("B", 30, subsidy=10),
                                     Stop("C", 10)))
    solve(mine)
    solve(mine, objective="revenue")
    assert LISTED.misses == misses + 2


def test_a_problem_hashes_by_content_once_and_pickles_without_its_hash() -> None:
    import pickle

    a, b = _line(10), _line(10)
    assert a is not b and a == b and hash(a) == hash(b)
    assert "_content_hash" in a.__dict__  # kept after the first hash
    copy = pickle.loads(pickle.dumps(a))
    assert "_content_hash" not in copy.__dict__ and copy == a and hash(copy) == hash(a)
    other = replace(a, stops=a.stops[:2] + (Stop("C", 11),))
    assert other != a and "_content_hash" not in other.__dict__
    assert {a: 1, other: 2}[_line(10)] == 1
    graph = reduce_problem(a)
    assert hash(graph) == hash(pickle.loads(pickle.dumps(graph)))
