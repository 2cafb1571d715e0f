"""A quick greedy answer: always legal routes, a warm start for CP-SAT (issue 11 item 2).

Each train in turn (unlimited trains first, then by distance, longest first)
takes the best route it can find on the track the earlier trains left: a
listed train the best of its listed routes, a circuit train the best route of
a depth-first search bounded by ``budget`` steps (stations first, the most
valuable stops first). Every route keeps the rules of ``solver/problem.py``
(junction sides, route ends, distance, stops, a station, groups), so the
answer is legal whatever the search finds in time; ``search.solve`` returns it
when CP-SAT finds nothing better, and hands it to CP-SAT as a solution hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.solver.model import BuiltModel
from route18xx.solver.routes import ListedRoute


@dataclass(frozen=True)
class GreedyRoute:
    """One train's greedy route on the reduced graph, with its objective weight."""

    train: int
    stops: tuple[int, ...]
    steps: tuple[tuple[int, bool], ...]
    track: tuple[int, ...]
    weight: int


def _best_walk(
    built: BuiltModel, distance: int | None, used: set[int], budget: int
) -> ListedRoute | None:
    """The best legal route found within ``budget`` search steps avoiding ``used`` track."""
    instance = built.instance
    graph, stops = instance.graph, instance.stops
    n_stops, n = graph.stop_count, graph.node_count
    weights = instance.stop_weights
    adjacent: list[list[tuple[int, int, int, int, bool]]] = [[] for _ in range(n)]
    for i, seg in enumerate(graph.segments):
        adjacent[seg.a].append((i, seg.b, seg.side_a, seg.side_b, True))
        adjacent[seg.b].append((i, seg.a, seg.side_b, seg.side_a, False))

    def rank(item: tuple[int, int, int, int, bool]) -> int:
        other = item[1]
        return -weights[other] if other < n_stops else 0

    for lst in adjacent:
        lst.sort(key=rank)
    group_mask = [0] * n_stops
    for g, group in enumerate(instance.groups):
        for s in group:
            group_mask[s] |= 1 << g
    max_cost = distance if distance is not None else n_stops + 1
    costs = [stop.distance_cost for stop in stops]
    ends_only = [stop.route_end_only for stop in stops]
    need = max(instance.problem.min_stops, 1)
    path: list[int] = []
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    on = [False] * n
    best: list[ListedRoute] = []
    best_weight = 0
    left = budget

    def walk(node: int, entered: int, cost: int, groups_used: int) -> None:
        nonlocal left, best_weight
        left -= 1
        if left < 0:
            return
        if node < n_stops:
            if len(path) >= need:
                weight = instance.route_weight(tuple(path))
                if weight > best_weight:
                    best_weight = weight
                    best[:] = [ListedRoute(tuple(path), tuple(steps), tuple(track), cost)]
            if len(path) > 1 and ends_only[node]:
                return
        for seg, other, side_here, side_there, forward in adjacent[node]:
            if left < 0:
                return
            if on[other] or (node >= n_stops and side_here == entered):
                continue
            if other < n_stops:
                key = n + seg if node < n_stops else -1
                new_cost = cost + costs[other]
                if new_cost > max_cost or groups_used & group_mask[other] or key in used:
                    continue
                on[other] = True
                steps.append((seg, forward))
                path.append(other)
                if key >= 0:
                    track.append(key)
                walk(other, -1, new_cost, groups_used | group_mask[other])
                if key >= 0:
                    track.pop()
                path.pop()
                steps.pop()
                on[other] = False
            elif other not in used:
                on[other] = True
                steps.append((seg, forward))
                track.append(other)
                walk(other, side_there, cost, groups_used)
                track.pop()
                steps.pop()
                on[other] = False

    starts = [s for s in range(n_stops) if stops[s].station and costs[s] <= max_cost]
    starts.sort(key=lambda s: -weights[s])
    share = max(1, budget // max(1, len(starts)))
    for s in starts:
        left = share
        path.append(s)
        on[s] = True
        walk(s, -1, costs[s], group_mask[s])
        on[s] = False
        path.pop()
    return best[0] if best else None


def greedy_routes(built: BuiltModel, budget: int = 3000) -> list[GreedyRoute]:
    """Each train's greedy route (trains that find none are left out)."""
    problem = built.instance.problem
    listed_of = {k: g for g in built.listed for k in g.trains}
    order = sorted(range(len(problem.trains)),
                   key=lambda k: (problem.trains[k].distance is not None,
                                  -(problem.trains[k].distance or 0), k))
    used: set[int] = set()
    taken: set[tuple[int, int]] = set()  # (group id, route) of listed routes run
    out: list[GreedyRoute] = []
    for k in order:
        route: ListedRoute | None = None
        weight = 0
        group = listed_of.get(k)
        if group is not None:
            for r in sorted(range(len(group.routes)), key=lambda r: -group.weights[r]):
                cand = group.routes[r]
                if group.weights[r] <= 0:
                    break
                if (id(group), r) in taken and cand.track:
                    continue
                if not used.intersection(cand.track):
                    route, weight = cand, group.weights[r]
                    taken.add((id(group), r))
                    break
        else:
            route = _best_walk(built, problem.trains[k].distance, used, budget)
            if route is not None:
                weight = built.instance.route_weight(route.stops)
        if route is None or weight <= 0:
            continue
        used.update(route.track)
        stops, steps = route.stops, route.steps
        if stops[0] > stops[-1]:  # the model's direction: first stop ≤ last stop
            stops = stops[::-1]
            steps = tuple((seg, not forward) for seg, forward in reversed(steps))
        out.append(GreedyRoute(k, stops, steps, route.track, weight))
    return out


def hint_values(built: BuiltModel, routes: list[GreedyRoute]) -> list[tuple[int, int]]:
    """(variable, value) pairs describing ``routes`` in the built model (a solution hint)."""
    values: dict[int, int] = {}
    by_train = {r.train: r for r in routes}
    layout = built.layout
    graph = layout.graph
    for k, tv in built.circuits.items():
        for lit in (*tv.visit, *tv.start, *tv.finish, *tv.arcs, *tv.uses):
            values[lit] = 0
        route = by_train.get(k)
        values[tv.idle] = values[tv.idle_back] = 0 if route else 1
        if route is None:
            continue
        values[tv.start[route.stops[0]]] = 1
        values[tv.finish[route.stops[-1]]] = 1
        for seg_i, forward in route.steps:
            seg = graph.segments[seg_i]
            values[tv.visit[seg.a]] = values[tv.visit[seg.b]] = 1
            values[tv.leaving(seg_i, seg.a if forward else seg.b)] = 1
            values[tv.entering(seg_i, seg.b if forward else seg.a)] = 1
            if seg_i in layout.dummy_segments:
                values[tv.uses[layout.dummy_segments.index(seg_i)]] = 1
    for group in built.listed:
        if not group.choices:
            continue
        chosen = [r for r in routes if r.train in group.trains]
        counts = [0] * len(group.routes)
        for r in chosen:
            for i, cand in enumerate(group.routes):
                if cand.stops in (r.stops, r.stops[::-1]) and cand.track == r.track:
                    counts[i] += 1
                    break
        for choice, count in zip(group.choices, counts):
            values[choice] = count
    return sorted(values.items())
