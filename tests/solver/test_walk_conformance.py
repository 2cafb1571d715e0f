"""Every walk of the solver yields the routes the rules allow, and no other (issue 33 item 2).

The reference is the brute force of ``solver/witnesses/bruteforce.py``: it reads the
route rules straight from ``solver/problem.py`` on the unreduced track, as networkx
simple paths, and shares no code with the walks (nor with ``solver/rules.py``, the one
description the walks read). Per train distance (1–4 and unlimited), on the reduced
graph of the same problem:

* the enumerations list exactly the reference's routes: ``list_routes`` all of them,
  the pair listings (``pairwalk.list_weighed`` and the numpy ``pairvector`` listing, on
  boards that fit its masks) those of positive weight, at the same weight;
* the best-route searches find the reference's best weight and a reference route:
  ``bestroute.best_route`` per distance, ``bestreach`` and ``bothreach`` (both
  objectives at once) for the unlimited train;
* the circuit model (CP-SAT) states the rules as constraints: its lone train's optimum
  is the reference's best.

Weights are the problem's first train's: what it earns at each stop, its own values where
it has them (``Train.stop_values``), as the brute force prices them (``as_run_by``).

Material: hypothesis's random boards (``tests/solver/strategies.py``: junction sides
with several pieces of track, parallel segments, route-end-only stops, groups, free
stops, subsidies, bonuses) and the rules' named cases below. ``make test`` runs 120
examples; ``ROUTE18XX_CONFORMANCE_EXAMPLES=5000`` is the long run.

``test_changing_the_junction_rule_is_caught_in_every_walk`` changes the junction rule in
``solver/rules.py`` (a junction left by the side it was entered) and shows that the
check fails for every walk: no walk keeps a copy of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings

from route18xx.solver import rules, solve
from route18xx.solver.graph.reduce import ReducedGraph, reduce_problem
from route18xx.solver.listing.bestreach import best_reach_route
from route18xx.solver.listing.bestroute import best_route
from route18xx.solver.listing.bothreach import best_reach_both
from route18xx.solver.listing.capacity import fits
from route18xx.solver.listing.pairvector import Lister
from route18xx.solver.listing.pairwalk import list_weighed, rebuild
from route18xx.solver.listing.routes import ListedRoute, list_routes
from route18xx.solver.model.model import Instance
from route18xx.solver.problem import RouteProblem, Train
from route18xx.solver.witnesses.bruteforce import Candidate, as_run_by, candidates
from tests.solver.boards import Board
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_CONFORMANCE_EXAMPLES", "120"))
#: no walk may give up on these small boards
STEPS = 10**7
#: the distances checked: 1–4 and an unlimited train (None)
DISTANCES: tuple[int | None, ...] = (1, 2, 3, 4, None)

#: A route as both sides write it: (original stops, original segments), from the end
#: that makes the smaller tuple (the reference lists each route once, walks may too).
Key = tuple[tuple[int, ...], tuple[int, ...]]


def key(stops: tuple[int, ...], segments: tuple[int, ...]) -> Key:
    return min((stops, segments), (stops[::-1], segments[::-1]))


class Reduced(NamedTuple):
    """A problem's reduced graph and its data there (the ``"total"`` objective)."""

    problem: RouteProblem
    graph: ReducedGraph
    instance: Instance
    full: int  # the distance an unlimited train reaches: every stop's cost

    def original(self, route: ListedRoute) -> Key:
        """A listed route as original stops and segments."""
        segments: list[int] = []
        for seg_i, forward in route.steps:
            originals = self.graph.segments[seg_i].originals
            segments += originals if forward else originals[::-1]
        return key(tuple(self.graph.nodes[s] for s in route.stops), tuple(segments))

    @property
    def weights(self) -> list[int]:
        """The stops' weights for the problem's first train (its own values, if any)."""
        return self.instance.train_weights[0]

    def weight(self, route: ListedRoute) -> int:
        return self.instance.route_weight(route.stops, 0)


def reduced(problem: RouteProblem) -> Reduced:
    graph = reduce_problem(problem)
    instance = Instance.make(problem, graph, "total")
    return Reduced(problem, graph, instance,
                   sum(max(0, s.distance_cost) for s in problem.stops))


def reference(problem: RouteProblem, distance: int | None) -> dict[Key, Candidate]:
    """The brute force's legal routes within ``distance``, priced for the problem's first
    train (what it earns at each stop)."""
    return {key(c.stops, c.segments): as_run_by(problem, 0, c) for c in candidates(problem)
            if distance is None or c.cost <= distance}


def totals(routes: dict[Key, Candidate]) -> dict[Key, int]:
    """Each route's weight for the ``"total"`` objective: revenue (bonuses in) + subsidy."""
    return {k: c.revenue + c.subsidy for k, c in routes.items()}


def positive(routes: dict[Key, int]) -> dict[Key, int]:
    return {k: w for k, w in routes.items() if w > 0}


def best(routes: dict[Key, int]) -> int:
    return max([0, *routes.values()])


#: A walk's check: the mismatches between it and the reference at one distance ([] when
#: it conforms).
Check = Callable[[Reduced, int | None, dict[Key, int], dict[Key, Candidate]], list[str]]


def listed(r: Reduced, routes: list[ListedRoute]) -> dict[Key, int]:
    return {r.original(route): r.weight(route) for route in routes}


def compare(name: str, got: dict[Key, int], want: dict[Key, int]) -> list[str]:
    if got == want:
        return []
    extra = sorted(set(got) - set(want))[:3]
    missing = sorted(set(want) - set(got))[:3]
    weights = sorted(k for k in set(got) & set(want) if got[k] != want[k])[:3]
    return [f"{name}: extra {extra} missing {missing} weights differ {weights}"]


def check_list_routes(r: Reduced, distance: int | None, want: dict[Key, int],
                     legal: dict[Key, Candidate]) -> list[str]:
    i = r.instance
    routes = list_routes(r.graph, i.stops, r.full if distance is None else distance,
                         r.problem.min_stops, i.groups, max_steps=STEPS)
    assert routes is not None
    return compare("list_routes", listed(r, routes), want)


def check_pairwalk(r: Reduced, distance: int | None, want: dict[Key, int],
                  legal: dict[Key, Candidate]) -> list[str]:
    i = r.instance
    weighed = list_weighed(r.graph, i.stops, r.weights, i.bonuses,
                           r.full if distance is None else distance, r.problem.min_stops,
                           i.groups, STEPS)
    assert weighed is not None
    routes = [rebuild(r.graph, weighed, k) for k in range(len(weighed.weights))]
    got = listed(r, routes)
    mismatch = [f"pairwalk weight {w} != {r.weight(route)}"
                for w, route in zip(weighed.weights, routes) if w != r.weight(route)]
    return mismatch + compare("pairwalk", got, positive(want))


def check_pairvector(r: Reduced, distance: int | None, want: dict[Key, int],
                    legal: dict[Key, Candidate]) -> list[str]:
    i = r.instance
    if not fits(r.graph, i.groups):
        return []  # beyond the listing's declared capacity the chooser never takes it
    lister = Lister(r.graph, i.stops, r.weights, i.bonuses, i.groups)
    found = lister.list(r.full if distance is None else distance, r.problem.min_stops, STEPS)
    assert found is not None
    routes = [lister.route(found, k) for k in range(len(found.weights))]
    return compare("pairvector", listed(r, routes), positive(want))


def best_check(name: str, r: Reduced, routes: list[ListedRoute] | None,
               want: dict[Key, int]) -> list[str]:
    assert routes is not None
    if not routes:
        return [] if best(want) <= 0 else [f"{name}: none, the best weighs {best(want)}"]
    route = r.original(routes[0])
    if want.get(route) != r.weight(routes[0]):
        return [f"{name}: {route} is not a legal route of weight {r.weight(routes[0])}"]
    if r.weight(routes[0]) != best(want):
        return [f"{name}: weight {r.weight(routes[0])}, the best weighs {best(want)}"]
    return []


def check_bestroute(r: Reduced, distance: int | None, want: dict[Key, int],
                   legal: dict[Key, Candidate]) -> list[str]:
    i = r.instance
    found = best_route(r.graph, i.stops, r.weights, i.bonuses,
                       r.full if distance is None else distance, r.problem.min_stops,
                       i.groups, STEPS)
    return best_check("bestroute", r, found, want)


def check_bestreach(r: Reduced, distance: int | None, want: dict[Key, int],
                   legal: dict[Key, Candidate]) -> list[str]:
    if distance is not None:
        return []  # the unlimited train's search
    i = r.instance
    found = best_reach_route(r.graph, i.stops, r.weights, i.bonuses,
                             r.problem.min_stops, i.groups, STEPS)
    return best_check("bestreach", r, found, want)


def check_bothreach(r: Reduced, distance: int | None, want: dict[Key, int],
                   legal: dict[Key, Candidate]) -> list[str]:
    """Both objectives at once: the total's best, and the revenue's (revenue first,
    subsidy the tie-break) as the revenue's instance weighs it."""
    if distance is not None:
        return []
    i = r.instance
    by_revenue = Instance.make(r.problem, r.graph, "revenue")
    found = best_reach_both(r.graph, i.stops, (r.weights, i.bonuses),
                            (by_revenue.train_weights[0], by_revenue.bonuses),
                            r.problem.min_stops, i.groups, STEPS)
    assert found is not None
    total, revenue = found  # (the total's, the revenue's)
    problems = best_check("bothreach (total)", r, total, want)
    scaled = {k: by_revenue.scale * c.revenue + c.subsidy for k, c in legal.items()}
    if revenue:
        got = by_revenue.route_weight(revenue[0].stops, 0)
        if got != max(scaled.values()) or r.original(revenue[0]) not in want:
            problems.append(f"bothreach (revenue): {got}, the best {max(scaled.values())}")
    elif max([0, *scaled.values()]) > 0:
        problems.append("bothreach (revenue): none")
    return problems


def check_circuit(r: Reduced, distance: int | None, want: dict[Key, int],
                 legal: dict[Key, Candidate]) -> list[str]:
    one = RouteProblem(r.problem.stops, r.problem.junctions, r.problem.segments,
                       (Train("t", distance, r.problem.trains[0].stop_values),),
                       r.problem.groups, r.problem.bonuses,
                       r.problem.min_stops)
    got = solve(one, method="circuit", time_limit_s=30.0)
    assert got.status == "OPTIMAL"
    problems = [] if got.objective == best(want) else [
        f"circuit: {got.objective}, the best weighs {best(want)}"]
    for route in got.routes:
        if key(route.stops, route.segments) not in want:
            problems.append(f"circuit: {route.stops} {route.segments} is not a legal route")
    return problems


WALKS: dict[str, Check] = {
    "list_routes": check_list_routes,
    "pairwalk": check_pairwalk,
    "pairvector": check_pairvector,
    "bestroute": check_bestroute,
    "bestreach": check_bestreach,
    "bothreach": check_bothreach,
    "circuit": check_circuit,
}


def mismatches(problem: RouteProblem, walks: dict[str, Check] = WALKS) -> Iterator[str]:
    """Every walk's mismatches with the reference, per distance."""
    r = reduced(problem)
    for distance in DISTANCES:
        legal = reference(problem, distance)
        want = totals(legal)
        for name, check in walks.items():
            for problem_text in check(r, distance, want, legal):
                yield f"distance {distance}: {problem_text}"


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(route_problems(max_nodes=9))
def test_every_walk_lists_the_legal_routes(problem: RouteProblem) -> None:
    assert list(mismatches(problem)) == []


# The rules' named cases (ROUTES.md; tests/solver/test_rules.py solves them whole).

def reversing_junction() -> RouteProblem:
    """Two track pieces of one tile meet at one hex edge (the junction's side 0: 1830's
    tiles 23–29 and 39–47), the hex beyond it on side 1. A route may run A–J–C or
    B–J–C through the edge, never A–J–B: that turns back at the edge."""
    return (Board().stop("A", 10, station=True).stop("B", 90).stop("C", 20).junction("J")
            .link("A", ("J", 0)).link("B", ("J", 0)).link(("J", 1), "C")).problem(2)


def test_a_route_cannot_reverse_at_a_junction_where_two_pieces_meet_at_one_edge() -> None:
    problem = reversing_junction()
    assert set(reference(problem, 2)) == {key((0, 2), (0, 2))}  # A–J–C; B–J–C has no station
    assert list(mismatches(problem)) == []
    assert solve(problem).revenue == 30  # never A–J–B's 100


@pytest.mark.parametrize("case", ["route end only", "groups", "free stop", "min stops 3",
                                  "parallel track"])
def test_named_rules_hold_in_every_walk(case: str) -> None:
    board = (Board().stop("A", 10, station=True).stop("B", 40).stop("C", 30).stop("D", 20)
             .junction("J").link("A", "B").link("B", "C").link("C", ("J", 0))
             .link(("J", 1), "D").link("A", ("J", 1)))
    problem = {
        "route end only": lambda: _flagged(board, 1, route_end_only=True).problem(3),
        "groups": lambda: board.problem(3, groups=(("B", "C"),)),
        "free stop": lambda: _flagged(board, 2, distance_cost=0).problem(2),
        "min stops 3": lambda: board.problem(4, min_stops=3),
        "parallel track": lambda: board.link("A", "B").problem(2),
    }[case]()
    assert list(mismatches(problem)) == []


def _flagged(board: Board, stop: int, **flags: object) -> Board:
    old = board.stops[stop]
    fields = {"name": old.name, "value": old.value, "distance_cost": old.distance_cost,
              "route_end_only": old.route_end_only, "subsidy": old.subsidy,
              "station": old.station, **flags}
    copy = Board(list(board.stops), list(board.junctions), list(board.segments))
    copy.stops[stop] = type(old)(**fields)  # type: ignore[arg-type]
    return copy


@pytest.mark.parametrize("walk", sorted(set(WALKS) - {"circuit"}))
def test_changing_the_junction_rule_is_caught_in_every_walk(
        walk: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the junction left by the side it was entered, each walk lists A–J–B and
    misses A–J–C: the conformance check reports it. (The circuit model states the rule
    as its own constraint, ``add_junction_sides``; it is checked by the same reference.)"""
    problem = reversing_junction()
    assert list(mismatches(problem, {walk: WALKS[walk]})) == []
    monkeypatch.setattr(rules, "side_left", lambda side: side)
    assert list(mismatches(problem, {walk: WALKS[walk]})) != []
