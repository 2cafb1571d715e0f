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

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.inputs import fields as f
from route18xx.engine.routes.route_bounds import widest_route_bounds
from route18xx.engine.routes.route_reading import read_route
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.titles import example

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
    #: None: all the certificates listed (18xx.games reads a missing ``percent`` so,
    #: ``ShareBundle.new(shares, nil)``).
    percent: int | None = 10


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
class RunRoutes(Action):
    """Run trains on the recorded routes (ROUTES.md); revenue and subsidy as recorded."""

    type: ClassVar[str] = "run_routes"

    routes: tuple[RouteSpec, ...] = ()

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
class EndGame(Action):
    """A player ends the game at once; scores are the players' values then (18xx.games
    ``end_game``, game end reason ``manually_ended``; HISTORY.md: logs of every era)."""

    type: ClassVar[str] = "end_game"


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


#: ``entity_type`` values (ACTIONS.md §2.1).
ENTITY_TYPES = ("player", "corporation", "company")
#: How deep auto-actions may nest (18xx.games never nests them; a client might).
MAX_AUTO_DEPTH = 2


def _share_price(raw: Mapping[str, Any], where: str) -> tuple[int, int, int]:
    text = f.name(raw, "share_price", where, what="a share price '<price>,<row>,<column>'")
    parts = text.split(",")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 4 for p in parts):
        raise MalformedInput(f"{where}.share_price", f"{excerpt(text)} is not '<price>,<row>,<column>'")
    price, row, col = (int(p) for p in parts)
    return price, row, col


def _entity(raw: Mapping[str, Any], where: str) -> tuple[Entity, str]:
    entity = raw.get("entity")
    if isinstance(entity, int) and not isinstance(entity, bool):
        f.whole_value(entity, f"{where}.entity", low=0, high=f.MAX_ID)
    elif isinstance(entity, str):
        f.name_value(entity, f"{where}.entity", what="a player id or a symbol")
    else:
        raise MalformedInput(f"{where}.entity", f"must be a player id or a symbol, not {excerpt(entity)}")
    kind = raw.get("entity_type")
    if kind is None or kind == "":
        return entity, "player" if isinstance(entity, int) else ""
    if kind not in ENTITY_TYPES:
        listed = ", ".join(repr(k) for k in ENTITY_TYPES)
        raise MalformedInput(f"{where}.entity_type", f"must be one of {listed}, not {excerpt(kind)}")
    return entity, str(kind)


def parse_action(raw: Any, where: str = "action", *, depth: int = 0) -> Action:
    """One log entry as an ``Action`` (ACTIONS.md §4); nested auto-actions included.

    Every field read is checked for type, shape and a sane range
    (``engine.fields``): a damaged entry is a ``MalformedInput``
    naming the field (``actions[12].rotation``), never another exception.
    """
    if not isinstance(raw, Mapping):
        raise MalformedInput(where, f"must be an object, not {excerpt(raw)}")
    kind = f.name(raw, "type", where, what="an action type")
    entity, entity_type = _entity(raw, where)
    autos_raw = f.items(raw, "auto_actions", where, default=[])
    if autos_raw and depth >= MAX_AUTO_DEPTH:
        raise MalformedInput(f"{where}.auto_actions", "auto-actions nest too deeply")
    autos = tuple(
        parse_action(a, f"{where}.auto_actions[{i}]", depth=depth + 1) for i, a in enumerate(autos_raw)
    )
    common: dict[str, Any] = {
        "id": f.whole(raw, "id", where, low=0, high=f.MAX_ID, default=None),
        "auto_actions": autos,
    }
    base = (entity, entity_type)
    money = {"low": 0, "high": f.MAX_MONEY}
    match kind:
        case "bid":
            return Bid(
                *base,
                company=f.name(raw, "company", where, what="a private company's symbol"),
                price=f.whole(raw, "price", where, **money),
                **common,
            )
        case "pass":
            return Pass(*base, **common)
        case "par":
            price, row, col = _share_price(raw, where)
            return Par(
                *base,
                corporation=f.name(raw, "corporation", where, what="a corporation's symbol"),
                price=price,
                row=row,
                column=col,
                **common,
            )
        case "buy_shares" | "sell_shares":
            shares = f.names(raw, "shares", where, shape=f.CERT_ID, what="a certificate id such as 'LYR_3'")
            if kind == "buy_shares":
                percent = f.whole(raw, "percent", where, low=0, high=100, default=10)
                return BuyShares(*base, shares=shares, percent=percent, **common)
            percent = f.whole(raw, "percent", where, low=0, high=100, default=None)
            return SellShares(*base, shares=shares, percent=percent, **common)
        case "lay_tile":
            return LayTile(
                *base,
                hex=f.name(raw, "hex", where, shape=f.HEX_ID, what=f"a hex id such as '{example('hex')}'"),
                tile=f.name(raw, "tile", where, what="a tile id such as '57-0'"),
                rotation=f.whole(raw, "rotation", where, low=0, high=5),
                **common,
            )
        case "place_token":
            city = f.name(raw, "city", where, shape=f.CITY_ID, what="a city id '<tile id>-<city index>'")
            slot = f.whole(raw, "slot", where, low=0, high=9, default=None)
            return PlaceToken(*base, city=city, slot=slot, **common)
        case "run_routes":
            routes = f.items(raw, "routes", where)
            return RunRoutes(
                *base, routes=tuple(read_route(r, f"{where}.routes[{i}]", widest_route_bounds(), hexes_only=True)
                              for i, r in enumerate(routes)), **common
            )
        case "dividend":
            return Dividend(*base, kind=f.choice(raw, "kind", where, ("payout", "withhold")), **common)
        case "buy_train":
            return BuyTrain(
                *base,
                train=f.name(raw, "train", where, what="a train id such as '2-0'"),
                price=f.whole(raw, "price", where, **money),
                exchange=f.name(raw, "exchange", where, what="a train id", default=None),
                **common,
            )
        case "buy_company":
            return BuyCompany(
                *base,
                company=f.name(raw, "company", where, what="a private company's symbol"),
                price=f.whole(raw, "price", where, **money),
                **common,
            )
        case "discard_train":
            train = f.name(raw, "train", where, what="a train id such as '2-0'")
            return DiscardTrain(*base, train=train, **common)
        case "bankrupt":
            return Bankrupt(*base, **common)
        case "undo":
            action_id = f.whole(raw, "action_id", where, low=0, high=f.MAX_ID, default=None)
            return Undo(*base, action_id=action_id, **common)
        case "redo":
            return Redo(*base, **common)
        case "end_game":
            return EndGame(*base, **common)
        case "message":
            return Program(*base, kind=kind, **common)
        case _ if kind.startswith("program_"):
            # every auto-pass programme the site ever had, older or newer than ours: none
            # changes the game, only its auto-actions do (ACTIONS.md §2.5)
            return Program(*base, kind=kind, **common)
        case _:
            raise MalformedInput(f"{where}.type", f"unknown or unsupported action type {excerpt(kind)}")
