"""An engine-level witness for route optimisation, on networkx (DESIGN.md §3, issue 10 #5).

The optimiser's answer passes through ``engine/route_problem.py`` (board →
``RouteProblem``) and the solver; a mistake in that translation would be
shared by the solver's brute-force witness, which reads the same problem. This
witness shares neither: it builds the track network of the board straight from
the tiles' paths and asks the engine's one validator (``judge_routes``) which
runs are legal and what they earn.

* **Graph** (``track_network``): a ``networkx.MultiGraph`` whose nodes are the
  revenue centres (``("node", hex, index)``) and the hex-side ends of track
  (``("side", hex, edge)``, one per hex: ROUTES.md §3.7's key); every tile path
  is an edge keyed ``("path", hex, index)``, and a *crossing* edge joins the two
  ends of a hex side that carry track on both hexes (ROUTES.md §1.2, §1.5).
* **Runs** (``runs``): simple paths from a revenue centre to another in the
  component of the company's stations, that cross every hex side they touch
  (a chain leaves a hex by a path and enters the neighbour by a path, ROUTES.md
  §1.5: it never turns from one path onto another at a side). All revenue
  centres on the path are its stops (§2).
* **Judging**: each run, written as a ``run_routes`` route (one hex list per
  chain, ROUTES.md §6), is judged alone for each train type; the legal ones
  are the train's candidates, priced by the validator (§3, §5).
* **Combination**: one candidate or none per train, best first by branch and
  bound; a combination counts only when the validator accepts it as a whole
  (no hex side shared, §3.7).

Exponential, and it calls the validator per run: for small boards only (tests).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass

import networkx as nx

from route18xx.engine.board.board import Board, EdgeKey, NodeId, node_id
from route18xx.engine.facts.gamedata import CorpId, HexId
from route18xx.engine.routes.route_judge import RouteSpec, judge_routes
from route18xx.engine.inputs.state_file import RouteState

#: Edge key of a hex side crossed from one hex to its neighbour.
CROSSING = "crossing"
OBJECTIVES = ("total", "revenue")


@dataclass(frozen=True)
class Run:
    """A simple walk on the track: its stops in order and one hex list per chain."""

    stops: tuple[NodeId, ...]
    connections: tuple[tuple[HexId, ...], ...]


@dataclass(frozen=True)
class Candidate:
    """A run the validator accepts for one train, with its price and the hex sides it uses."""

    spec: RouteSpec
    revenue: int
    subsidy: int
    sides: frozenset[EdgeKey]


@dataclass(frozen=True)
class Witness:
    """The best legal routes found by exhaustion, as ``run_routes`` specs, and their figures."""

    specs: tuple[RouteSpec, ...]
    revenue: int
    subsidy: int
    objective: int
    #: runs listed (before judging), for sizing tests
    runs: int


def track_network(board: Board) -> nx.MultiGraph:
    """Every tile path of ``board`` as an edge; crossings join the two ends of a hex side."""
    graph = nx.MultiGraph()
    for hex_id in board.data.hexes:
        for path in board.paths_on(hex_id):
            u, v = (
                ("side", hex_id, i) if kind == "edge" else ("node", hex_id, i)
                for kind, i in path.ends
            )
            graph.add_edge(u, v, key=("path", hex_id, path.index))
    for node in list(graph):
        if node[0] == "side":
            other = board.across(node[1], node[2])
            if other is not None and ("side", *other) in graph:
                graph.add_edge(node, ("side", *other), key=CROSSING)
    return graph


def company_network(board: Board, corp: CorpId) -> nx.MultiGraph:
    """The part of the track connected to ``corp``'s stations (a route needs one, §3.2)."""
    graph = track_network(board)
    keep: set[Hashable] = set()
    for hex_id, city in board.token_cities(corp):
        start = ("node", hex_id, city)
        if start in graph and start not in keep:
            keep |= nx.node_connected_component(graph, start)
    return graph.subgraph(keep).copy()


def runs(graph: nx.MultiGraph) -> Iterator[Run]:
    """Every simple walk between two revenue centres that crosses each hex side it touches.

    Each walk once, from its smaller end (node order); one-stop walks are none.
    """
    centres = sorted(n for n in graph if n[0] == "node")
    for i, start in enumerate(centres):
        targets = centres[i + 1:]
        if not targets:
            break
        for path in nx.all_simple_edge_paths(graph, start, targets):
            run = _run(path)
            if run is not None:
                yield run


def _run(path: list[tuple[Hashable, Hashable, Hashable]]) -> Run | None:
    """A graph path as stops and chains, or None if it turns at a hex side."""
    stops = [node_id(path[0][0][1], path[0][0][2])]  # type: ignore[index]
    connections: list[tuple[HexId, ...]] = []
    chain: list[HexId] = []
    for j, (_, v, key) in enumerate(path):
        if key == CROSSING:
            continue
        chain.append(key[1])  # type: ignore[index]
        if v[0] == "node":  # type: ignore[index]
            stops.append(node_id(v[1], v[2]))  # type: ignore[index]
            connections.append(tuple(chain))
            chain = []
        elif path[j + 1][2] != CROSSING:  # left a hex side by another path of the same hex
            return None
    return Run(tuple(stops), tuple(connections))


def train_ids(state: RouteState) -> list[str]:
    """``2-0``, ``2-1``, ``D-0`` …: one 18xx.games id per train, in the state's order."""
    seen: dict[str, int] = {}
    out = []
    for train in state.trains:
        out.append(f"{train.name}-{seen.get(train.name, 0)}")
        seen[train.name] = seen.get(train.name, 0) + 1
    return out


def candidates(state: RouteState, listed: list[Run]) -> dict[str, list[Candidate]]:
    """Per train type, every listed run the validator accepts for that type, priced by it."""
    out: dict[str, list[Candidate]] = {}
    for kind in dict.fromkeys(t.name for t in state.trains):
        found = out.setdefault(kind, [])
        for run in listed:
            spec = RouteSpec(f"{kind}-0", run.connections, run.stops)
            judged = judge_routes(state, [spec])
            if judged.legal:
                (route,) = judged.routes
                sides = frozenset(k for chain in route.chains for k in chain.edge_keys)
                found.append(Candidate(spec, route.revenue, route.subsidy, sides))
    return out


def witness(
    state: RouteState, *, objective: str = "total", max_runs: int | None = None
) -> Witness | None:
    """The best legal routes of ``state``'s company by exhaustion (see the module docstring).

    ``"total"`` maximises revenue + subsidy; ``"revenue"`` revenue, then subsidy
    (``objective`` is then the revenue), as ``engine.optimize.optimize``.
    None when the track has more than ``max_runs`` runs (too big to exhaust).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}")
    board, k = state.board, len(state.trains)
    listed = []
    for run in runs(company_network(board, state.corporation.sym)):
        listed.append(run)
        if max_runs is not None and len(listed) > max_runs:
            return None
    by_kind = candidates(state, listed)
    ids = train_ids(state)
    if objective == "total":
        weight = 1
    else:  # one ¥ of revenue outweighs any total of subsidies
        weight = 1 + k * max([c.subsidy for cs in by_kind.values() for c in cs] + [0])

    options = [
        sorted(
            ((weight * c.revenue + c.subsidy, c) for c in by_kind[t.name]),
            key=lambda vc: -vc[0],
        )
        for t in state.trains
    ]
    rest = [0] * (k + 1)
    for t in range(k - 1, -1, -1):
        rest[t] = rest[t + 1] + max([0] + [v for v, _ in options[t]])
    best: list[RouteSpec] = []
    best_value = 0
    chosen: list[RouteSpec] = []

    def search(t: int, used: frozenset[EdgeKey], value: int) -> None:
        nonlocal best, best_value
        if t == k:
            if value > best_value and judge_routes(state, chosen).legal:
                best, best_value = list(chosen), value
            return
        for v, c in options[t]:
            if value + v + rest[t + 1] <= best_value:
                break
            if not c.sides & used:
                chosen.append(RouteSpec(ids[t], c.spec.connections, c.spec.nodes))
                search(t + 1, used | c.sides, value + v)
                chosen.pop()
        if value + rest[t + 1] > best_value:
            search(t + 1, used, value)

    search(0, frozenset(), 0)
    judged = judge_routes(state, best)
    assert judged.legal, judged.violations
    revenue, subsidy = judged.revenue, judged.subsidy
    value = revenue + subsidy if objective == "total" else revenue
    return Witness(tuple(best), revenue, subsidy, value, len(listed))
