"""The best route of a lone unlimited train, by branch and bound on reach (issue 21).

A lone D train on a full 1888 board was CP-SAT's slowest real search (one circuit,
758-1 302 branches, 12-26 ms of CPU): most of it finding the best route, the rest
proving it. This walk is ``solver/listing/bestroute.py``'s depth-first search with the
route rules of ``solver/rules.py`` (no node twice, no U-turn at a junction, one
stop per group, a station on the route, ``route_end_only`` stops only at an end,
at least ``min_stops`` stops), each route walked once, from its end of lower
rank (below), pruned by a bound an unlimited train cannot escape:

    weight so far + every positive stop still reachable from the route's last
    node without passing a node already on the route that the route could pass
    through + the best one of those it could only end at + every positive bonus
    whose two sides are both on the route or reachable (reach as the walk goes: a
    junction entered on one side is left by the other).

A stop the route can only end at is a ``route_end_only`` stop (reached, never
passed) or one with at most one usable neighbour node left (a free node or the
route's last node): passing a stop takes two different neighbours, as the walk
never revisits a node. The route ends once, so it collects at most one of them, and only one ranked above
its first stop: ranks put the ``route_end_only`` stops first, then the stops with
fewest neighbours, so a route ending at one is walked from there, and walked from
any other stop such stops are not counted at all. The answer is given from its
lower-numbered end, as ``list_routes`` lists it.
The walk never revisits a node, so no completion collects more. Children are
tried best bound first and the starts too, so a good route is found early and
prunes the rest; of children with equal bounds, the one whose step collects
more (the bound counts what the route could still reach, mostly the same for
every child on a full board, while the step's own stop is certain: the bound
calls of both objectives' walks on the 18 lone-D real states 3 930 → 3 176,
129026-693 705 → 424; on 80 lone-D boards grown from seeds 14000-14079 (``bench_lone
grow``'s growth, not climbed) 91 630 → 86 698, median ratio 0.99). Exact: only a
route strictly better than the best so far replaces it (ties keep the first found
in this order, the same on every run). Steps are counted; past ``max_steps`` it gives up (None) and the caller keeps the circuit.

Three more cuts, all exact:

* ``floor``: a second objective's search (``engine/answer/objectives.py``) only wants
  routes weighing at least ``floor``; the walk starts with ``floor - 1`` as the
  best so far, so the bound prunes everything that cannot reach it.
* a partial route with the same nodes, the same last node and the same side
  entered as one already walked from a first stop of the same or lower rank is not
  walked again: its weight (stops and bonuses of the same set) and every way
  on are the same, and the routes it could end were all open to the first one.
* a node with one way on takes no bound for it: nothing to order, and the node's
  own bound bounds every route through it. The walk may take a step the child's
  bound would have cut; that step records no route (none beats the best) and its
  children have bounds of their own, so the routes found are the same, in the same
  order (issue 35: 109 walks of the golden decisions and grown lone-D boards, the
  10 past their step budget too, the same best so far; ×0.84 of their CPU).
"""

from __future__ import annotations

from collections.abc import Sequence

from route18xx.solver.runtime.cancel import CANCEL_POLL, CancelToken
from route18xx.solver.errors import Cancelled
from route18xx.solver.problem import Stop
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute, adjacency
from route18xx.solver.rules import leaving, stop_rules



class ReachBoard:
    """The walk's facts of a board that no objective changes (module docstring): the
    ways out, the arrivals (node, side entered) as bits, the stops' ranks. Shared by
    the walk for one objective and the walk for both (``solver/listing/bothreach.py``)."""

    __slots__ = ("n_stops", "adjacent", "leave", "group_mask", "stations", "ends_only", "need",
                 "stop_bits", "around", "node_bits", "stop_states", "exits", "onward",
                 "onward_by_bit", "rank", "later")

    def __init__(self, graph: ReducedGraph, stops: Sequence[Stop], min_stops: int,
                 groups: Sequence[Sequence[int]]) -> None:
        n_stops, n = graph.stop_count, graph.node_count
        self.n_stops = n_stops
        self.adjacent = adjacent = adjacency(graph)
        #: per node, the ways on after entering it on side 0 or 1 (the junction rule:
        #: ``solver/rules.py``); a stop's, after any entry, at index 0 and 1 alike
        self.leave = leave = leaving(n_stops, adjacent)
        _, stations, ends_only, self.group_mask, self.need = stop_rules(stops, min_stops, groups)
        self.stations = stations
        self.ends_only = ends_only
        self.stop_bits = (1 << n_stops) - 1
        # The reach is walked over arrivals (node, side entered): a junction entered on
        # one side is left by the other (no U-turn, as the walk); a stop is one arrival,
        # bit 2·s. Each stop's neighbours (node bits 2·u, one per node however many
        # segments).
        self.around = around = [0] * n
        self.node_bits = sum(1 << 2 * u for u in range(n))
        self.stop_states = sum(1 << 2 * s for s in range(n_stops))
        self.exits = exits = [0] * (2 * n)
        # One pass over each node's ways, and ``later`` below in one pass too: a board's
        # facts 66 → 37 µs on the 11 real lone-D answers (issue 21).
        for node in range(n):
            near = 0
            for other, _, _, _, _ in adjacent[node]:
                near |= 1 << 2 * other
            around[node] = near
            for side in (0,) if node < n_stops else (0, 1):  # the arrivals on from each entry
                on = 0
                for other, _, side_there, _, _ in leave[node][side]:
                    on |= 1 << (2 * other if other < n_stops else 2 * other + side_there)
                exits[2 * node + side] = on
        # A route may start at a ``route_end_only`` stop, or end there, never pass it.
        self.onward = [0 if state // 2 < n_stops and ends_only[state // 2] else exits[state]
                       for state in range(2 * n)]
        self.onward_by_bit = {1 << state: way for state, way in enumerate(self.onward)}
        # Each route is walked from its end of lower rank: ``route_end_only`` stops
        # first, then by neighbours, then index. Walked from stop s, the route ends at a
        # stop of higher rank (``later[s]``): stops it could only end at rank below s
        # are lost.
        rank_order = sorted(range(n_stops), key=lambda s: (not ends_only[s],
                                                           around[s].bit_count(), s))
        self.rank = rank = [0] * n_stops
        for r, stop in enumerate(rank_order):
            rank[stop] = r
        # (from the last rank down)
        self.later = later = [0] * n_stops
        above = 0
        for stop in reversed(rank_order):
            later[stop] = above
            above |= 1 << 2 * stop

    def arrival(self, other: int, side_there: int) -> int:
        """The arrival bit's index of entering ``other`` on ``side_there``."""
        return 2 * other if other < self.n_stops else 2 * other + side_there

    def reach(self, state: int, on_states: int, start: bool = False) -> tuple[int, int, int]:
        """From arrival ``state`` (``start``: a route begun there) past none of
        ``on_states``' nodes: (those arrivals and every one reached, the reached ones
        free, the node bits the rest of the route may use: the free ones and the one it
        is at).

        The walk's hot spot (about half of a step): written flat, each arrival's ways
        on looked up by its bit (``onward_by_bit``), every arrival seen or on the route
        masked out at once (``blocked``)."""
        onward = self.onward_by_bit
        frontier = (self.exits if start else self.onward)[state] & ~on_states
        blocked = 1 << state | on_states | frontier
        while frontier:
            grown = 0
            while frontier:
                bit = frontier & -frontier
                grown |= onward[bit]
                frontier ^= bit
            frontier = grown & ~blocked
            blocked |= frontier
        free = blocked & ~on_states
        usable = ((free | free >> 1) & self.node_bits) | 1 << (state & ~1)
        return blocked, free, usable


def objective_bits(
    board: ReachBoard, weights: Sequence[int], bonus_masks: Sequence[tuple[int, int, int]],
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]], list[tuple[int, int, int]]]:
    """One objective's part of the bound (module docstring): its positive stops a route
    may pass (weight, arrival bit, neighbour bits), its positive ``route_end_only``
    stops best first (weight, bit), its positive bonuses (value, arrival bits of each
    side)."""
    n_stops, ends_only = board.n_stops, board.ends_only
    positive = [(weights[s], 1 << 2 * s, board.around[s]) for s in range(n_stops)
                if weights[s] > 0 and not ends_only[s]]
    # ``route_end_only`` stops, best first: a route collects at most one more of them.
    end_stops = sorted(((weights[s], 1 << 2 * s) for s in range(n_stops) if weights[s] > 0
                        and ends_only[s]), reverse=True)
    state_bonuses = [(value, sum(1 << 2 * s for s in range(n_stops) if first >> s & 1),
                      sum(1 << 2 * s for s in range(n_stops) if second >> s & 1))
                     for value, first, second in bonus_masks if value > 0]
    return positive, end_stops, state_bonuses


def best_reach_route(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    weights: Sequence[int],
    bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int,
    cancel: CancelToken | None = None,
    floor: int = 1,
) -> list[ListedRoute] | None:
    """``[best route]`` of an unlimited train with weight > 0 and ≥ ``floor``, ``[]``
    if none, None past ``max_steps`` (module docstring). ``weights``/``bonuses`` as
    ``model.Instance`` gives them. Raises ``Cancelled`` when ``cancel`` fires."""
    found, complete = best_reach_search(graph, stops, weights, bonuses, min_stops, groups,
                                        max_steps, cancel, floor)
    return found if complete else None


def best_reach_search(
    graph: ReducedGraph,
    stops: Sequence[Stop],
    weights: Sequence[int],
    bonuses: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    min_stops: int,
    groups: Sequence[Sequence[int]],
    max_steps: int,
    cancel: CancelToken | None = None,
    floor: int = 1,
) -> tuple[list[ListedRoute], bool]:
    """``best_reach_route``'s walk: (``[best route found]`` or ``[]``, whether the walk
    finished). Past ``max_steps`` the route is the best found so far, not proven: the
    caller's circuit model takes it as its first solution."""
    board = ReachBoard(graph, stops, min_stops, groups)
    n_stops, leave, group_mask = board.n_stops, board.leave, board.group_mask
    stations, ends_only, need = board.stations, board.ends_only, board.need
    rank, later, stop_bits = board.rank, board.later, board.stop_bits
    arrival = board.arrival
    bonus_masks = [(value, sum(1 << s for s in first), sum(1 << s for s in second))
                   for value, first, second in bonuses]
    positive, end_stops, state_bonuses = objective_bits(board, weights, bonus_masks)
    stop_states = board.stop_states

    def bound(state: int, weight: int, on_states: int, ends: int, start: bool = False) -> int:
        """The most a route arrived at ``state`` (``start``: begun there), with
        ``on_states``' nodes, ending at one of ``ends``, can weigh."""
        reached, free, usable = board.reach(state, on_states, start)
        total = weight
        last = 0  # the route ends once: a stop it cannot pass, at most one of them
        for w, bit, near in positive:
            if free & bit:
                if (near & usable).bit_count() > 1:
                    total += w
                elif w > last and ends & bit:
                    last = w
        for w, bit in end_stops:
            if free & bit & ends:
                if w > last:
                    last = w
                break
        total += last
        if state_bonuses:
            can = reached & stop_states
            for value, first, second in state_bonuses:
                if can & first and can & second:
                    total += value
        return total

    best_weight = max(0, floor - 1)
    best: ListedRoute | None = None
    path: list[int] = []
    steps: list[tuple[int, bool]] = []
    track: list[int] = []
    budget = max_steps
    #: (nodes on the route, last node, side entered) → the lowest rank of a first stop
    walked: dict[tuple[int, int, int], int] = {}

    def walk(node: int, entered: int, weight: int, on_mask: int, on_states: int,
             groups_used: int, station_count: int, bound_here: int) -> bool:
        nonlocal budget, best, best_weight
        here = (on_mask, node, entered)
        lowest = walked.get(here)
        if lowest is not None and lowest <= rank[path[0]]:
            return True  # the same partial route, walked already (module docstring)
        walked[here] = rank[path[0]]
        budget -= 1
        if budget < 0:
            return False
        if cancel is not None and budget % CANCEL_POLL == 0 and cancel.cancelled:
            raise Cancelled("best route search")
        if node < n_stops:
            if len(path) >= need and station_count and (rank[path[0]] < rank[node]
                                                        or len(path) == 1):
                total = weight
                visited = on_mask & stop_bits
                for value, first, second in bonus_masks:
                    if visited & first and visited & second:
                        total += value
                if total > best_weight:
                    best_weight = total
                    best = ListedRoute(tuple(path), tuple(steps), tuple(track),
                                      sum(stops[s].distance_cost for s in path))
            if len(path) > 1 and ends_only[node]:
                return True
        children = []
        # the ways on (``solver/rules.py``): a stop (entered -1) any, a junction by its other side
        ways = leave[node][entered]
        open_ways = [i for i, (other, _, _, _, _) in enumerate(ways)
                     if not on_mask >> other & 1
                     and not (other < n_stops and groups_used & group_mask[other])]
        if len(open_ways) == 1:  # one way on: this node's bound stands (module docstring)
            i = open_ways[0]
            other = ways[i][0]
            children.append((-bound_here, 0, i,
                             weight + weights[other] if other < n_stops else weight))
        for i in open_ways if len(open_ways) > 1 else ():
            other, _, side_there, _, _ = ways[i]
            new_weight = weight
            if other < n_stops:
                new_weight += weights[other]
            value = bound(arrival(other, side_there), new_weight, on_states | 3 << 2 * other,
                          later[path[0]])
            if value > best_weight:  # best bound first; of equal ones, the richer step
                children.append((-value, weight - new_weight, i, new_weight))
        children.sort()
        for negative, _, i, new_weight in children:
            if -negative <= best_weight:
                break  # sorted: nothing after it can beat the best route either
            other, _, side_there, step, key = ways[i]
            steps.append(step)
            new_on = on_mask | 1 << other
            if other < n_stops:
                path.append(other)
                both_stops = node < n_stops
                if both_stops:
                    track.append(key)
                ok = walk(other, -1, new_weight, new_on, on_states | 3 << 2 * other,
                          groups_used | group_mask[other], station_count + stations[other],
                          -negative)
                if both_stops:
                    track.pop()
                path.pop()
            else:
                track.append(other)
                ok = walk(other, side_there, new_weight, new_on, on_states | 3 << 2 * other,
                          groups_used, station_count, -negative)
                track.pop()
            steps.pop()
            if not ok:
                return False
        return True

    starts = sorted((-bound(2 * s, weights[s], 3 << 2 * s, later[s], True), s)
                    for s in range(n_stops))
    complete = True
    for negative, s in starts:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("best route search")
        if -negative <= best_weight:
            break
        path.append(s)
        complete = walk(s, -1, weights[s], 1 << s, 3 << 2 * s, group_mask[s], int(stations[s]),
                        -negative)
        path.pop()
        if not complete:
            break
    return from_lower_end(best), complete


def from_lower_end(route: ListedRoute | None) -> list[ListedRoute]:
    """``[route]`` walked from its lower-numbered end, as ``list_routes`` lists it
    (``[]`` for none)."""
    if route is None:
        return []
    if route.stops[0] > route.stops[-1]:
        route = ListedRoute(route.stops[::-1], tuple((seg, not forward) for seg, forward
                                                     in reversed(route.steps)),
                            route.track[::-1], route.cost)
    return [route]
