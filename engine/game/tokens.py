"""Station tokens: home tokens, placing a token, reservations (RULES.md §2.6, §6.4, §6.6).

A city slot reserved for a corporation's home stays closed to everyone else
until the home token is placed; reservations and tokens follow their city when
the tile under them is upgraded (§6.5 #8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board import Board, PlacedTile, city_for_exits
from engine.errors import IllegalAction
from engine.gamedata import HexId

if TYPE_CHECKING:
    from engine.game.corporations import Corporation
    from engine.game.game import Game


@dataclass(frozen=True)
class TokenPlan:
    hex_id: HexId
    city: int
    cost: int


def hex_of_tile(game: Game, tile_id: str) -> HexId | None:
    """The hex a tile copy lies on: a laid tile, or a preprinted one still showing."""
    for hex_id, laid in game.s.tile_at.items():
        if laid == tile_id:
            return hex_id
    for hex_id, hex_def in game.data.hexes.items():
        if hex_def.preprinted_tile_id == tile_id and hex_id not in game.s.tile_at:
            return hex_id
    return None


def free_slots(game: Game, hex_id: HexId, city: int, corp: str) -> int:
    """Slots ``corp`` could take: empty ones not reserved for another corporation."""
    node = game.board.revenue_center(hex_id, city)
    if node is None or node.kind != "city":
        return 0
    held = len(game.board.tokens_in(hex_id, city))
    reserved = 1 if game.s.reservations.get((hex_id, city)) not in (None, corp) else 0
    return node.slots - held - reserved


def tokenable_cities(game: Game, corp: Corporation) -> list[tuple[HexId, int]]:
    """Reachable cities where ``corp`` could place a token, cost aside (§6.3 step e)."""
    board = game.board
    network = game.graph.reach(board, corp.sym)
    own_hexes = {h for h, _ in board.token_cities(corp.sym)}
    out = []
    for hex_id, index in sorted(network.nodes):
        node = board.revenue_center(hex_id, index)
        if node is None or node.kind != "city" or hex_id in own_hexes:
            continue
        if free_slots(game, hex_id, index, corp.sym) > 0:
            out.append((hex_id, index))
    return out


def check_token(game: Game, corp: Corporation, tile_id: str, city: int) -> TokenPlan:
    """A station token in a reachable city with a free slot, paid from the treasury (§6.6)."""
    price = corp.next_token_price
    if price is None:
        raise IllegalAction("no_token_left", f"{corp.sym} has no station token left")
    hex_id = hex_of_tile(game, tile_id)
    if hex_id is None:
        raise IllegalAction("unknown_city", f"tile {tile_id} is not on the map")
    node = game.board.revenue_center(hex_id, city)
    if node is None or node.kind != "city":
        raise IllegalAction("unknown_city", f"{tile_id} on {hex_id} has no city {city}")
    if any(h == hex_id for h, _ in game.board.token_cities(corp.sym)):
        raise IllegalAction("hex_tokened", f"{corp.sym} already has a station on {hex_id}")
    if free_slots(game, hex_id, city, corp.sym) <= 0:
        raise IllegalAction("city_full", f"the city {hex_id}-{city} has no free slot for {corp.sym}")
    if (hex_id, city) not in game.graph.reach(game.board, corp.sym).nodes:
        raise IllegalAction("not_connected", f"{corp.sym} cannot reach the city {hex_id}-{city}")
    if price > corp.cash:
        raise IllegalAction("not_enough_cash", f"{corp.sym} has {corp.cash}, the token costs {price}")
    return TokenPlan(hex_id, city, price)


def place_token(game: Game, corp: Corporation, plan: TokenPlan) -> None:
    if plan.cost:
        game.pay_to_bank(corp, plan.cost)
    game.s.board = game.board.with_token(plan.hex_id, plan.city, corp.sym)
    corp.tokens_used += 1


def place_home_token(game: Game, corp: Corporation) -> None:
    """The free home token at the start of the first operating turn (§6.4)."""
    if corp.tokens_used > 0:
        return
    home = corp.definition.home_hex
    city = next((c for (h, c), owner in game.s.reservations.items() if h == home and owner == corp.sym), None)
    if city is None:
        city = corp.definition.home_city_index or 0
    game.s.reservations.pop((home, city), None)
    game.s.board = game.board.with_token(home, city, corp.sym)
    corp.tokens_used += 1


def move_reservations(game: Game, hex_id: HexId, old: PlacedTile, new: PlacedTile) -> None:
    """Reserved home slots follow their city onto an upgraded tile (§6.5 #8)."""
    moved = {k: v for k, v in game.s.reservations.items() if k[0] == hex_id}
    for key in moved:
        del game.s.reservations[key]
    for (h, city), corp in moved.items():
        game.s.reservations[(h, city_for_exits(old, city, new))] = corp


def lay_on_board(game: Game, hex_id: HexId, new: PlacedTile, tile_id: str) -> Board:
    """Put a tile on the map: tokens and reservations follow; the old tile returns to supply."""
    old = game.board.tile_on(hex_id)
    move_reservations(game, hex_id, old, new)
    game.s.board = game.board.with_tile(hex_id, new.tile, new.rotation)
    game.s.tile_at[hex_id] = tile_id
    return game.s.board
