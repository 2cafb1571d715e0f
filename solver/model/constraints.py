"""The constraints of the route model, one small function per rule (DESIGN.md §3).

Every function adds the constraints of one rule for one train (``TrainVars``)
or across trains, and nothing else, so each can be tested on its own with a
feasible and an infeasible case (``tests/solver/test_constraints.py``).
Node and stop indices are *reduced* indices (``solver/graph/reduce.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from route18xx.solver.problem import Stop
from route18xx.solver.model.cpsat import Lit, Model

if TYPE_CHECKING:  # a circuit's variables: they load with the first circuit (model.py)
    from route18xx.solver.model.trainvars import TrainVars


def add_junction_sides(model: Model, tv: TrainVars) -> None:
    """A route passing junction p enters on one side and leaves by the other.

    For each side: Σ (arc into p + arc out of p) over that side's segments ==
    visit[p]. With the circuit's one-in/one-out this makes a U-turn (in and
    out on the same side) impossible.
    """
    graph = tv.layout.graph
    for p in range(graph.stop_count, graph.node_count):
        for side in tv.layout.incident[p]:
            lits: list[Lit] = []
            for i in side:
                lits += (tv.entering(i, p), tv.leaving(i, p))
            model.add_linear([*lits, tv.visit[p]], [1] * len(lits) + [-1], 0, 0)


def add_route_ends(model: Model, tv: TrainVars, stops: Sequence[Stop]) -> None:
    """A ``route_end_only`` stop uses at most one track arc: it can only be an end.

    Depot arcs do not count. A stop with a single segment needs nothing: the
    circuit cannot go out and back along one segment.
    """
    for s, stop in enumerate(stops):
        if stop.route_end_only:
            lits = tv.track_lits(s)
            if len(lits) > 2:
                model.add_at_most_one(lits)


def add_distance(
    model: Model, tv: TrainVars, stops: Sequence[Stop], distance: int | None
) -> None:
    """Σ distance_cost · visit ≤ the train's distance (junctions cost nothing).

    Skipped for an unlimited train or when every stop together fits anyway.
    """
    costs = [stop.distance_cost for stop in stops]
    if distance is None or sum(c for c in costs if c > 0) <= distance:
        return
    model.add_linear(tv.visit[: len(stops)], costs, -(1 << 40), distance)


def add_route_shape(
    model: Model, tv: TrainVars, stops: Sequence[Stop], min_stops: int
) -> None:
    """A non-empty route has ≥ ``min_stops`` stops and ≥ 1 station stop.

    A route is non-empty iff its depot → stop arc is used, i.e. ¬idle:
    Σ visit[s] + min_stops·idle ≥ min_stops, and (some station) ∨ idle.
    """
    visits = tv.visit[: len(stops)]
    if min_stops > 1:
        model.add_linear([*visits, tv.idle], [1] * len(visits) + [min_stops], min_stops, 1 << 40)
    stations = [v for v, stop in zip(visits, stops) if stop.station]
    model.add_bool_or([*stations, tv.idle])


def add_groups(
    model: Model, tv: TrainVars, groups: Sequence[Sequence[int]]
) -> None:
    """A route visits at most one stop of each group (18xx off-board areas)."""
    for group in groups:
        if len(group) > 1:
            model.add_at_most_one([tv.visit[s] for s in group])


def add_pair_bonus(
    model: Model,
    tv: TrainVars,
    first: Sequence[int],
    second: Sequence[int],
    value: int,
    name: str,
) -> Lit | None:
    """The literal "this route earns the bonus": it visits a stop of each set.

    bonus ≤ Σ visit[first] and bonus ≤ Σ visit[second]; the objective pushes a
    positive bonus up. A negative bonus (a penalty) is also forced on when both
    sets are visited. Returns None when the bonus cannot be earned or is 0.
    """
    if not first or not second or value == 0:
        return None
    bonus = model.new_bool_var(f"bonus[{tv.train}/{name}]")
    model.add_bool_or([tv.visit[s] for s in first] + [~bonus])
    model.add_bool_or([tv.visit[s] for s in second] + [~bonus])
    if value < 0:
        for f in first:
            for s in second:
                model.add_bool_or([~tv.visit[f], ~tv.visit[s], bonus])
    return bonus


def add_direction(model: Model, tv: TrainVars) -> None:
    """A route and its reverse are the same: require start stop ≤ end stop.

    Σ s·start[s] ≤ Σ s·finish[s] (equal only for a one-stop route or idle).
    """
    n = len(tv.start)
    if n > 1:
        index = list(range(n))
        model.add_linear([*tv.start, *tv.finish], [*index, *(-i for i in index)], -(1 << 40), 0)


def track_users(tv: TrainVars) -> dict[int, list[Lit]]:
    """The track a circuit train may use, keyed as ``ListedRoute.track`` keys it.

    A junction p (key p) is used iff visit[p]; a stop-to-stop segment i (key
    node_count + i, contracted junctions inside) iff it is left from either
    end. A segment with a junction end is covered by its junction.
    """
    graph = tv.layout.graph
    n, n_stops = graph.node_count, graph.stop_count
    users = {p: [tv.visit[p]] for p in range(n_stops, n)}
    for i, seg in enumerate(graph.segments):
        if seg.a < n_stops and seg.b < n_stops:
            users[n + i] = [tv.leaving(i, seg.a), tv.leaving(i, seg.b)]
    return users


def add_track_once(model: Model, users: dict[int, list[list[Lit]]]) -> None:
    """Track used once (ROUTES.md §3.7): each junction, and each stop-to-stop
    segment, carries at most one train.

    ``users[key]`` holds one literal list per possible user (a circuit train,
    or a listed route); a key with a single user needs nothing.
    """
    for sources in users.values():
        if len(sources) > 1:
            model.add_at_most_one([lit for lits in sources for lit in lits])


def add_identical_order(
    model: Model,
    terms: Sequence[tuple[Sequence[Lit], Sequence[int]]],
) -> None:
    """Symmetry: identical trains (same distance) take routes of non-increasing key.

    ``terms`` holds each train's sort key as (literals, weights), in train
    order; the model uses value·(stops+1) + start stop index, so ties in value
    are broken too. Swapping two identical trains' routes changes nothing, so
    any optimum can be permuted to satisfy the order.
    """
    for (lits1, w1), (lits2, w2) in zip(terms, terms[1:]):
        model.add_linear([*lits1, *lits2], [*w1, *(-w for w in w2)], 0, 1 << 40)
