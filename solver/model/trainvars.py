"""The circuit layout of a reduced graph and the CP-SAT variables of one train.

DESIGN.md §3: each train gets one ``AddCircuit`` over {depot} ∪ nodes. Circuit
node ids: ``0`` is the depot, reduced node ``r`` is ``r + 1``, then one *idle*
node, then one dummy node per extra parallel segment.

* A visited node is on the circuit; an unvisited one takes its self-loop
  (``visit = ¬selfloop``).
* The depot has no self-loop, so it is always on the circuit: this forbids a
  detached cycle that would collect revenue without starting at a stop. The
  empty route is the circuit depot → idle → depot.
* A route starts with an arc depot → stop and ends with stop → depot.
* ``AddCircuit`` accepts one arc per ordered node pair, so the second and later
  segments between the same two nodes go through a dummy node of their own
  (visited iff that segment is used, entered from one end and left to the other).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from route18xx.solver.model.cpsat import Lit, Model
from route18xx.solver.graph.reduce import ReducedGraph
from route18xx.solver.listing.routes import ListedRoute


@dataclass(frozen=True)
class Layout:
    """Train-independent arc structure of the circuit over a reduced graph.

    Track arcs are numbered ``0 .. len(tails)-1``. For reduced segment ``i``,
    ``leave[i] = (arc leaving a towards b, arc leaving b towards a)`` and
    ``enter[i] = (arc entering a, arc entering b)``; a direct segment shares
    its two arcs between both tuples, a split one has four arcs via its dummy.
    ``incident[r]`` lists the segments at reduced node ``r`` on side 0 and 1
    (a stop has them all on side 0).
    """

    graph: ReducedGraph
    idle: int
    tails: tuple[int, ...]
    heads: tuple[int, ...]
    leave: tuple[tuple[int, int], ...]
    enter: tuple[tuple[int, int], ...]
    dummy_segments: tuple[int, ...]
    incident: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]

    @property
    def arc_count(self) -> int:
        return len(self.tails)


def build_layout(graph: ReducedGraph) -> Layout:
    """Number the circuit nodes and track arcs, splitting parallel segments."""
    n = graph.node_count
    idle = n + 1
    tails: list[int] = []
    heads: list[int] = []
    leave: list[tuple[int, int]] = []
    enter: list[tuple[int, int]] = []
    dummies: list[int] = []
    incident: list[tuple[list[int], list[int]]] = [([], []) for _ in range(n)]
    seen: set[tuple[int, int]] = set()
    for i, seg in enumerate(graph.segments):
        a, b = seg.a + 1, seg.b + 1
        t = len(tails)
        key = (a, b) if a < b else (b, a)
        if key not in seen:
            seen.add(key)
            tails += (a, b)
            heads += (b, a)
            leave.append((t, t + 1))
            enter.append((t + 1, t))
        else:
            d = idle + 1 + len(dummies)
            dummies.append(i)
            tails += (a, d, b, d)
            heads += (d, b, d, a)
            leave.append((t, t + 2))
            enter.append((t + 3, t + 1))
        incident[seg.a][seg.side_a].append(i)
        incident[seg.b][seg.side_b].append(i)
    return Layout(
        graph=graph,
        idle=idle,
        tails=tuple(tails),
        heads=tuple(heads),
        leave=tuple(leave),
        enter=tuple(enter),
        dummy_segments=tuple(dummies),
        incident=tuple((tuple(s0), tuple(s1)) for s0, s1 in incident),
    )


class TrainVars:
    """The CP-SAT variables of one train's route and its circuit constraint.

    ``visit[r]``: reduced node ``r`` is on the route. ``start[s]``/``finish[s]``:
    the route starts/ends at reduced stop ``s`` (the depot arcs). ``idle``: the
    train does not run. ``arcs[j]``: track arc ``j`` of the layout is walked.
    """

    def __init__(
        self,
        model: Model,
        layout: Layout,
        train: str,
        node_names: list[str],
        segment_names: list[str],
    ) -> None:
        graph = layout.graph
        self.layout = layout
        self.train = train
        n_stops = graph.stop_count
        if model.named:
            new = model.new_bool_var
            self.visit: list[Lit] = [new(f"visit[{train}/{name}]") for name in node_names]
            stop_names = node_names[:n_stops]
            self.start: list[Lit] = [new(f"start[{train}/{name}]") for name in stop_names]
            self.finish: list[Lit] = [new(f"finish[{train}/{name}]") for name in stop_names]
            self.idle: Lit = new(f"idle[{train}]")
            idle_back = new(f"idle_back[{train}]")
            circuit_names = ["depot", *node_names, "idle"]
            circuit_names += [f"via:{segment_names[i]}" for i in layout.dummy_segments]
            self.arcs: list[Lit] = [
                new(f"arc[{train}/{circuit_names[u]}>{circuit_names[v]}]")
                for u, v in zip(layout.tails, layout.heads)
            ]
            uses = [new(f"visit[{train}/via:{segment_names[i]}]") for i in layout.dummy_segments]
        else:  # the same variables, unnamed, in one call (issue 11: less Python per solve)
            n = graph.node_count
            lits = model.new_bool_vars(n + 2 * n_stops + 2 + layout.arc_count
                                       + len(layout.dummy_segments))
            self.visit = lits[:n]
            self.start = lits[n:n + n_stops]
            self.finish = lits[n + n_stops:n + 2 * n_stops]
            self.idle, idle_back = lits[n + 2 * n_stops], lits[n + 2 * n_stops + 1]
            first_arc = n + 2 * n_stops + 2
            self.arcs = lits[first_arc:first_arc + layout.arc_count]
            uses = lits[first_arc + layout.arc_count:]

        idle_node = layout.idle
        arcs: list[tuple[int, int, Lit]] = [(r + 1, r + 1, ~v) for r, v in enumerate(self.visit)]
        for s in range(graph.stop_count):
            arcs.append((0, s + 1, self.start[s]))
            arcs.append((s + 1, 0, self.finish[s]))
        arcs += [(0, idle_node, self.idle), (idle_node, 0, idle_back)]
        arcs.append((idle_node, idle_node, ~self.idle))
        arcs += zip(layout.tails, layout.heads, self.arcs)
        arcs += [(idle_node + 1 + d, idle_node + 1 + d, ~use) for d, use in enumerate(uses)]
        model.add_circuit(arcs)
        self.uses = uses
        self.idle_back = idle_back
        #: (literal, value, first stops, second stops) of each pair bonus (``model.py``)
        self.bonuses: list[tuple[Lit, int, Sequence[int], Sequence[int]]] = []
        pairs = zip(layout.tails, layout.heads)
        self._direct = {(u - 1, v - 1): j for j, (u, v) in enumerate(pairs)}

    def assignment(self, route: ListedRoute | None) -> dict[Lit, int]:
        """Every variable's value when this train runs ``route`` (None: idle).

        ``route`` must start at its lower stop (``add_direction``).
        """
        values = dict.fromkeys([*self.visit, *self.start, *self.finish, *self.arcs, *self.uses,
                                self.idle_back, *(b[0] for b in self.bonuses)], 0)
        if route is None:
            values[self.idle] = values[self.idle_back] = 1
            return values
        values[self.idle] = 0
        graph = self.layout.graph
        values[self.start[route.stops[0]]] = 1
        values[self.finish[route.stops[-1]]] = 1
        node = route.stops[0]
        values[self.visit[node]] = 1
        dummy = {seg: d for d, seg in enumerate(self.layout.dummy_segments)}
        for seg_i, forward in route.steps:
            seg = graph.segments[seg_i]
            nxt = seg.b if forward else seg.a
            values[self.leaving(seg_i, node)] = 1
            values[self.entering(seg_i, nxt)] = 1
            if seg_i in dummy:
                values[self.uses[dummy[seg_i]]] = 1
            values[self.visit[nxt]] = 1
            node = nxt
        visited = set(route.stops)
        for lit, value, first, second in self.bonuses:
            earned = bool(visited.intersection(first) and visited.intersection(second))
            values[lit] = int(earned)
        return values

    def leaving(self, segment: int, node: int) -> Lit:
        """The literal "the route leaves ``node`` along ``segment``"."""
        seg = self.layout.graph.segments[segment]
        return self.arcs[self.layout.leave[segment][0 if seg.a == node else 1]]

    def entering(self, segment: int, node: int) -> Lit:
        """The literal "the route enters ``node`` along ``segment``"."""
        seg = self.layout.graph.segments[segment]
        return self.arcs[self.layout.enter[segment][0 if seg.a == node else 1]]

    def track_lits(self, node: int) -> list[Lit]:
        """Every track arc into or out of ``node`` (depot arcs excluded)."""
        lits: list[Lit] = []
        for side in self.layout.incident[node]:
            for i in side:
                lits += (self.entering(i, node), self.leaving(i, node))
        return lits

    def extract(self, solution: Sequence[int]) -> tuple[list[int], list[tuple[int, bool]]]:
        """Walk the solved route: (reduced stops in order, [(segment, walked a→b)]).

        ``solution`` is the response's value vector (indexed by variable index).
        Both lists are empty for an idle train. Each step follows the one arc
        that leaves the current node, so the walk costs O(route · degree).
        """

        def value(lit: Lit) -> bool:
            return bool(solution[lit])

        graph, layout = self.layout.graph, self.layout
        node = next((s for s, lit in enumerate(self.start) if value(lit)), -1)
        if node < 0:
            return [], []
        stops: list[int] = [node]
        steps: list[tuple[int, bool]] = []
        for _ in range(graph.node_count):
            if node < graph.stop_count and value(self.finish[node]):
                return stops, steps
            s0, s1 = layout.incident[node]
            seg_i = next(i for i in (*s0, *s1) if value(self.leaving(i, node)))
            seg = graph.segments[seg_i]
            forward = seg.a == node
            steps.append((seg_i, forward))
            node = seg.b if forward else seg.a
            if node < graph.stop_count:
                stops.append(node)
        raise AssertionError("route walk did not return to the depot")
