"""The board as plain data for pictures (DESIGN.md §1 "a view over the engine", §8).

A drawing needs the map's facts (hex positions, terrain and its cost, printed
cities, towns and off-boards with their revenue per phase, borders), the tile on
each hex with its paths already rotated, the station tokens, the companies'
colours, homes and destinations, and each route's track walked in order. This
module turns a ``RouteState`` into those values; it holds no rules and draws
nothing (``route18xx.draw`` does, through ``engine.api``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from route18xx.engine.board.board import Board, split_node_id
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import HexDef, HexId, RevenueCenter, TileDef
from route18xx.engine.facts.hexgrid import facing_edge
from route18xx.engine.routes.revenue import bonus_names, mine_rule, route_bonuses
from route18xx.engine.routes.route_judge import judge_routes, parse_route_specs, check_route_references
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.suggest.suggest_report import MoveReport

#: One end of a drawn path: ("edge", 0–5) or (node kind, node index).
End = tuple[str, int]


@dataclass(frozen=True)
class NodeView:
    """A city, town or off-board on a hex: revenue per tile colour, slots, tokens."""

    kind: str
    index: int
    #: Revenue by phase colour ("yellow", "green", "brown", "gray"); one entry each.
    revenue: Mapping[str, int]
    slots: int
    tokens: tuple[str, ...]
    #: Companies whose home slot here is still reserved (no token of theirs yet).
    reserved: tuple[str, ...]
    groups: tuple[str, ...]
    visit_cost: int
    hidden: bool
    #: The revenues the map prints, by the colours the title's data lists (1830's
    #: off-boards: yellow and brown only, 1830 ROUTES.md §4.1; 1888's: all four).
    printed_revenue: Mapping[str, int] = field(default_factory=dict)

    @property
    def flat_revenue(self) -> bool:
        return len(set(self.revenue.values())) == 1

    def printed_color(self, color: str) -> str | None:
        """The printed colour whose value pays in a phase of ``color``: that colour, or
        the newest older one printed (Chicago's yellow pays in the green phases)."""
        order = _ALL_COLORS[: _ALL_COLORS.index(color) + 1] if color in _ALL_COLORS else ()
        return next((c for c in reversed(order) if c in self.printed_revenue), None)


@dataclass(frozen=True)
class PathView:
    """One tile path with edges already rotated (the same index as the engine's path id)."""

    index: int
    a: End
    b: End
    terminal: bool


@dataclass(frozen=True)
class HexView:
    """A map hex and what stands on it."""

    id: HexId
    #: The map's coordinates (hexgrid): on a pointy map doubled-width, x = column − 1,
    #: y = row index; on a flat one doubled-height, x = column letter index, y = row − 1.
    x: int
    y: int
    #: Colour of what is printed or laid there: white, yellow, green, brown, gray, red, blue.
    color: str
    location_name: str | None
    #: The laid tile's name, or None when the hex shows its printed tile.
    tile: str | None
    rotation: int
    terrain: tuple[tuple[int, tuple[str, ...]], ...]
    terrain_cost: int
    impassable_edges: frozenset[int]
    labels: tuple[str, ...]
    #: Marks printed on the hex for the picture (``HexDef.marks``, e.g. ``"wall"``).
    marks: tuple[str, ...]
    #: Companies whose destination this hex is.
    destination_of: tuple[str, ...]
    nodes: tuple[NodeView, ...]
    paths: tuple[PathView, ...]


@dataclass(frozen=True)
class CorporationView:
    sym: str
    name: str
    color: str
    home_hex: HexId
    #: None for a company without a destination (1830).
    destination_hex: HexId | None
    destination_bonus: int


@dataclass(frozen=True)
class BoardView:
    """Everything a picture of the board shows, for one company's turn."""

    title: str
    rule_set: str
    phase: str
    #: The newest tile colour of the phase, which prices every stop.
    revenue_color: str
    corporation: str
    trains: tuple[str, ...]
    hexes: tuple[HexView, ...]
    corporations: Mapping[str, CorporationView]
    #: The mine (ROUTES.md §5.3): its hex and the subsidy a route stopping there earns.
    #: The hex whose stop pays a subsidy (1888's mine); None in a title without one.
    mine_hex: HexId | None
    mine_subsidy: int
    #: How the title writes money (``"$%s"``; ``GameData.currency_format``).
    currency_format: str = "%s"
    #: ``"pointy"`` or ``"flat"`` (1889): which way the hexes stand (``GameData.layout``).
    layout: str = "pointy"


@dataclass(frozen=True)
class Leg:
    """One tile path walked by a route: the hex, the path's index, from which end to which."""

    hex: HexId
    path: int
    start: End
    end: End


@dataclass(frozen=True)
class RouteWalk:
    """A judged route with its track in travel order (the input of a route drawing)."""

    train: str
    stops: tuple[str, ...]
    legs: tuple[Leg, ...]
    revenue: int
    bonus: int
    subsidy: int
    legal: bool
    violations: tuple[str, ...]
    #: What the route's bonus is called (``revenue.bonus_names``: "destination bonus",
    #: 1882's "Hudson Bay bonus").
    bonus_name: str = "destination bonus"

    @property
    def hexes(self) -> tuple[HexId, ...]:
        """Every hex the route crosses, in order (consecutive repeats once)."""
        out: list[HexId] = []
        for leg in self.legs:
            if not out or out[-1] != leg.hex:
                out.append(leg.hex)
        return tuple(out)


def _revenue(node: RevenueCenter, colors: Sequence[str]) -> dict[str, int]:
    return {c: node.value_for(c) for c in colors}


_PRICED_COLORS = ("yellow", "green", "brown", "gray")
#: And black, which only 1856's off-boards print (its phases D and 8): listed for a node
#: that prints it.
_ALL_COLORS = (*_PRICED_COLORS, "black")


def _prints_black(node: RevenueCenter) -> bool:
    return not isinstance(node.revenue, int) and "black" in node.revenue


def _node_view(board: Board, hex_def: HexDef, node: RevenueCenter) -> NodeView:
    tokens = board.tokens_in(hex_def.id, node.index)
    reserved = tuple(
        corp for city, corp in hex_def.home_reservations.items()
        if city == node.index and node.kind == "city" and corp not in tokens
        and not board.token_cities(corp)
    )
    return NodeView(
        kind=node.kind, index=node.index,
        revenue=_revenue(node, _ALL_COLORS if _prints_black(node) else _PRICED_COLORS),
        slots=node.slots, tokens=tokens, reserved=reserved, groups=node.groups,
        visit_cost=node.visit_cost, hidden=node.hidden,
        printed_revenue=(dict(node.revenue) if not isinstance(node.revenue, int)
                         else {c: node.revenue for c in _PRICED_COLORS}),
    )


def _hex_view(board: Board, hex_def: HexDef, dests: Mapping[HexId, list[str]]) -> HexView:
    placed = board.placed.get(hex_def.id)
    tile: TileDef = placed.tile if placed else hex_def.preprinted
    rotation = placed.rotation if placed else 0
    return HexView(
        id=hex_def.id, x=hex_def.x, y=hex_def.y,
        color=tile.color, location_name=hex_def.location_name,
        tile=tile.name if placed else None, rotation=rotation,
        terrain=tuple((t.cost, t.terrains) for t in hex_def.terrain),
        terrain_cost=hex_def.terrain_cost,
        impassable_edges=hex_def.impassable_edges,
        labels=tile.labels,
        marks=hex_def.marks,
        destination_of=tuple(dests.get(hex_def.id, ())),
        nodes=tuple(_node_view(board, hex_def, n) for n in tile.nodes),
        paths=tuple(PathView(p.index, p.ends[0], p.ends[1], p.terminal)
                    for p in board.paths_on(hex_def.id)),
    )


def board_view_of(state: RouteState) -> BoardView:
    """The picture's data for a parsed state (every hex of the map, in map order)."""
    board = state.board
    corps = state.data.corporations
    mine = mine_rule(state.data)
    dests: dict[HexId, list[str]] = {}
    for c in corps.values():
        if c.destination_hex is not None:
            dests.setdefault(c.destination_hex, []).append(c.sym)
    hexes = tuple(
        _hex_view(board, h, dests)
        for h in sorted(state.data.hexes.values(), key=lambda h: (h.y, h.x))
    )
    return BoardView(
        title=state.title.name,
        rule_set=state.rule_set.name,
        phase=state.phase.name,
        revenue_color=state.phase.revenue_color,
        corporation=state.corporation.sym,
        trains=tuple(t.name for t in state.trains),
        hexes=hexes,
        corporations={
            c.sym: CorporationView(c.sym, c.name, c.color, c.home_hex,
                                   c.destination_hex, c.destination_bonus)
            for c in corps.values()
        },
        mine_hex=None if mine is None else mine.hex,
        mine_subsidy=0 if mine is None else mine.subsidy,
        currency_format=state.data.currency_format,
        layout=state.data.layout,
    )


def tile_view(tile_name: str, rotation: int, hex_id: HexId, title: str) -> HexView:
    """A bare tile of ``title`` at a rotation on a hex, outside any game (for tile sheets
    and tests)."""
    from route18xx.engine.titles import title_named

    data = title_named(title).data
    if hex_id not in data.hexes:
        raise MalformedInput("hex", f"unknown hex {hex_id!r} of {data.title}")
    tile = data.tiles.get(tile_name)
    if tile is None:
        raise MalformedInput("tile", f"unknown tile {tile_name!r}")
    if rotation not in range(6):
        raise MalformedInput("rotation", f"{rotation} is outside 0-5")
    from route18xx.engine.board.board import PlacedTile

    board = Board({hex_id: PlacedTile(tile, rotation)}, {}, data)
    return _hex_view(board, data.hexes[hex_id], {})


def _walk(board: Board, stops: Sequence[str], chains: Sequence[Any]) -> tuple[Leg, ...]:
    """The chains' paths in travel order, each with the end it is entered from."""
    legs: list[Leg] = []
    for i, chain in enumerate(chains):
        paths = list(chain.paths)
        if chain.start != stops[i]:
            paths.reverse()
        hex0, node0 = split_node_id(stops[i])
        previous: End | None = None
        for hex_id, index in paths:
            path = board.paths_on(hex_id)[index]
            a, b = path.ends
            if previous is None:
                start = a if a[0] != "edge" and a[1] == node0 and hex_id == hex0 else b
            else:
                start = ("edge", facing_edge(previous[1]))
            end = b if start == a else a
            legs.append(Leg(hex_id, index, start, end))
            previous = end
    return tuple(legs)


def route_walks_of(state: RouteState, routes_raw: Any, field: str = "routes") -> list[RouteWalk]:
    """Judge routes (a run_routes ``routes`` array) and walk each one's track in order.

    An illegal route comes back with ``legal`` false and its reasons, walked as far
    as its connections could be rebuilt (none when they could not).
    """
    specs = parse_route_specs(routes_raw, state.data, field)
    check_route_references(state, specs)
    judgement = judge_routes(state, specs)
    bonuses = route_bonuses(state)
    walks = []
    for judged in judgement.routes:
        legs = _walk(state.board, judged.stops, judged.chains) if judged.chains else ()
        names = bonus_names((split_node_id(s)[0] for s in judged.stops), bonuses) if judged.bonus else ""
        walks.append(RouteWalk(
            train=judged.train, stops=tuple(judged.stops), legs=legs,
            revenue=judged.revenue, bonus=judged.bonus, subsidy=judged.subsidy,
            legal=not judged.violations, violations=tuple(judged.violations),
            bonus_name=names or "destination bonus",
        ))
    return walks


def state_with_move(state: RouteState, move: MoveReport) -> RouteState:
    """The state after a suggested move (``kind`` "tile" with hex, tile, rotation, or
    "token" with hex and city), for a picture of what the suggestion leaves."""
    kind = move.kind
    hex_id = move.hex
    if hex_id not in state.data.hexes:
        raise MalformedInput("move.hex", f"unknown hex {hex_id!r}")
    if kind == "tile":
        tile = state.data.tiles.get(str(move.tile))
        rotation = move.rotation
        if tile is None:
            raise MalformedInput("move.tile", f"unknown tile {move.tile!r}")
        if not isinstance(rotation, int) or rotation not in range(6):
            raise MalformedInput("move.rotation", f"{rotation!r} is outside 0-5")
        return dataclasses.replace(state, board=state.board.with_tile(hex_id, tile, rotation))
    if kind == "token":
        city = move.city
        if not isinstance(city, int):
            raise MalformedInput("move.city", f"{city!r} is not a city index")
        board = state.board.with_token(hex_id, city, state.corporation.sym)
        return dataclasses.replace(state, board=board)
    raise MalformedInput("move.kind", f"must be 'tile' or 'token', not {kind!r}")
