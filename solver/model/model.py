"""Building the CP-SAT route model over a reduced graph (DESIGN.md §3).

Each train is modelled one of two ways (``Method``):

* a **circuit** (``solver/model/trainvars.py`` + ``solver/model/constraints.py``): one
  ``AddCircuit`` over {depot} ∪ nodes with the route rules as constraints —
  for unlimited trains (except a lone one whose best route a bounded branch and
  bound finds, ``solver/listing/bestreach.py``), and for every train with ``method="circuit"``;
* a **listed** choice (``solver/listing/routes.py``): with ``method="auto"``, trains
  of limited distance whose legal routes can be listed quickly choose among
  them (one literal per route, at most one route per train of that distance).

Both kinds meet in the track-used-once constraints and the objective.
Objective weights: a stop is worth M·value + subsidy, a bonus M·value, where
M = 1 for ``"total"`` and M > any total subsidy for ``"revenue"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeAlias

from route18xx.solver.model.constraints import (
    add_direction,
    add_distance,
    add_groups,
    add_identical_order,
    add_junction_sides,
    add_pair_bonus,
    add_route_ends,
    add_route_shape,
    add_track_once,
    track_users,
)
from route18xx.solver.listing.bestreach import best_reach_search
from route18xx.solver.listing.bestroute import best_route
from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.model.cpsat import Lit, Model
from route18xx.solver.runtime.derived import Lru
from route18xx.solver.errors import Cancelled
from route18xx.solver.listing.packing import best_packing
from route18xx.solver.listing.pairs import pair_routes
from route18xx.solver.listing.setscan import set_packing, set_routes
from route18xx.solver.problem import RouteProblem, Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute, list_routes, reversed_route
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

from route18xx.solver.objective import METHODS as METHODS, OBJECTIVES as OBJECTIVES  # re-exported

if TYPE_CHECKING:  # the circuits' layout and variables load with the first circuit
    from route18xx.solver.model.trainvars import Layout, TrainVars
from route18xx.solver.objective import Method as Method, Objective as Objective


@dataclass
class Instance:
    """The problem's data restated on the reduced graph (stop indices reduced)."""

    problem: RouteProblem
    graph: ReducedGraph
    stops: list[Stop]
    groups: list[list[int]]
    #: (weight, first stops, second stops) per pair bonus
    bonuses: list[tuple[int, list[int], list[int]]]
    #: per stop, its objective weight for a train that earns every stop's ``value``
    stop_weights: list[int]
    scale: int
    #: per train, its stops' weights: ``stop_weights`` itself, or the train's own where
    #: it earns its own values (``Train.stop_values``)
    train_weights: list[list[int]]

    @classmethod
    def make(cls, problem: RouteProblem, graph: ReducedGraph, objective: Objective) -> Instance:
        n_stops = graph.stop_count
        stops = [problem.stops[o] for o in graph.nodes[:n_stops]]
        index = {o: r for r, o in enumerate(graph.nodes[:n_stops])}

        def local(stop_set: frozenset[int]) -> list[int]:
            return sorted(index[s] for s in stop_set if s in index)

        scale = revenue_scale(problem, objective)
        stop_weights = [scale * stop.value + stop.subsidy for stop in stops]
        originals = graph.nodes[:n_stops]

        def weights_of(k: int) -> list[int]:
            if not problem.trains[k].stop_values:
                return stop_weights
            values = problem.values_of(k)
            return [scale * values[o] + stop.subsidy for o, stop in zip(originals, stops)]

        return cls(
            problem=problem,
            graph=graph,
            stops=stops,
            groups=[local(g) for g in problem.groups],
            bonuses=[(scale * b.value, local(b.first), local(b.second)) for b in problem.bonuses],
            stop_weights=stop_weights,
            scale=scale,
            train_weights=[weights_of(k) for k in range(len(problem.trains))],
        )

    @property
    def uniform(self) -> bool:
        """Whether every train earns the same at every stop (no ``Train.stop_values``)."""
        return all(weights is self.stop_weights for weights in self.train_weights)

    @property
    def shared_weights(self) -> list[int] | None:
        """The stop weights every train earns when all earn alike — ``stop_weights`` when
        ``uniform``, or the one list of trains that all earn the same own values (two
        D-trains at 1889's diesel off-boards) — else None: a listing weighed once then
        serves every train."""
        if self.uniform:
            return self.stop_weights
        first = self.train_weights[0] if self.train_weights else self.stop_weights
        return first if all(w == first for w in self.train_weights) else None

    def kind(self, train: int) -> tuple[int | None, tuple[tuple[int, int], ...]]:
        """What makes trains interchangeable: their distance and their own stop values."""
        t = self.problem.trains[train]
        return t.distance, t.stop_values

    def route_weight(self, stops: tuple[int, ...], train: int | None = None) -> int:
        """Objective weight of a route visiting these reduced stops (run by ``train``,
        or by a train earning every stop's ``value``)."""
        weights = self.stop_weights if train is None else self.train_weights[train]
        weight = sum(map(weights.__getitem__, stops))
        if self.bonuses:
            visited = set(stops)
            for value, first, second in self.bonuses:
                if not (visited.isdisjoint(first) or visited.isdisjoint(second)):
                    weight += value
        return weight


def revenue_scale(problem: RouteProblem, objective: Objective) -> int:
    """M of the ``"revenue"`` objective: 1 + the largest possible |total subsidy|."""
    if objective == "total":
        return 1
    return 1 + len(problem.trains) * sum(abs(s.subsidy) for s in problem.stops)


@dataclass
class ListedGroup:
    """The trains of one limited distance, choosing among the listed routes.

    ``choices[r]`` is a literal (or, for a route without track, an integer
    count) saying how many of these trains run ``routes[r]``.
    """

    trains: list[int]
    routes: list[ListedRoute]
    weights: list[int]
    choices: list[Lit] = field(default_factory=list)


@dataclass
class BuiltModel:
    """A built model: circuit trains by train index, listed groups, the objective scale."""

    model: Model
    instance: Instance
    layout: Layout | None  # None without circuit trains
    circuits: dict[int, TrainVars]
    listed: list[ListedGroup]
    #: Per listed group, the route indices of a best packing when every train is
    #: listed (``solver/listing/packing.py``: an exhaustive search, the first best in its
    #: order when several tie): the answer, found without CP-SAT.
    packed: list[list[int]] | None = None
    #: A lone train's first solution where its branch and bound gave up: the best route
    #: it found (``_listed_groups``), the circuit's hint and fallback answer.
    first: dict[int, ListedRoute] = field(default_factory=dict)

    @property
    def linearization(self) -> int:
        """CP-SAT's ``linearization_level`` for this model (measured, issue 11).

        Listed routes alone: 1 (set packing; the LP bound proves it). Two or
        more circuit trains, or a circuit beside listed routes: 2 (the circuit
        cuts close the bound on the hard boards, e.g. 6 + D 1.3 s → 0.2 s,
        5 + D 236 → 142 ms of CPU). One circuit train alone: 0 (the LP only
        slows it, about 8x on real single-D states).
        """
        if len(self.circuits) > 1 or (self.circuits and self.listed_routes):
            return 2
        return 1 if any(g.choices for g in self.listed) else 0

    @property
    def listed_routes(self) -> int:
        return sum(len(g.routes) for g in self.listed)

    def listed_pools(self) -> dict[int, list[tuple[int, ListedRoute]]]:
        """Each listed train's (weight, route) pairs, best first (for ``greedy_routes``)."""
        pools = {}
        for group in self.listed:
            pool = sorted(zip(group.weights, group.routes), key=lambda wr: -wr[0])
            for k in group.trains:
                pools[k] = pool
        return pools

    def hint(self, routes: dict[int, ListedRoute]) -> None:
        """Hand CP-SAT a complete first solution: these routes (train → route), others idle."""
        values: dict[int, int] = {}
        for k, tv in self.circuits.items():
            route = routes.get(k)
            if route is not None and route.stops[0] > route.stops[-1]:
                route = reversed_route(route)
            values.update(tv.assignment(route))
        for group in self.listed:
            index = {(r.stops, r.steps): i for i, r in enumerate(group.routes)}
            counts = [0] * len(group.routes)
            for k in group.trains:
                route = routes.get(k)
                if route is None:
                    continue
                if route.stops[0] > route.stops[-1]:
                    route = reversed_route(route)
                i = index.get((route.stops, route.steps))
                if i is not None:
                    counts[i] += 1
            values.update(zip(group.choices, counts))
        self.model.hint(values)


#: ``list_routes`` per (problem, reduced graph, distance, steps): the legal routes, or
#: None where the listing gave up (``solver/runtime/derived.py``). The routes do not depend on
#: the objective, so an answer's second objective lists nothing again (issue 21).
ROUTES: Lru[tuple[ListedRoute, ...] | None] = Lru()


def _routes_once(instance: Instance, max_cost: int, max_steps: int) -> list[ListedRoute] | None:
    """``list_routes`` on the instance's board, walked once per content (``ROUTES``)."""
    def compute() -> tuple[ListedRoute, ...] | None:
        routes = list_routes(instance.graph, instance.stops, max_cost,
                             instance.problem.min_stops, instance.groups, max_steps)
        return None if routes is None else tuple(routes)

    found = ROUTES.get((instance.problem, instance.graph, max_cost, max_steps), compute)
    return None if found is None else list(found)


def _unlimited_listable(graph: ReducedGraph, options: SolveOptions = DEFAULT_OPTIONS) -> bool:
    """Whether listing an unlimited train's routes may finish (``unlimited_too_big``)."""
    cycles = len(graph.segments) - graph.node_count + 1
    return graph.stop_count * cycles < options.unlimited_too_big


def _listed_groups(
    instance: Instance, max_steps: int, cancel: CancelToken | None = None, floor: int = 1,
    first: list[ListedRoute] | None = None, reach_steps: int = DEFAULT_OPTIONS.reach_steps,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> list[ListedGroup]:
    """Group trains by distance and list their routes; none if too many.

    Unlimited trains are listed too when their routes are found within
    ``SolveOptions.unlimited_steps`` (their distance is then every stop's cost together),
    tried only on boards not too big for it (``SolveOptions.unlimited_too_big``);
    otherwise they keep their circuit: long routes are slow to list and overlap
    too much for the packing's linear relaxation. A lone limited train lists
    only its best route (``solver/listing/bestroute.py``: the same walk, pruned by value);
    a lone unlimited train too, within ``reach_steps`` (``solver/listing/bestreach.py``:
    pruned by the stops still reachable), before its listing is tried (issue 21: on
    the 18 lone-D real states the whole answers took 141 ms of CPU against 162 with
    the listing first, which failed on 129026-576 after its 1 000 steps).
    A lone train's search keeps only routes weighing ``floor`` or more (the model's
    objective: a second objective's floor, issue 21); with none, its group is empty.
    Where the lone unlimited train's walk gives up, the best route it found is put in
    ``first`` (the circuit model's first solution).
    """
    trains = instance.problem.trains
    full = sum(max(0, s.distance_cost) for s in instance.stops)

    def reach(distance: int | None) -> int:
        return full if distance is None else min(distance, full)

    if len(trains) == 1 and trains[0].distance is not None:
        best = best_route(instance.graph, instance.stops, instance.train_weights[0],
                          instance.bonuses, reach(trains[0].distance),
                          instance.problem.min_stops, instance.groups, max_steps, cancel,
                          floor)
        if best is None:
            return []
        return [ListedGroup(trains=[0], routes=best,
                            weights=[instance.route_weight(r.stops, 0) for r in best])]

    routes = None
    listed = [k for k, t in enumerate(trains)]
    limited = [k for k, t in enumerate(trains) if t.distance is not None]
    if len(limited) < len(trains):
        if len(trains) == 1:  # a lone unlimited train: its best route by branch and bound
            alone, complete = best_reach_search(
                instance.graph, instance.stops, instance.train_weights[0], instance.bonuses,
                instance.problem.min_stops, instance.groups, min(reach_steps, max_steps),
                cancel, floor)
            if complete:
                return [ListedGroup(trains=[0], routes=alone,
                                    weights=[instance.route_weight(r.stops, 0) for r in alone])]
            if first is not None:
                first.extend(alone)
        if _unlimited_listable(instance.graph, options):
            routes = _routes_once(instance, full, options.unlimited_steps)
        if routes is None:
            listed = limited
    if routes is None and listed:
        routes = _routes_once(instance, max(reach(trains[k].distance) for k in listed),
                              max_steps)
    if routes is None:
        return []
    if len(trains) > 1 and len(routes) > options.long_list:
        return []  # a long list packs slowly: the circuits with cuts prove it sooner
    # One group per kind of train: its reach and its own stop values (``Instance.kind``).
    kinds: dict[tuple[int, tuple[tuple[int, int], ...]], list[int]] = {}
    for k in listed:
        kinds.setdefault((reach(trains[k].distance), trains[k].stop_values), []).append(k)
    groups = []
    for (d, _), ks in sorted(kinds.items()):
        weights = [instance.route_weight(r.stops, ks[0]) for r in routes]
        keep = [i for i, r in enumerate(routes) if r.cost <= d and weights[i] > 0]
        groups.append(ListedGroup(
            trains=ks,
            routes=[routes[i] for i in keep],
            weights=[weights[i] for i in keep],
        ))
    return groups


#: ``_listed_groups`` per (problem, reduced graph, objective scale, steps, floor, the
#: lone D's walk steps): its
#: (trains, routes, weights) per group, and the lone train's first route where its walk
#: gave up (``solver/runtime/derived.py``).
Listed: TypeAlias = tuple[tuple[tuple[tuple[int, ...], tuple[ListedRoute, ...], tuple[int, ...]],
                                ...], tuple[ListedRoute, ...]]
LISTED: Lru[Listed] = Lru()


def _listed_once(
    instance: Instance, max_steps: int, cancel: CancelToken | None = None, floor: int = 1,
    reach_steps: int = DEFAULT_OPTIONS.reach_steps, options: SolveOptions = DEFAULT_OPTIONS,
) -> tuple[list[ListedGroup], list[ListedRoute]]:
    """``_listed_groups`` and its ``first`` routes, computed once per problem content,
    objective and floor (the walk depends on nothing else); each call gets fresh groups
    (``choices`` are the model's)."""
    def compute() -> Listed:
        first: list[ListedRoute] = []
        groups = _listed_groups(instance, max_steps, cancel, floor, first, reach_steps, options)
        return (tuple((tuple(g.trains), tuple(g.routes), tuple(g.weights)) for g in groups),
                tuple(first))

    key = (instance.problem, instance.graph, instance.scale, max_steps, floor, reach_steps, options)
    groups, first = LISTED.get(key, compute)
    return [ListedGroup(list(t), list(r), list(w)) for t, r, w in groups], list(first)


def _add_circuit_train(
    model: Model,
    instance: Instance,
    layout: Layout,
    k: int,
    names: tuple[list[str], list[str]],
) -> tuple[TrainVars, list[Lit], list[int]]:
    """One circuit train with every route rule; returns it and its objective terms."""
    from route18xx.solver.model.trainvars import TrainVars

    problem, stops = instance.problem, instance.stops
    train = problem.trains[k]
    tv = TrainVars(model, layout, train.name, *names)
    add_junction_sides(model, tv)
    add_route_ends(model, tv, stops)
    add_distance(model, tv, stops, train.distance)
    add_route_shape(model, tv, stops, problem.min_stops)
    add_groups(model, tv, instance.groups)
    add_direction(model, tv)
    lits = [v for v, w in zip(tv.visit, instance.train_weights[k]) if w]
    weights = [w for w in instance.train_weights[k] if w]
    for b, (value, first, second) in enumerate(instance.bonuses):
        bonus = add_pair_bonus(model, tv, first, second, value, str(b))
        if bonus is not None:
            tv.bonuses.append((bonus, value, first, second))
            lits.append(bonus)
            weights.append(value)
    return tv, lits, weights


def build_model(
    instance: Instance, method: Method = "auto", max_steps: int = DEFAULT_OPTIONS.limited_steps,
    cancel: CancelToken | None = None,
    named: bool = False,
    pack: bool = True,
    pair_steps: int | None = None,
    floor: int | None = None,
    reach_steps: int | None = None,
    options: SolveOptions = DEFAULT_OPTIONS,
) -> BuiltModel:
    """Build the model: circuits and listed groups, track once, symmetry, objective.

    ``cancel`` is polled once per circuit train: a build past its deadline stops
    with ``Cancelled`` (model building is part of a call's time, issue 9).
    With every train listed, the best packing (``BuiltModel.packed``, proven by an
    exhaustive search within its steps) makes the CP-SAT model unnecessary, and it
    is left empty; ``pack=False`` builds it anyway (tests compare the two). Two trains are first tried by listing both
    and scanning pairs (``solver/listing/pairs.py``, within ``pair_steps`` listing steps, default
    ``options.pair_steps``):
    found, the model is left empty too. ``floor`` (on the model's objective): a lone
    train's best route is searched only among routes reaching it (``_listed_groups``).
    ``reach_steps``: the lone unlimited train's walk gets at most these steps (and never
    more than ``options.reach_steps``): a short time limit leaves the rest to the circuit.
    """
    problem, graph = instance.problem, instance.graph
    if pair_steps is None:
        pair_steps = options.pair_steps
    model = Model(named)
    if method == "auto" and pack and pair_steps > 0 and len(problem.trains) == 2:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("model building")
        pair = pair_routes(instance, pair_steps, cancel=cancel, vector_from=options.vector_from,
                           options=options)
        if pair is not None:
            groups = [ListedGroup([k], [route], [instance.route_weight(route.stops, k)])
                      for k, route in sorted(pair.items())]
            return BuiltModel(model, instance, None, {}, groups, [[0] for _ in groups])
        if pair_steps < options.pair_steps:
            method = "circuit"  # a short budget has no time for a second listing
    lone_floor = 1 if floor is None or len(problem.trains) > 1 else max(1, floor)
    most = options.reach_steps
    walk = most if reach_steps is None else max(0, min(most, reach_steps))
    listed, first = _listed_once(instance, max_steps, cancel, lone_floor, walk, options) \
        if method == "auto" else ([], [])
    listed_trains = {k for g in listed for k in g.trains}
    circuit_ks = [k for k in range(len(problem.trains)) if k not in listed_trains]
    if circuit_ks and method == "auto" and pack and pair_steps > 0 and len(problem.trains) > 2:
        # Three or more trains that would search circuits: every route listed and the
        # best set by branch and bound (``solver/listing/setscan.py``, issue 36).
        routes = set_routes(instance, pair_steps, cancel, options)
        if routes is not None:
            groups = [ListedGroup([k], [route], [instance.route_weight(route.stops, k)])
                      for k, route in sorted(routes.items())]
            return BuiltModel(model, instance, None, {}, groups, [[0] for _ in groups])
    layout = None
    if circuit_ks:  # circuits only: a board the listings settle never loads their variables
        from route18xx.solver.model.trainvars import build_layout

        layout = build_layout(graph)

    n_stops = len(problem.stops)
    node_names: list[str] = []
    segment_names: list[str] = []
    if named:
        node_names = [problem.stops[o].name if o < n_stops else problem.junctions[o - n_stops].name
                      for o in graph.nodes]
        segment_names = [problem.segments[seg.originals[0]].label for seg in graph.segments]
    circuits: dict[int, TrainVars] = {}
    terms: dict[int, tuple[list[Lit], list[int]]] = {}
    users: dict[int, list[list[Lit]]] = {}
    for k in circuit_ks:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("model building")
        names = (node_names, segment_names)
        assert layout is not None
        tv, lits, weights = _add_circuit_train(model, instance, layout, k, names)
        circuits[k], terms[k] = tv, (lits, weights)
        for key, key_lits in track_users(tv).items():
            users.setdefault(key, []).append(key_lits)

    obj_vars: list[Lit] = []
    obj_weights: list[int] = []
    packed = None
    cancelled = cancel is not None and cancel.cancelled
    if pack and not circuit_ks and len(listed_trains) > 1 and not cancelled:
        lists = [(len(g.trains), g.routes, g.weights) for g in listed]
        found = best_packing(lists, options.packing_steps, unique=False)
        if found is not None:
            packed = found[1]
        elif len(listed_trains) > 2:  # past the packing search: the set scan's
            packed = set_packing(lists, options.pair_work, cancel)
    single = not circuit_ks and (len(listed_trains) == 1 or packed is not None)  # no search
    for group in [] if single else listed:
        count, name = len(group.trains), problem.trains[group.trains[0]].name
        for r, route in enumerate(group.routes):
            label = f"run[{name}/{node_names[route.stops[0]]}..{node_names[route.stops[-1]]}#{r}]" \
                if named else ""
            if route.track or count == 1:
                choice = model.new_bool_var(label)
            else:  # no track: several trains may run it
                choice = model.new_int_var(0, count, label)
            group.choices.append(choice)
            for key in route.track:
                users.setdefault(key, []).append([choice])
        if len(group.routes) > 1 or count > 1:  # at most one route per train
            model.add_linear(group.choices, [1] * len(group.choices), 0, count)
        obj_vars += group.choices
        obj_weights += group.weights
    add_track_once(model, users)

    identical: dict[tuple[int | None, tuple[tuple[int, int], ...]], list[int]] = {}
    for k in circuit_ks:
        identical.setdefault(instance.kind(k), []).append(k)
    for ks in identical.values():
        if len(ks) > 1:
            # Order identical trains by value only: a start-stop tie-break
            # measured slower to prove (D + D 4.7 s → 2.1 s without it).
            add_identical_order(model, [terms[k] for k in ks])
    for lits, weights in terms.values():
        obj_vars += lits
        obj_weights += weights
    model.maximize(obj_vars, obj_weights)
    return BuiltModel(model, instance, layout, circuits, listed, packed,
                      {0: first[0]} if first else {})
