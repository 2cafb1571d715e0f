"""Station tokens: home tokens, placing a token, reservations (RULES.md §2.6, §6.4, §6.6).

A city slot reserved for a corporation's home stays closed to everyone else
until the home token is placed; reservations and tokens follow their city when
the tile under them is upgraded (§6.5 #8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from route18xx.engine.board import token_place
from route18xx.engine.board.board import Board, PlacedTile, city_for_exits
from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import HexId
from route18xx.engine.board.token_place import legal_token_placements

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game


@dataclass(frozen=True)
class TokenPlan:
    hex_id: HexId
    city: int
    cost: int


def hex_of_tile(game: Game, tile_id: str) -> HexId | None:
    """The hex a tile copy lies on: a laid tile, or a preprinted one still showing."""
    for hex_id, laid in game.state.tile_at.items():
        if laid == tile_id:
            return hex_id
    for hex_id, hex_def in game.data.hexes.items():
        if hex_def.preprinted_tile_id == tile_id and hex_id not in game.state.tile_at:
            return hex_id
    return None


def tokenable_cities(game: Game, corp: Corporation) -> list[tuple[HexId, int]]:
    """Reachable cities where ``corp`` could place its next token, cost aside (§6.3 step e)."""
    if corp.next_token_price is None:
        return []
    return [(t.hex, t.city) for t in legal_token_placements(game.board, corp.sym, token_price=0)]


def check_token(game: Game, corp: Corporation, tile_id: str, city: int) -> TokenPlan:
    """A station token in a reachable city with a free slot, paid from the treasury (§6.6).

    The rules are ``engine.token_place.check_token``; the log names the city by
    the physical tile it is on (``"57-1-0"``), which only the game can place.
    """
    hex_id = hex_of_tile(game, tile_id)
    if hex_id is None:
        raise IllegalAction("unknown_city", f"tile {tile_id} is not on the map")
    placement = token_place.check_token(
        game.board,
        corp.sym,
        hex_id,
        city,
        token_price=corp.next_token_price,
        cash=corp.cash,
        network=game.graph.reach(game.board, corp.sym),
    )
    return TokenPlan(placement.hex, placement.city, placement.price)


def place_token(game: Game, corp: Corporation, plan: TokenPlan) -> None:
    if plan.cost:
        game.pay_to_bank(corp, plan.cost)
    game.state.board = game.board.with_token(plan.hex_id, plan.city, corp.sym)
    corp.tokens_used += 1


def place_home_token(game: Game, corp: Corporation) -> HexId | None:
    """The free home token at the start of the first operating turn (§6.4).

    A home reserved on a whole hex of several cities (1830's ERIE on the OO hex E11)
    goes to city 0 while the hex has no track; once a tile with track lies there the
    corporation chooses the city itself (1830 RULES.md §6.4; 18xx.games
    ``place_home_token``: ``tile.reserved_by?`` with paths → a pending token). Returns
    that hex when the choice is pending: the token is then in hand (used, off the
    board) until the ``home token`` step places it.
    """
    if corp.tokens_used > 0:
        return None
    default = (corp.definition.home_hex, corp.definition.home_city_index or 0)
    home, city = game.state.reservations.pop(corp.sym, default)
    tile = game.board.tile_on(home).tile
    cities = [c.index for c in tile.cities]
    whole_hex = game.data.hexes[home].home_reservations.get(None) == corp.sym
    if whole_hex and tile.paths and len(cities) > 1:
        corp.tokens_used += 1
        return home
    if whole_hex:
        city = 0
    if city not in cities and cities:
        city = cities[0]
    game.state.board = game.board.with_token(home, city, corp.sym)
    corp.tokens_used += 1
    return None


def move_reservations(game: Game, hex_id: HexId, old: PlacedTile, new: PlacedTile) -> None:
    """Reserved home slots follow their city onto an upgraded tile (§6.5 #8)."""
    for corp, (h, city) in list(game.state.reservations.items()):
        if h == hex_id:
            game.state.reservations[corp] = (h, city_for_exits(old, city, new))


def lay_on_board(game: Game, hex_id: HexId, new: PlacedTile, tile_id: str) -> list[str]:
    """Put a tile on the map: tokens and reservations follow; the old tile returns to supply.

    Tokens on a hex without track (1830's OO hexes, E11 with ERIE's home) cannot
    follow exits: when the first tile with track there has several cities, they are
    lifted and their corporations choose the city again (1830 ACTIONS.md §3; 18xx.games
    ``Tracker#update_token!``). Returns those corporations, in token order.
    """
    old = game.board.tile_on(hex_id)
    move_reservations(game, hex_id, old, new)
    lifted: list[str] = []
    if not old.tile.paths and new.tile.paths and len(new.tile.cities) > 1:
        kept = dict(game.board.tokens)
        for key in [k for k in kept if k[0] == hex_id]:
            lifted.extend(kept.pop(key))
        game.state.board = game.board.with_tokens(kept)
    game.state.board = game.board.with_tile(hex_id, new.tile, new.rotation)
    game.state.tile_at[hex_id] = tile_id
    return lifted


def place_lifted_token(game: Game, corp: str, hex_id: HexId, city: int) -> None:
    """A lifted token goes back, free, on a city of its hex with a free slot."""
    cities = {c.index: c for c in game.board.tile_on(hex_id).tile.cities}
    if city not in cities:
        raise IllegalAction("wrong_hex", f"{corp}'s token must go back on {hex_id}")
    if len(game.board.tokens_in(hex_id, city)) >= cities[city].slots:
        raise IllegalAction("city_full", f"city {city} of {hex_id} has no free slot")
    game.state.board = game.board.with_token(hex_id, city, corp)
