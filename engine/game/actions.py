"""Game actions as immutable values, parsed from 18xx.games log JSON (ACTIONS.md §4).

An action is what a player (or a company or private they control) does; a game
is the replay of its actions (STYLE.md §4). Each class mirrors one 18xx.games
action type and keeps only the fields that change the game. ``parse_action``
turns a log entry into one of these and raises ``MalformedInput`` naming the
field when the entry cannot be read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from engine.errors import MalformedInput

#: A player id (integer user id) or a corporation / private symbol.
Entity: TypeAlias = int | str


@dataclass(frozen=True)
class Action:
    """Fields every action has (ACTIONS.md §2.1). ``id`` is None for auto-actions."""

    entity: Entity
    entity_type: str
    id: int | None = field(default=None, kw_only=True)
    auto_actions: tuple[Action, ...] = field(default=(), kw_only=True, compare=False)

    type: ClassVar[str] = ""

    @property
    def is_player(self) -> bool:
        return self.entity_type == "player"

    @property
    def is_corporation(self) -> bool:
        return self.entity_type == "corporation"

    @property
    def is_company(self) -> bool:
        return self.entity_type == "company"


@dataclass(frozen=True)
class Bid(Action):
    """Waterfall auction: buy the cheapest private, bid on another, or raise (RULES.md §4)."""

    type: ClassVar[str] = "bid"

    company: str = ""
    price: int = 0


@dataclass(frozen=True)
class Pass(Action):
    """Pass whichever step is waiting (ACTIONS.md §3)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Par(Action):
    """Float a corporation: buy its president's certificate at a par price (RULES.md §5.5)."""

    type: ClassVar[str] = "par"

    corporation: str = ""
    price: int = 0
    row: int = 0
    column: int = 0


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy one certificate from the IPO or the pool; entity FC = Forbidden City exchange."""

    type: ClassVar[str] = "buy_shares"

    shares: tuple[str, ...] = ()
    percent: int = 10


@dataclass(frozen=True)
class SellShares(Action):
    """Sell certificates to the pool (RULES.md §5.8; in an OR, emergency money §6.10)."""

    type: ClassVar[str] = "sell_shares"

    shares: tuple[str, ...] = ()
    percent: int = 10


@dataclass(frozen=True)
class LayTile(Action):
    """Lay or upgrade a tile; entity = a private for its special lay (RULES.md §6.5, §7)."""

    type: ClassVar[str] = "lay_tile"

    hex: str = ""
    tile: str = ""
    rotation: int = 0

    @property
    def tile_name(self) -> str:
        return self.tile.rsplit("-", 1)[0]


@dataclass(frozen=True)
class PlaceToken(Action):
    """Place a station token in the city ``<tile id>-<city index>`` (RULES.md §6.6)."""

    type: ClassVar[str] = "place_token"

    city: str = ""
    slot: int | None = None

    @property
    def tile_id(self) -> str:
        return self.city.rsplit("-", 1)[0]

    @property
    def city_index(self) -> int:
        return int(self.city.rsplit("-", 1)[1])


@dataclass(frozen=True)
class RouteRecord:
    """One recorded route of a run_routes action (ROUTES.md §6), kept as logged."""

    train: str
    connections: tuple[tuple[str, ...], ...]
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    revenue: int
    subsidy: int

    def as_json(self) -> dict[str, Any]:
        return {
            "train": self.train,
            "connections": [list(c) for c in self.connections],
            "hexes": list(self.hexes),
            "nodes": list(self.nodes),
            "revenue": self.revenue,
            "subsidy": self.subsidy,
        }


@dataclass(frozen=True)
class RunRoutes(Action):
    """Run trains on the recorded routes (ROUTES.md); revenue and subsidy as recorded."""

    type: ClassVar[str] = "run_routes"

    routes: tuple[RouteRecord, ...] = ()

    @property
    def revenue(self) -> int:
        return sum(r.revenue for r in self.routes)

    @property
    def subsidy(self) -> int:
        return sum(r.subsidy for r in self.routes)


@dataclass(frozen=True)
class Dividend(Action):
    """Pay out or withhold the run's revenue (RULES.md §6.8)."""

    type: ClassVar[str] = "dividend"

    kind: str = "payout"


@dataclass(frozen=True)
class BuyTrain(Action):
    """Buy a train from the depot, its discard pile or another corporation (RULES.md §6.9)."""

    type: ClassVar[str] = "buy_train"

    train: str = ""
    price: int = 0
    exchange: str | None = None


@dataclass(frozen=True)
class BuyCompany(Action):
    """A corporation buys a player's private at 50-150 % of face value (RULES.md §6.12)."""

    type: ClassVar[str] = "buy_company"

    company: str = ""
    price: int = 0


@dataclass(frozen=True)
class DiscardTrain(Action):
    """Discard a train over the limit to the depot (RULES.md §6.11)."""

    type: ClassVar[str] = "discard_train"

    train: str = ""


@dataclass(frozen=True)
class Bankrupt(Action):
    """The president of a corporation that cannot buy its forced train goes bankrupt (§6.10)."""

    type: ClassVar[str] = "bankrupt"


@dataclass(frozen=True)
class Program(Action):
    """``program_*`` and ``message``: no game effect; only their auto-actions count (§2.5)."""

    type: ClassVar[str] = "program"

    kind: str = ""


@dataclass(frozen=True)
class Undo(Action):
    """Undo the last action, or back to just after ``action_id`` (ACTIONS.md §2.2)."""

    type: ClassVar[str] = "undo"

    action_id: int | None = None


@dataclass(frozen=True)
class Redo(Action):
    """Redo the last undone group (ACTIONS.md §2.2)."""

    type: ClassVar[str] = "redo"


def _field(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in raw:
        raise MalformedInput(f"{where}.{key}", "is missing")
    value = raw[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise MalformedInput(f"{where}.{key}", f"must be an integer, not {value!r}")
    if kind is not int and not isinstance(value, kind):
        raise MalformedInput(f"{where}.{key}", f"must be a {kind.__name__}, not {value!r}")
    return value


def _str_list(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = _field(raw, key, list, where)
    if not all(isinstance(v, str) for v in value):
        raise MalformedInput(f"{where}.{key}", "must be a list of strings")
    return tuple(value)


def _route(raw: Any, where: str) -> RouteRecord:
    if not isinstance(raw, Mapping):
        raise MalformedInput(where, "must be an object")
    conns = _field(raw, "connections", list, where)
    parsed = []
    for j, conn in enumerate(conns):
        if not isinstance(conn, list) or not all(isinstance(h, str) for h in conn):
            raise MalformedInput(f"{where}.connections[{j}]", "must be a list of hex ids")
        parsed.append(tuple(conn))
    return RouteRecord(
        train=_field(raw, "train", str, where),
        connections=tuple(parsed),
        hexes=tuple(raw.get("hexes") or ()),
        nodes=tuple(raw.get("nodes") or ()),
        revenue=_field(raw, "revenue", int, where),
        subsidy=int(raw.get("subsidy") or 0),
    )


def _share_price(raw: Mapping[str, Any], where: str) -> tuple[int, int, int]:
    text = _field(raw, "share_price", str, where)
    try:
        price, row, col = (int(p) for p in text.split(","))
    except ValueError:
        raise MalformedInput(f"{where}.share_price", f"{text!r} is not '<price>,<row>,<col>'") from None
    return price, row, col


def parse_action(raw: Any, where: str = "action") -> Action:
    """One log entry as an ``Action`` (ACTIONS.md §4); nested auto-actions included."""
    if not isinstance(raw, Mapping):
        raise MalformedInput(where, "must be an object")
    kind = _field(raw, "type", str, where)
    entity = raw.get("entity")
    if not isinstance(entity, (int, str)) or isinstance(entity, bool):
        raise MalformedInput(f"{where}.entity", f"must be a player id or a symbol, not {entity!r}")
    entity_type = str(raw.get("entity_type") or ("player" if isinstance(entity, int) else ""))
    autos = tuple(
        parse_action(a, f"{where}.auto_actions[{i}]") for i, a in enumerate(raw.get("auto_actions") or ())
    )
    common: dict[str, Any] = {"id": raw.get("id"), "auto_actions": autos}
    base = (entity, entity_type)
    match kind:
        case "bid":
            return Bid(
                *base,
                company=_field(raw, "company", str, where),
                price=_field(raw, "price", int, where),
                **common,
            )
        case "pass":
            return Pass(*base, **common)
        case "par":
            price, row, col = _share_price(raw, where)
            return Par(
                *base,
                corporation=_field(raw, "corporation", str, where),
                price=price,
                row=row,
                column=col,
                **common,
            )
        case "buy_shares":
            return BuyShares(
                *base, shares=_str_list(raw, "shares", where), percent=int(raw.get("percent") or 10), **common
            )
        case "sell_shares":
            return SellShares(
                *base,
                shares=_str_list(raw, "shares", where),
                percent=_field(raw, "percent", int, where),
                **common,
            )
        case "lay_tile":
            return LayTile(
                *base,
                hex=_field(raw, "hex", str, where),
                tile=_field(raw, "tile", str, where),
                rotation=_field(raw, "rotation", int, where),
                **common,
            )
        case "place_token":
            city = _field(raw, "city", str, where)
            if city.count("-") < 2 or not city.rsplit("-", 1)[1].isdigit():
                raise MalformedInput(f"{where}.city", f"{city!r} is not '<tile id>-<city index>'")
            return PlaceToken(*base, city=city, slot=raw.get("slot"), **common)
        case "run_routes":
            routes = _field(raw, "routes", list, where)
            return RunRoutes(
                *base, routes=tuple(_route(r, f"{where}.routes[{i}]") for i, r in enumerate(routes)), **common
            )
        case "dividend":
            div = _field(raw, "kind", str, where)
            if div not in ("payout", "withhold"):
                raise MalformedInput(f"{where}.kind", f"{div!r} is neither 'payout' nor 'withhold'")
            return Dividend(*base, kind=div, **common)
        case "buy_train":
            return BuyTrain(
                *base,
                train=_field(raw, "train", str, where),
                price=_field(raw, "price", int, where),
                exchange=raw.get("exchange"),
                **common,
            )
        case "buy_company":
            return BuyCompany(
                *base,
                company=_field(raw, "company", str, where),
                price=_field(raw, "price", int, where),
                **common,
            )
        case "discard_train":
            return DiscardTrain(*base, train=_field(raw, "train", str, where), **common)
        case "bankrupt":
            return Bankrupt(*base, **common)
        case "undo":
            return Undo(*base, action_id=raw.get("action_id"), **common)
        case "redo":
            return Redo(*base, **common)
        case (
            "message"
            | "program_buy_shares"
            | "program_share_pass"
            | "program_disable"
            | ("program_auction_bid")
            | "program_close_pass"
            | "program_harzbahn_draft_pass"
            | "program_independent_mines"
        ):
            return Program(*base, kind=kind, **common)
        case _:
            raise MalformedInput(f"{where}.type", f"unknown or unsupported action type {kind!r}")
