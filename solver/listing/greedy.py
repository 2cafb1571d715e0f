"""A quick first solution: each train in turn takes the best route left (issue 11, item 2).

The greedy answer is legal by construction (every route comes from
``list_routes``, which checks the route rules; the track keys of the routes
taken are kept disjoint, the track-used-once rule). It serves twice:

* as CP-SAT's solution hint, so the search starts from a good incumbent;
* as the answer when CP-SAT finds nothing better in the time it is given
  (status ``FEASIBLE`` with a bound): a legal board always gets legal routes.

Trains choose longest distance first (unlimited first); routes of an unlimited
train are a sample (``list_routes(..., sample=True)``), bounded in steps. Two
trains take the best pair of their pools instead (``solver/listing/pairs.py``, issue 21:
a better first solution where two circuits share the track).
"""

from __future__ import annotations

from route18xx.solver.listing.pairs import beam_pair, best_pair
from route18xx.solver.listing.routes import ListedRoute, list_routes
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from route18xx.solver.model.model import Instance

def greedy_routes(
    instance: Instance,
    max_steps: int = DEFAULT_OPTIONS.greedy_steps,
    listed: dict[int, list[tuple[int, ListedRoute]]] | None = None,
    options: SolveOptions = DEFAULT_OPTIONS,
    width: int = 0,
) -> dict[int, ListedRoute]:
    """Train index → its greedy route (trains without a route are left out).

    ``listed`` gives, for trains whose routes are already listed, their
    (weight, route) pairs best first; other trains list a sample. Two trains, neither
    listed, also take the best pair of a beam of ``width`` partial routes a layer
    (``pairs.beam_pair``, issue 35) where it beats the sample's.
    """
    listed = listed or {}
    if len(instance.problem.trains) == 2 and width > 0 and not listed:
        beam = beam_pair(instance, width, options)
        if beam is not None:
            sampled = greedy_routes(instance, max_steps, None, options)
            value = instance.route_weight
            if sum(value(r.stops) for r in beam.values()) >= sum(
                    value(r.stops) for r in sampled.values()):
                return beam
            return sampled
    problem, graph = instance.problem, instance.graph
    unlimited = sum(max(0, s.distance_cost) for s in instance.stops)
    order = sorted(range(len(problem.trains)),
                   key=lambda k: -(problem.trains[k].distance or unlimited + 1))
    #: per reach and own stop values (trains that earn alike), the ranked routes
    by_cost: dict[tuple[int, tuple[tuple[int, int], ...]], list[tuple[int, ListedRoute]]] = {}
    pools: dict[int, list[tuple[int, ListedRoute]]] = {}
    for k in order:
        cost = min(problem.trains[k].distance or unlimited, unlimited)
        kind = (cost, problem.trains[k].stop_values)
        if k in listed:
            pools[k] = listed[k]
        elif kind in by_cost:
            pools[k] = by_cost[kind]
        elif len(order) == 2 and by_cost and instance.shared_weights is not None:
            # the longer train's sample serves the shorter
            longer = next(iter(by_cost.values()))
            pools[k] = by_cost[kind] = [wr for wr in longer if wr[1].cost <= cost]
        else:
            routes = list_routes(graph, instance.stops, cost, problem.min_stops,
                                 instance.groups, max_steps, sample=True) or []
            ranked = [(instance.route_weight(r.stops, k), r) for r in routes]
            ranked.sort(key=lambda wr: -wr[0])
            pools[k] = by_cost[kind] = ranked
    if len(order) == 2:
        pair = _best_pair_of(pools[0], pools[1], options.pair_work // 4)
        if pair is not None:
            return pair
    used: set[int] = set()
    out: dict[int, ListedRoute] = {}
    for k in order:
        for weight, route in pools[k]:
            if weight <= 0:
                break
            if used.isdisjoint(route.track):
                used.update(route.track)
                out[k] = route
                break
    return out


def _best_pair_of(
    first: list[tuple[int, ListedRoute]], second: list[tuple[int, ListedRoute]], max_work: int,
) -> dict[int, ListedRoute] | None:
    """Two trains: the best pair of their pools (``solver/listing/pairs.py``), not the greedy one."""
    pools = [[wr for wr in pool if wr[0] > 0] for pool in (first, second)]
    same = first is second
    found = best_pair([(w, r.track) for w, r in pools[0]],
                      None if same else [(w, r.track) for w, r in pools[1]], max_work)
    if found is None:
        return None
    _, i, j = found
    out = {}
    if i is not None:
        out[0] = pools[0][i][1]
    if j is not None:
        out[1] = pools[0 if same else 1][j][1]
    return out
