"""A title's game facts, loaded once from ``engine/data/<title>/*.json`` (DESIGN.md §2, §9).

Plain frozen dataclasses with no rules in them: the map, the tiles, phases,
trains, corporations and private companies. The JSON files encode the facts of
``reference/<title>/data`` (1888 by default, 1830 beside it); this module only
gives them types. Which titles exist and how they differ is ``engine.titles``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property

from route18xx.engine.errors import TitleDataError
from route18xx.engine.facts.datafiles import has_data_file, read_data_file
from typing import Any, Literal, Mapping, Self, TypeAlias, TypeVar

HexId: TypeAlias = str
CorpId: TypeAlias = str
CompanyId: TypeAlias = str
TileName: TypeAlias = str
Color: TypeAlias = str
NodeKind: TypeAlias = Literal["city", "town", "offboard"]
Layout: TypeAlias = Literal["pointy", "flat"]
#: The map layouts the engine knows (18xx.games ``Hex::DIRECTIONS``).
LAYOUTS: tuple[Layout, ...] = ("pointy", "flat")

#: Tile colours in upgrade order (RULES.md §6.5 #2).
COLOR_ORDER: tuple[Color, ...] = ("white", "yellow", "green", "brown", "gray")
#: The colours a revenue may be listed for, oldest first: the tile colours and black, the
#: colour 1856's phases D and 8 lay (no tile of it: its off-boards list a black value).
REVENUE_COLORS: tuple[Color, ...] = COLOR_ORDER + ("black",)

_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)


class Derives:
    """A facts object that holds what other modules derive from it (issue 25, DESIGN.md §9).

    The facts are frozen and loaded once per title, so an index built from them (the
    map's crossings, a tile's geometry, the route bounds) is built once and held by the
    object itself: it lives exactly as long as its facts, and no cache elsewhere is keyed
    by ``id()`` (an id is reused once its object dies). ``functools.cached_property``
    would do inside this module, but the indexes are built by modules above it
    (``engine.geometry``, ``engine.tile_rules``, …), which this one must not import; and
    ``functools.cache`` cannot key on these objects, whose dict fields make them
    unhashable. So the memo is a dict in the instance's ``__dict__``, written the way
    ``cached_property`` writes (past the frozen ``__setattr__``): it is no field, so it
    takes no part in ``==``, ``repr`` or ``dataclasses.replace`` (a replaced copy starts
    empty). The ``build`` function is the memo's key: pass a module-level function, never
    a fresh lambda.
    """

    __slots__ = ()

    def __getstate__(self) -> dict[str, Any]:
        """A pickle or deep copy carries the facts, not the memo (rebuilt where used)."""
        return {k: v for k, v in self.__dict__.items() if k != "_derived"}

    def derived(self, build: Callable[[Self], _T]) -> _T:
        """``build(self)``, built at the first call and held by ``self`` after it."""
        try:  # the hot path: one dict lookup each (a board asks thousands of times)
            return self.__dict__["_derived"][build]  # type: ignore[no-any-return]
        except KeyError:
            pass
        return self._build(build, build, ())

    def derived_for(self, build: Callable[[Self, _K], _T], key: _K) -> _T:
        """``build(self, key)``, built at the first call per ``key`` and held by ``self``."""
        try:
            return self.__dict__["_derived"][(build, key)]  # type: ignore[no-any-return]
        except KeyError:
            pass
        return self._build((build, key), build, (key,))

    def _build(self, at: Hashable, build: Callable[..., _T], args: tuple[Any, ...]) -> _T:
        memo: dict[Hashable, Any] = self.__dict__.setdefault("_derived", {})
        made = memo[at] = build(self, *args)
        return made


@dataclass(frozen=True)
class RevenueCenter:
    """A city, town or off-board on a tile, numbered by its part index (ROUTES.md §1.4)."""

    kind: NodeKind
    index: int
    revenue: int | Mapping[Color, int]
    slots: int = 0
    groups: tuple[str, ...] = ()
    visit_cost: int = 1
    #: Printed without its revenue (Baotou's second off-board hex shows it once).
    hidden: bool = False

    def value_for_train(self, color: Color, column: str | None) -> int:
        """Revenue for a train that earns the stop's ``column`` where the stop lists one
        (18xx.games ``route_base_revenue``: a D earns an off-board's ``diesel`` value,
        1889's F1, J1, L7; ``GameData.train_stop_values``), else ``value_for(color)``."""
        if column is not None and not isinstance(self.revenue, int) and column in self.revenue:
            return self.revenue[column]
        return self.value_for(color)

    def value_for(self, color: Color) -> int:
        """Revenue in a phase whose newest tile colour is ``color`` (ROUTES.md §4.1).

        A location that does not list ``color`` pays for the newest older colour it
        lists (1830 ROUTES.md §4.1: Chicago lists yellow and brown only, so it pays
        the yellow value in the green phases 3 and 4).
        """
        if isinstance(self.revenue, int):
            return self.revenue
        value = self.revenue.get(color)
        if value is not None:
            return value
        older = REVENUE_COLORS[: REVENUE_COLORS.index(color)] if color in REVENUE_COLORS else ()
        for previous in reversed(older):
            if previous in self.revenue:
                return self.revenue[previous]
        return 0


@dataclass(frozen=True)
class PathEnd:
    """One end of a tile path: a hex edge (``kind == "edge"``) or a revenue centre."""

    kind: Literal["edge", "city", "town", "offboard"]
    index: int

    @property
    def is_edge(self) -> bool:
        return self.kind == "edge"


@dataclass(frozen=True)
class TilePath:
    """Track between two ends at rotation 0. ``terminal``: a route may only end on it."""

    a: PathEnd
    b: PathEnd
    terminal: bool = False


@dataclass(frozen=True)
class TerrainCost:
    """What laying a tile on a hex of these terrains costs (tiles.json / map.json ``terrain``)."""

    cost: int
    terrains: tuple[str, ...]


@dataclass(frozen=True)
class TileDef(Derives):
    """A tile (or a hex's preprinted tile): colour, revenue centres, paths, labels."""

    name: TileName
    color: Color
    nodes: tuple[RevenueCenter, ...]
    paths: tuple[TilePath, ...]
    labels: tuple[str, ...] = ()
    upgrades_to: tuple[TileName, ...] = ()
    special_only: bool = False
    #: Copies in the supply by rule set; a null count is a supply that never runs out.
    counts: Mapping[str, int | None] | None = None
    #: The one hex a private's special tile may stand on (RULES.md §7.2, §7.3, §7.5;
    #: private_rules.json): the ferry pair cannot be told apart by track alone.
    only_on: HexId | None = None
    #: Where a special-only tile without ``only_on`` may stand: the hexes of the tile-lay
    #: abilities that name it (1889's port 437: the Mitsubishi Ferry's B11, G10, I12, J9).
    ability_hexes: tuple[HexId, ...] = ()
    #: What laying a tile over this one costs (18xx.games ``upgrade_cost``: the ``upgrade``
    #: parts of the tile on the hex): a hex's printed terrain, and a few tiles' own
    #: (1889's Kotohira tiles 438 and 439 cost ¥80 to upgrade again).
    terrain: tuple[TerrainCost, ...] = ()
    #: The label the hex's tile takes from a colour on (label, colour): 1856's B-L hexes
    #: become Bar or Lon in brown, its future L cities L (map.json ``future_label``).
    future_label: tuple[str, Color] | None = None
    #: Tiles that may stand on the hex whatever their label (1856's Hamilton L15: its brown
    #: OO tile upgrades to 123, labelled H; ``route_rules.json`` ``label_exceptions``).
    label_exempt: frozenset[TileName] = frozenset()

    def node(self, index: int) -> RevenueCenter | None:
        for node in self.nodes:
            if node.index == index:
                return node
        return None

    @property
    def cities(self) -> tuple[RevenueCenter, ...]:
        return tuple(n for n in self.nodes if n.kind == "city")

    @property
    def towns(self) -> tuple[RevenueCenter, ...]:
        return tuple(n for n in self.nodes if n.kind == "town")

    def exits(self, rotation: int = 0) -> frozenset[int]:
        """Edges used by the tile's track at ``rotation`` (RULES.md §6.5 #9).

        Held per tile for all six rotations: a board asks it thousands of times.
        """
        return self._exits[rotation % 6]

    @cached_property
    def _exits(self) -> tuple[frozenset[int], ...]:
        edges = [end.index for path in self.paths for end in (path.a, path.b) if end.is_edge]
        return tuple(frozenset((e + rotation) % 6 for e in edges) for rotation in range(6))


@dataclass(frozen=True)
class HexDef:
    """A map hex: position, preprinted tile, terrain, borders, reservations."""

    id: HexId
    x: int
    y: int
    color: Color
    location_name: str | None
    preprinted: TileDef
    preprinted_tile_id: str
    terrain: tuple[TerrainCost, ...]
    impassable_edges: frozenset[int]
    neighbors: Mapping[int, HexId]
    blocked_by_company: tuple[CompanyId, ...]
    #: city index → the corporation whose home it is; the key None reserves the whole
    #: hex, not one city (1830 ERIE on E11, 1830 RULES.md §6.4).
    home_reservations: Mapping[int | None, CorpId]
    lay_candidates: tuple[TileName, ...]
    #: Marks printed on the hex that no rule reads, for pictures (``hex_marks.json``,
    #: e.g. ``"wall"``: 1888's Great Wall, RULES.md §7.4).
    marks: tuple[str, ...] = ()
    #: The privates whose ``blocks_hexes`` marks this hex, by rule set where a rule set
    #: differs from ``blocked_by_company`` (map.json ``by_rule_set``: 1889's beginner game
    #: takes the marks off C4 and K4).
    blockers_by_rule_set: Mapping[str, tuple[CompanyId, ...]] = field(default_factory=dict)

    @property
    def terrain_cost(self) -> int:
        return sum(t.cost for t in self.terrain)

    def blockers(self, rule_set: str) -> tuple[CompanyId, ...]:
        """The privates that close this hex to tiles under ``rule_set`` while a player owns
        them (RULES.md §7.3; map.json ``blocked_by_company`` and ``by_rule_set``)."""
        return self.blockers_by_rule_set.get(rule_set, self.blocked_by_company)


@dataclass(frozen=True)
class PhaseDef:
    """A phase (phases.json): the train that starts it, the train limit, the tile colours
    it allows and how many operating rounds a set has."""

    name: str
    starts_with_train: str | None
    train_limit: int
    tile_colors: tuple[Color, ...]
    operating_rounds: int
    corporations_may_buy_privates: bool
    #: 18xx.games phase status flags, e.g. ``can_buy_companies_from_other_players``
    #: (1830 phases 2-4: players may buy privates from each other, 1830 RULES.md §14).
    status: tuple[str, ...] = ()
    #: The rule sets that have the phase, when not all do (1856: D, or 8 in the 8-train
    #: variant; phases.json ``rule_sets``); empty: every rule set.
    rule_sets: tuple[str, ...] = ()

    @property
    def revenue_color(self) -> Color:
        """The newest tile colour of the phase, which prices every stop (ROUTES.md §4.1)."""
        return self.tile_colors[-1]


@dataclass(frozen=True)
class TrainDef:
    """A train type of the depot (trains.json): its distance (None: unlimited), price,
    count, the train whose first purchase rusts it and the phase its own first purchase
    starts."""

    name: str
    distance: int | None
    price: int
    count: int | None
    rusts_when_first_bought: str | None
    starts_phase: str | None
    events: tuple[str, ...]
    exchange_discount: Mapping[str, int]
    exportable: bool
    #: The rule sets whose depot holds it, when not all do (1856: the D, or the 8 in the
    #: 8-train variant; trains.json ``count_by_rule_set`` 0 elsewhere); empty: every one.
    rule_sets: tuple[str, ...] = ()


@dataclass(frozen=True)
class CorporationDef:
    """A corporation's charter (corporations.json): its home, destination, token prices
    and shares."""

    sym: CorpId
    name: str
    home_hex: HexId
    home_city_index: int | None
    #: The destination (1888 RULES.md §5.2); None in a title without destinations (1830).
    destination_hex: HexId | None
    destination_bonus: int
    token_prices: tuple[int, ...]
    float_percent: Mapping[str, int]
    max_ownership_percent: int
    share_percents: tuple[int, ...]
    #: The company's colour as 18xx.games prints it (tokens, charters, pictures).
    color: str = "#808080"
    #: Its station tokens that other companies place (1882's CN: the neutral stations,
    #: one in each other corporation's charter; corporations.json ``neutral_tokens``).
    placed_by_others: int = 0
    #: Station tokens it may hold when not its own charter's (1856's CGR: up to 10 taken
    #: over from the companies it absorbs; ``route_rules.json`` ``corporation_facts``).
    station_limit: int | None = None
    #: Trains it may hold beyond the phase's limit (1856's CGR: one).
    train_limit_increase: int = 0

    @property
    def stations(self) -> int:
        """Every station token of the company that a board may hold (RULES.md §2.5)."""
        if self.station_limit is not None:
            return self.station_limit
        return len(self.token_prices) + self.placed_by_others


@dataclass(frozen=True)
class CompanyDef:
    """A private company (companies.json): its price range, income and the abilities the
    engine implements (``implemented_abilities``)."""

    sym: CompanyId
    name: str
    value: int
    revenue: int
    min_price: float
    max_price: float
    abilities: tuple[Mapping[str, Any], ...]
    summary: str


@dataclass(frozen=True)
class LaySlot:
    """One of the normal tile lays of a corporation's turn (18xx.games ``TILE_LAYS``): may it
    lay a tile on an empty hex (``lay``; ``"not_if_upgraded"``: only if no earlier lay of the
    turn was an upgrade), may it upgrade, and what it costs beyond terrain (1882's second
    lay: $20)."""

    lay: bool | Literal["not_if_upgraded"]
    upgrade: bool
    cost: int = 0


#: One lay or upgrade a turn, at no cost beyond terrain (RULES.md §6.5; 18xx.games base).
ONE_LAY = (LaySlot(True, True, 0),)


@dataclass(frozen=True)
class MarkerBonus:
    """What a marker pays a route of its company stopping on its hex (1856's port: $20)."""

    value: int
    name: str
    source: str


@dataclass(frozen=True)
class HexBonusRight:
    """A right a company may hold: ``value`` more for each of ``hexes`` a route stops on
    (1856's bridge, P17 and P19, and tunnel, B13: $10)."""

    name: str
    hexes: frozenset[HexId]
    value: int
    source: str


@dataclass(frozen=True)
class HexPairBonus:
    """A bonus a route earns once when it stops on a hex of ``first`` and on a hex of
    ``second`` (the two sets may be one: a stop there earns it). ``name`` and ``source``
    explain it (1882's Hudson Bay bonus: I1 or B2, and B12, ``g_1882/game.rb revenue_for``)."""

    value: int
    first: frozenset[HexId]
    second: frozenset[HexId]
    name: str
    source: str


@dataclass(frozen=True)
class GameData(Derives):
    """Every fact of one title, all its rule sets. Indexed by id for lookups; the
    indexes other modules derive from it are held by it (``Derives``)."""

    hexes: Mapping[HexId, HexDef]
    tiles: Mapping[TileName, TileDef]
    phases: tuple[PhaseDef, ...]
    trains: Mapping[str, TrainDef]
    corporations: Mapping[CorpId, CorporationDef]
    companies: Mapping[str, tuple[CompanyDef, ...]]
    market: Mapping[str, Any]
    #: Where a corporation needs a station token for the Forbidden City share exchange
    #: (Beijing C9, RULES.md §7.6; private_rules.json).
    exchange_token_hexes: frozenset[HexId] = frozenset()
    #: The title these facts are of (``engine.titles``); always named (issue 33).
    title: str = field(kw_only=True)
    #: hex → money a route stopping there earns for the treasury (1888's mine,
    #: ROUTES.md §5.3; ``route_rules.json``); empty in a title without subsidies.
    stop_subsidies: Mapping[HexId, int] = field(default_factory=dict)
    #: How the title writes an amount of money, ``%s`` standing for the number
    #: (18xx.games ``CURRENCY_FORMAT_STR``: 1888 ``"¥%s"``, 1830 ``"$%s"``; ``players.json``).
    currency_format: str = "%s"
    #: rule → where the title's ROUTES.md states it, for explanations (``route_rules.json``
    #: ``rule_sections``: ``phase_value``, ``fixed_value``, ``harbour``, ``destination_bonus``,
    #: ``subsidy``); a rule not listed is cited as ``ROUTES.md``.
    rule_sections: Mapping[str, str] = field(default_factory=dict)
    #: The map's hexes: ``"pointy"`` (1888, 1830) or ``"flat"`` (1889), 18xx.games
    #: ``LAYOUT`` (map.json ``layout``): which way each edge number faces.
    layout: Layout = "pointy"
    #: Train name → the revenue column its stops pay where a stop lists it (18xx.games
    #: ``route_base_revenue``: a D earns ``diesel``; ``route_rules.json``; empty when no
    #: stop pays by train).
    train_stop_values: Mapping[str, str] = field(default_factory=dict)
    #: Bonuses a route earns for stopping on a hex of each of two sets, for every company
    #: (1882's Hudson Bay bonus; ``route_rules.json`` ``route_bonuses``); empty without them.
    route_bonuses: tuple[HexPairBonus, ...] = ()
    #: Companies whose station tokens are neutral: a city holding one never blocks a route
    #: (1882's CN; 18xx.games ``City#blocks?``; ``route_rules.json`` ``neutral_stations``).
    neutral_stations: frozenset[CorpId] = frozenset()
    #: The normal tile lays of a turn, in order (``route_rules.json`` ``tile_lays``: 1882's
    #: two yellow lays or one upgrade); one lay or upgrade by default.
    tile_lays: tuple[LaySlot, ...] = ONE_LAY
    #: Marker → the bonus a route of the company holding it earns for a stop on the hex
    #: holding it (1856's port: ``route_rules.json`` ``assignment_bonuses``).
    assignment_bonuses: Mapping[str, MarkerBonus] = field(default_factory=dict)
    #: The per-hex bonus rights a company may hold (1856's bridge and tunnel; a state lists
    #: a company's as ``hex_bonuses``; ``route_rules.json`` ``hex_bonus_rights``).
    hex_bonus_rights: tuple[HexBonusRight, ...] = ()
    #: Town tiles that upgrade to a city or plain track in the phases with the status
    #: ``town_upgrade_status`` (1856's gray phases: ``route_rules.json`` ``town_upgrades``).
    town_upgrades: Mapping[TileName, tuple[TileName, ...]] = field(default_factory=dict)
    town_upgrade_status: str | None = None

    def stop_column(self, train: str) -> str | None:
        """The revenue column train ``train`` earns where a stop lists it (``train_stop_values``)."""
        return self.train_stop_values.get(train)

    def rule_section(self, rule: str) -> str:
        """Where the title's ROUTES.md states ``rule`` (``rule_sections``)."""
        return self.rule_sections.get(rule, "ROUTES.md")

    def phase(self, name: str) -> PhaseDef | None:
        for phase in self.phases:
            if phase.name == name:
                return phase
        return None

    def hex_blockers(self, rule_set: str) -> frozenset[CompanyId]:
        """The privates that close hexes to tile lays while a player owns them (their
        ``blocks_hexes`` ability: Heng Shan and C5, RULES.md §7.3)."""
        return frozenset(
            c.sym for c in self.companies.get(rule_set, ())
            if any(a.get("type") == "blocks_hexes" for a in c.abilities)
        )



def _load(name: str, title: str, default: Any = None) -> Any:
    """``engine/data/<title>/<name>.json``; ``default`` when the title has no such file."""
    if default is not None and not has_data_file(title, name):
        return default
    return read_data_file(title, name)


def _path_end(raw: Mapping[str, int]) -> PathEnd:
    ((kind, index),) = raw.items()
    return PathEnd(kind, index)  # type: ignore[arg-type]


def _nodes(raw: Mapping[str, Any]) -> tuple[RevenueCenter, ...]:
    nodes: list[RevenueCenter] = []
    for kind, key in (("city", "cities"), ("town", "towns"), ("offboard", "offboards")):
        for item in raw.get(key, []):
            nodes.append(
                RevenueCenter(
                    kind=kind,  # type: ignore[arg-type]
                    index=item["index"],
                    revenue=item["revenue"],
                    slots=item.get("slots", 0) or 0,
                    groups=tuple(item.get("groups") or ()),
                    visit_cost=item.get("visit_cost", 1),
                    hidden=bool(item.get("hidden", False)),
                )
            )
    return tuple(sorted(nodes, key=lambda n: n.index))


def _paths(raw: Mapping[str, Any]) -> tuple[TilePath, ...]:
    return tuple(
        TilePath(_path_end(p["a"]), _path_end(p["b"]), bool(p.get("terminal", False)))
        for p in raw["paths"]
    )


def _terrain(raw: Mapping[str, Any]) -> tuple[TerrainCost, ...]:
    return tuple(TerrainCost(t["cost"], tuple(t["terrains"])) for t in raw.get("terrain", ()))


def _tile(raw: Mapping[str, Any], only_on: HexId | None = None) -> TileDef:
    return TileDef(
        name=raw["name"],
        color=raw["color"],
        nodes=_nodes(raw),
        paths=_paths(raw),
        labels=tuple(raw.get("labels", ())),
        upgrades_to=tuple(raw.get("upgrades_to", ())),
        special_only=bool(raw.get("special_only", False)),
        counts=dict(raw["count"]),
        only_on=only_on,
        terrain=_terrain(raw),
    )


def _hex(raw: Mapping[str, Any], marks: Mapping[str, Any]) -> HexDef:
    preprinted = TileDef(
        name=raw["tile_name"],
        color=raw["color"],
        nodes=_nodes(raw),
        paths=_paths(raw),
        labels=tuple(raw.get("labels", ())),
        terrain=_terrain(raw),
        future_label=((raw["future_label"]["label"], raw["future_label"]["color"])
                      if raw.get("future_label") else None),
    )
    changes = raw.get("by_rule_set") or {}
    for rule_set, fields in changes.items():
        unknown = set(fields) - _RULE_SET_HEX_FIELDS
        if unknown:
            raise TitleDataError(f"map.json: hex {raw['id']}: by_rule_set.{rule_set} changes "
                                 f"{sorted(unknown)}; the engine reads {sorted(_RULE_SET_HEX_FIELDS)}")
    return HexDef(
        id=raw["id"],
        x=raw["x"],
        y=raw["y"],
        color=raw["color"],
        location_name=raw.get("location_name"),
        preprinted=preprinted,
        preprinted_tile_id=raw["preprinted_tile_id"],
        terrain=preprinted.terrain,
        impassable_edges=frozenset(
            b["edge"] for b in raw["borders"] if b.get("type") == "impassable"
        ),
        neighbors={int(e): h for e, h in raw["all_neighbors"].items()},
        blocked_by_company=tuple(raw.get("blocked_by_company", ())),
        home_reservations={r["city"]: r["corporation"] for r in raw["home_reservations"]},
        lay_candidates=tuple(raw.get("lay_candidates", ())),
        marks=tuple(sorted(m for m, on in marks.items() if not m.startswith("_") and raw["id"] in on)),
        blockers_by_rule_set={
            rule_set: tuple(fields["blocked_by_company"])
            for rule_set, fields in changes.items() if "blocked_by_company" in fields
        },
    )


#: The fields a rule set may change on a hex (map.json ``by_rule_set``, tools/titles
#: shape.py): its blockers, which the engine reads, and its icons, which no rule reads
#: (the port icons of 1889's coastal towns are drawn from the tile laid there).
_RULE_SET_HEX_FIELDS = frozenset({"blocked_by_company", "icons"})


#: The private companies' ability types the engine implements (RULES.md §7, 1830
#: RULES.md §7): tile lays and teleports, blocked hexes, exchanges, shares that come with
#: a private, closing on a train or never, the ban on buying a private, a terrain discount
#: (1889's SMR) and a private's income changed by a phase (1889's UTF).
IMPLEMENTED_ABILITIES = frozenset(
    {"tile_lay", "teleport", "blocks_hexes", "exchange", "shares", "close", "no_buy",
     "tile_discount", "revenue_change"}
)


def implemented_abilities(
    raw: Sequence[Mapping[str, Any]], company: str, title: str,
    outside_route_level: Collection[str] = (),
) -> tuple[Mapping[str, Any], ...]:
    """A private's abilities, each of a type the engine implements; ``TitleDataError``
    naming the title, the company and the type otherwise (issue 33: never ignored).

    ``outside_route_level``: the types a title played at route level only says it holds and
    the engine reads without playing, their effect lying outside a route decision
    (``route_rules.json`` ``abilities_outside_route_level``, each with why: 1882's NWR token
    move, TB's river income, SC's close at phase 6). Such a title names what its games lack
    (``Title.game_level_missing``), so no game of it is played with them ignored."""
    for ability in raw:
        kind = ability.get("type")
        if kind in outside_route_level:
            continue
        if kind not in IMPLEMENTED_ABILITIES:
            raise TitleDataError(
                f"{title}: {company}'s ability {kind!r} is not implemented by the engine "
                f"(implemented: {sorted(IMPLEMENTED_ABILITIES)})"
            )
        on_phase = ability.get("on_phase")
        if kind == "close" and on_phase not in (None, "never"):
            raise TitleDataError(f"{title}: {company} closes at phase {on_phase!r}: the engine "
                                 "closes privates on a train or never (engine.game.privates)")
        if kind == "revenue_change" and on_phase is None:
            raise TitleDataError(f"{title}: {company}'s revenue_change names no phase "
                                 "(on_phase): the engine changes income from a phase on")
    return tuple(raw)


def _with_ability_hexes(
    tiles: dict[TileName, TileDef], companies: Mapping[str, Any]
) -> dict[TileName, TileDef]:
    """Each special-only tile without ``only_on`` with the hexes of the tile-lay abilities
    (of every rule set) that name it (``TileDef.ability_hexes``)."""
    hexes: dict[TileName, set[HexId]] = {}
    for listed in companies.values():
        for company in listed:
            for a in company["abilities"]:
                if a.get("type") in ("tile_lay", "teleport"):
                    for name in a.get("tiles") or ():
                        hexes.setdefault(name, set()).update(a.get("hexes") or ())
    return {
        name: replace(t, ability_hexes=tuple(sorted(hexes.get(name, ()))))
        if t.special_only and t.only_on is None else t
        for name, t in tiles.items()
    }


def game_data(title: str) -> GameData:
    """The facts of ``title`` (a folder of ``engine/data``), parsed once per process.

    Which titles exist is ``engine.titles``; this loader only reads the folder. The
    title is always named (issue 33: no silent default).
    """
    return _game_data(title)


@cache
def _game_data(title: str) -> GameData:
    """``game_data``'s work, once per title."""
    marks = _load("hex_marks", title, {})
    map_raw = _load("map", title)
    hexes = {h["id"]: _hex(h, marks) for h in map_raw["hexes"]}
    privates = _load("private_rules", title, {"special_tile_hexes": {}, "exchange_token_hexes": []})
    homes: Mapping[TileName, HexId] = privates["special_tile_hexes"]
    tiles = {t["name"]: _tile(t, homes.get(t["name"])) for t in _load("tiles", title)["tiles"]}
    phases = tuple(
        PhaseDef(
            name=p["name"],
            starts_with_train=p["starts_when_first_train_of_type_leaves_depot"],
            train_limit=p["train_limit"],
            tile_colors=tuple(p["tile_colors"]),
            operating_rounds=p["operating_rounds_per_set"],
            corporations_may_buy_privates=p["corporations_may_buy_privates"],
            status=tuple(p.get("status") or ()),
            rule_sets=tuple(p.get("rule_sets") or ()),
        )
        for p in _load("phases", title)["phases"]
    )
    trains = {
        t["name"]: TrainDef(
            name=t["name"],
            distance=t["distance"],
            price=t["price"],
            count=t["count"],
            rusts_when_first_bought=t["rusts_when_first_bought"],
            starts_phase=t["first_purchase_starts_phase"],
            events=tuple(t["events_on_first_purchase"]),
            exchange_discount=dict(t["exchange_discount"]),
            exportable=t["exportable_at_or_set_end"],
            rule_sets=tuple(rs for rs, n in (t.get("count_by_rule_set") or {}).items() if n != 0)
            if 0 in (t.get("count_by_rule_set") or {}).values() else (),
        )
        for t in _load("trains", title)["trains"]
    }
    corps_raw = _load("corporations", title)["corporations"]
    corp_facts = _load("route_rules", title, {}).get("corporation_facts", {})
    corporations = {
        c["sym"]: CorporationDef(
            sym=c["sym"],
            name=c["name"],
            home_hex=c["home_hex"],
            home_city_index=c["home_city_index"],
            destination_hex=c.get("destination_hex"),
            destination_bonus=c.get("destination_bonus", 0),
            token_prices=tuple(c["token_prices"]),
            float_percent=dict(c["float_percent"]),
            max_ownership_percent=c["max_ownership_percent"],
            share_percents=tuple(s["percent"] for s in c["shares"]),
            color=c.get("color", "#808080"),
            placed_by_others=sum(1 for o in corps_raw for t in o.get("neutral_tokens", ())
                                 if t["owner"] == c["sym"]),
            station_limit=corp_facts.get(c["sym"], {}).get("stations"),
            train_limit_increase=corp_facts.get(c["sym"], {}).get("train_limit_increase", 0),
        )
        for c in corps_raw
    }
    companies_raw = _load("companies", title)
    tiles = _with_ability_hexes(tiles, companies_raw)
    route_rules = _load("route_rules", title, {})
    outside = frozenset(route_rules.get("abilities_outside_route_level", {}))
    companies = {
        rule_set: tuple(
            CompanyDef(
                sym=c["sym"],
                name=c["name"],
                value=c["value"],
                revenue=c["revenue"],
                min_price=c["min_price"],
                max_price=c["max_price"],
                abilities=implemented_abilities(c["abilities"], c["sym"], title, outside),
                summary=c["summary"],
            )
            for c in companies_raw[rule_set]
        )
        for rule_set in companies_raw
    }
    mine = route_rules.get("mine")
    for hex_id, exception in route_rules.get("label_exceptions", {}).items():
        h = hexes[hex_id]
        hexes[hex_id] = replace(h, preprinted=replace(h.preprinted, label_exempt=frozenset(exception["tiles"])))
    layout = map_raw["layout"]
    if layout not in LAYOUTS:
        raise TitleDataError(f"{title}: map.json layout {layout!r} is not one of {list(LAYOUTS)}")
    return GameData(
        hexes=hexes,
        tiles=tiles,
        phases=phases,
        trains=trains,
        corporations=corporations,
        companies=companies,
        market=_load("market", title),
        exchange_token_hexes=frozenset(privates["exchange_token_hexes"]),
        title=title,
        stop_subsidies={mine["hex"]: mine["subsidy"]} if mine else {},
        currency_format=_load("players", title)["currency_format"],
        rule_sections=dict(route_rules.get("rule_sections", {})),
        layout=layout,
        train_stop_values=dict(route_rules.get("train_stop_values", {})),
        route_bonuses=tuple(
            HexPairBonus(b["value"], frozenset(b["first"]), frozenset(b["second"]), b["name"], b["source"])
            for b in route_rules.get("route_bonuses", ())
        ),
        neutral_stations=frozenset(route_rules.get("neutral_stations", {}).get("corporations", ())),
        tile_lays=tuple(LaySlot(t["lay"], t["upgrade"], t.get("cost", 0))
                        for t in route_rules.get("tile_lays", {}).get("lays", ())) or ONE_LAY,
        assignment_bonuses={m: MarkerBonus(b["value"], b["name"], b["source"])
                            for m, b in route_rules.get("assignment_bonuses", {}).items()},
        hex_bonus_rights=tuple(HexBonusRight(r["name"], frozenset(r["hexes"]), r["value"], r["source"])
                               for r in route_rules.get("hex_bonus_rights", ())),
        town_upgrades={k: tuple(v) for k, v in route_rules.get("town_upgrades", {}).get("upgrades", {}).items()},
        town_upgrade_status=route_rules.get("town_upgrades", {}).get("phase_status"),
    )
