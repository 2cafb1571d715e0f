"""Route legality and revenue, exactly as ROUTES.md §3 and §5 state.

``judge_routes`` takes the ``routes`` array of an 18xx.games ``run_routes``
action (or the solver's routes in the same shape) and returns, per route, the
stops in order, every violation with a precise reason, the revenue and the
subsidy. It is the one validator (STYLE.md §6): every solver answer passes it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine.board import Board, NodeId, split_node_id
from engine.chains import Chain, find_chains
from engine.errors import MalformedInput
from engine.gamedata import HexId, TrainDef
from engine.hexgrid import parse_hex_id
from engine.revenue import destination_bonus, route_subsidy, stop_value
from engine.state_file import RouteState


@dataclass(frozen=True)
class RouteSpec:
    """A route as recorded: train id, one hex list per chain, and the stop node ids."""

    train: str
    connections: tuple[tuple[HexId, ...], ...]
    nodes: tuple[NodeId, ...] = ()


@dataclass
class JudgedRoute:
    train: str
    stops: list[NodeId] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    revenue: int = 0
    subsidy: int = 0
    bonus: int = 0

    @property
    def hexes(self) -> list[HexId]:
        out: list[HexId] = []
        for stop in self.stops:
            hex_id = split_node_id(stop)[0]
            if not out or out[-1] != hex_id:
                out.append(hex_id)
        return out


@dataclass
class Judgement:
    routes: list[JudgedRoute]
    violations: list[str]

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def revenue(self) -> int:
        return sum(r.revenue for r in self.routes)

    @property
    def subsidy(self) -> int:
        return sum(r.subsidy for r in self.routes)


def parse_route_specs(raw: Any, field_name: str = "routes") -> list[RouteSpec]:
    """The ``routes`` array of a run_routes action (or a file holding one)."""
    if isinstance(raw, Mapping):
        if "routes" not in raw:
            raise MalformedInput(field_name, "must be a list of routes or an object with 'routes'")
        raw = raw["routes"]
    if not isinstance(raw, list):
        raise MalformedInput(field_name, "must be a list of routes")
    specs = []
    for i, item in enumerate(raw):
        where = f"{field_name}[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedInput(where, "must be an object")
        train = item.get("train")
        if not isinstance(train, str) or not train:
            raise MalformedInput(f"{where}.train", "is missing or not a train id such as '2-0'")
        conns = item.get("connections")
        if not isinstance(conns, list) or not conns:
            raise MalformedInput(f"{where}.connections", "must be a non-empty list of hex lists")
        parsed = []
        for j, conn in enumerate(conns):
            if not isinstance(conn, list) or len(conn) < 2 or not all(
                isinstance(h, str) for h in conn
            ):
                raise MalformedInput(
                    f"{where}.connections[{j}]", "must list at least two hex ids"
                )
            parsed.append(tuple(conn))
        nodes = item.get("nodes", [])
        if not isinstance(nodes, list) or not all(isinstance(n, str) for n in nodes):
            raise MalformedInput(f"{where}.nodes", "must be a list of node ids such as 'C9-1'")
        for j, n in enumerate(nodes):
            try:
                split_node_id(n)
            except ValueError:
                raise MalformedInput(f"{where}.nodes[{j}]", f"{n!r} is not a node id") from None
        specs.append(RouteSpec(train, tuple(parsed), tuple(nodes)))
    return specs


def check_route_references(
    state: RouteState, specs: Sequence[RouteSpec], hexes_key: str = ""
) -> None:
    """Raise ``MalformedInput`` for the first hex or node of ``specs`` not on the board.

    A route naming a hex off the map, or a node the tile on that hex lacks
    (``H14-7``), is unreadable rather than illegal. ``hexes_key`` is inserted in
    the field path of a connection's hexes (the proto form says ``.hexes``).
    """
    board = state.board
    hexes = board.data.hexes
    for i, spec in enumerate(specs):
        for j, conn in enumerate(spec.connections):
            for k, hex_id in enumerate(conn):
                if hex_id not in hexes:
                    raise MalformedInput(
                        f"routes[{i}].connections[{j}]{hexes_key}[{k}]", f"unknown hex {hex_id!r}"
                    )
        for j, node in enumerate(spec.nodes):
            where = f"routes[{i}].nodes[{j}]"
            hex_id, index = split_node_id(node)
            if hex_id not in hexes:
                raise MalformedInput(where, f"node {node}: unknown hex {hex_id!r}")
            if board.revenue_center(hex_id, index) is None:
                tile = board.tile_on(hex_id).tile
                have = [n.index for n in tile.nodes]
                raise MalformedInput(
                    where,
                    f"node {node} does not exist: tile {tile.name} on {hex_id} has nodes {have}",
                )


def train_type(train_id: str) -> str:
    """``"D-3"`` → ``"D"``: the train type of an 18xx.games train id."""
    return train_id.rsplit("-", 1)[0] if "-" in train_id else train_id


def _assign_chains(
    options: list[list[Chain]], wanted: set[NodeId]
) -> tuple[list[Chain], list[NodeId]] | None:
    """Pick one chain per connection so that consecutive chains share one end node.

    Prefers combinations whose nodes are listed in the record and that reuse no
    path (ROUTES.md §6 "Rebuilding a route from the record").
    """
    best: tuple[int, list[Chain], list[NodeId]] | None = None
    for combo in itertools.product(*options):
        stops = _stop_order(list(combo))
        if stops is None:
            continue
        paths = [p for c in combo for p in c.paths]
        score = sum(1 for s in stops if s in wanted) * 2 - (len(paths) - len(set(paths))) * 10
        if best is None or score > best[0]:
            best = (score, list(combo), stops)
    return None if best is None else (best[1], best[2])


def _stop_order(chains: list[Chain]) -> list[NodeId] | None:
    """Stops in route order, or None when consecutive chains do not meet at a stop."""
    if len(chains) == 1:
        return [chains[0].start, chains[0].end]
    first, second = chains[0], chains[1]
    for join in sorted({first.start, first.end} & {second.start, second.end}):
        stops = [first.other_end(join), join]
        for chain in chains[1:]:
            if stops[-1] not in (chain.start, chain.end):
                break
            stops.append(chain.other_end(stops[-1]))
        else:
            return stops
    return None


def judge_routes(state: RouteState, specs: Sequence[RouteSpec]) -> Judgement:
    """Judge a company's routes for one operating round (ROUTES.md §3, §5)."""
    board = state.board
    corp = state.corporation
    owned = Counter(t.name for t in state.trains)
    train_defs = {t.name: t for t in state.trains}
    used_trains: Counter[str] = Counter()
    seen_ids: set[str] = set()
    edge_owner: dict[tuple[HexId, int], int] = {}
    routes: list[JudgedRoute] = []
    for number, spec in enumerate(specs, start=1):
        route = JudgedRoute(spec.train)
        routes.append(route)
        label = f"route {number} ({spec.train})"
        kind = train_type(spec.train)
        if spec.train in seen_ids:
            route.violations.append(f"{label}: train {spec.train} runs twice")
        seen_ids.add(spec.train)
        used_trains[kind] += 1
        if kind not in owned:
            route.violations.append(f"{label}: {corp.sym} owns no {kind}-train")
        elif used_trains[kind] > owned[kind]:
            route.violations.append(
                f"{label}: {corp.sym} owns only {owned[kind]} {kind}-train(s)"
            )
        options = []
        for j, conn in enumerate(spec.connections):
            chains = find_chains(board, conn)
            if not chains:
                route.violations.append(
                    f"{label}: no track joins stops along {'-'.join(conn)} (connection {j + 1})"
                )
            options.append(chains)
        if route.violations and any(not o for o in options):
            continue
        assigned = _assign_chains(options, set(spec.nodes))
        if assigned is None:
            route.violations.append(f"{label}: consecutive connections do not share a stop")
            continue
        route.chains, route.stops = assigned
        _check_route(state, label, route, train_defs.get(kind))
        reported: set[str] = set()
        for chain in route.chains:
            for key in chain.edge_keys:
                other = edge_owner.get(key)
                side = _side_name(board, key)
                if other is not None and side not in reported:
                    reported.add(side)
                    if other == number:
                        route.violations.append(f"{label} uses the hex side {side} twice")
                    else:
                        route.violations.append(f"{label} reuses the hex side {side}")
                edge_owner[key] = number
        hexes = [split_node_id(s)[0] for s in route.stops]
        route.bonus = destination_bonus(hexes, corp)
        route.revenue = sum(stop_value(board, *split_node_id(s), state.phase) for s in route.stops)
        route.revenue += route.bonus
        route.subsidy = route_subsidy(hexes)
    violations = [v for r in routes for v in r.violations]
    for r in routes:
        if r.violations:
            r.revenue = r.subsidy = 0
    return Judgement(routes, violations)


def _side_name(board: Board, key: tuple[HexId, int]) -> str:
    """``between C9 and C11``: the two hexes of a side, in map order (row, then column)."""
    hex_id, edge = key
    other = board.across(hex_id, edge)
    if other is None:
        return f"{hex_id} edge {edge}"
    first, second = sorted((hex_id, other[0]), key=lambda h: parse_hex_id(h)[::-1])
    return f"between {first} and {second}"


def _check_route(
    state: RouteState, label: str, route: JudgedRoute, train: TrainDef | None
) -> None:
    """ROUTES.md §3.1–3.6 and §3.8 for one route whose chains are known."""
    board = state.board
    corp = state.corporation.sym
    stops = route.stops
    v = route.violations
    if len(stops) < 2:
        v.append(f"{label}: a route needs at least two stops")
    counts = Counter(stops)
    for stop, n in counts.items():
        if n > 1:
            v.append(f"{label}: visits {stop} twice")
    if not any(corp in board.tokens_in(*split_node_id(s)) for s in stops):
        v.append(f"{label}: the route has no {corp} station")
    groups: dict[str, list[HexId]] = {}
    for s in stops:
        node = board.revenue_center(*split_node_id(s))
        for g in node.groups if node else ():
            groups.setdefault(g, []).append(split_node_id(s)[0])
    for g, hexes in groups.items():
        if len(hexes) > 1:
            v.append(f"{label}: {' and '.join(hexes)} are both {g}")
    for position, s in enumerate(stops):
        if 0 < position < len(stops) - 1:
            v.extend(_interior_problems(state, label, route, position))
    if train is not None:
        cost = 0
        for s in stops:
            node = board.revenue_center(*split_node_id(s))
            cost += node.visit_cost if node else 1
        if train.distance is not None and cost > train.distance:
            v.append(f"{label}: a {train.name}-train cannot visit {cost} stops")


def _interior_problems(state: RouteState, label: str, route: JudgedRoute, position: int) -> list[str]:
    """A stop in the middle of a route must let the company pass (ROUTES.md §3.4, §3.8)."""
    board = state.board
    stop = route.stops[position]
    hex_id, index = split_node_id(stop)
    node = board.revenue_center(hex_id, index)
    problems = []
    touching = [c for c in route.chains if stop in (c.start, c.end)]
    if any(stop in c.terminal_ends for c in touching):
        problems.append(f"{label}: {stop} is reached by terminal track and can only end a route")
    if node is not None and board.blocks(hex_id, index, state.corporation.sym):
        if node.kind == "offboard":
            name = board.hex(hex_id).location_name or hex_id
            problems.append(f"{label}: the off-board {hex_id} ({name}) must end the route")
        else:
            problems.append(
                f"{label}: city {stop} is full of other companies' tokens and can only end a route"
            )
    return problems
