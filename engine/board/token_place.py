"""Station-token placement legality for a company's token step (RULES.md §6.6, §2.6).

``check_token`` returns the ``TokenPlacement`` (with its price) or raises
``IllegalAction`` whose ``code`` names the broken rule:

======================  ============================================================
code                    rule
======================  ============================================================
``no_token_left``       every one of the company's tokens is already on the board
``already_on_hex``      the company has a token on that hex (any city of it)
``not_reachable``       the city is not reached by the company's network (§6.5 #3)
``city_full``           every slot of the city holds a token
``slot_reserved``       the only free slot is reserved for another company's home (§2.6)
``hex_reserved``        another company's home is reserved on the whole hex and not yet
                        placed (1830's ERIE on E11: tile reservations block always)
``insufficient_cash``   the next token costs more than the company's cash
======================  ============================================================

Unknown ids and a city index the tile does not have raise ``MalformedInput``.
The automatic home token (§6.4) is not a token-step placement and is not
checked here.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.engine.board.board import Board, PlacedTile, city_for_exits
from route18xx.engine.errors import IllegalAction, MalformedInput
from route18xx.engine.facts.gamedata import CorpId, HexId
from route18xx.engine.board.network import Network, reach


@dataclass(frozen=True)
class TokenPlacement:
    """A legal token placement: the city (index on the tile now on the hex) and its price."""

    hex: HexId
    city: int
    price: int


def tokens_on_board(board: Board, corp: CorpId) -> int:
    return sum(corps.count(corp) for corps in board.tokens.values())


def next_token_price(board: Board, corp: CorpId) -> int | None:
    """Price of the company's next unused token (§6.6: 40, 60, 80); None when none is left."""
    prices = board.data.corporations[corp].token_prices
    used = tokens_on_board(board, corp)
    return prices[used] if used < len(prices) else None


def reserved_for_others(board: Board, hex_id: HexId, city: int, corp: CorpId) -> tuple[CorpId, ...]:
    """Companies other than ``corp`` holding an unused home reservation in this city (§2.6).

    Reservations are printed on the preprinted city; after an upgrade they follow
    the city that keeps the old city's exits, like tokens do (§6.5 #8). A
    reservation ends once its company's home token is in the city.
    """
    hex_def = board.hex(hex_id)
    preprinted = PlacedTile(hex_def.preprinted, 0)
    current = board.tile_on(hex_id)
    held = board.tokens_in(hex_id, city)
    out = []
    for reserved_city, owner in sorted(hex_def.home_reservations.items(), key=lambda r: r[0] or 0):
        if reserved_city is None:
            continue  # a whole-hex reservation: ``reserved_hex_for_others``
        printed_city = reserved_city
        if owner == corp or owner in held:
            continue
        if hex_id in board.placed:
            here = city_for_exits(preprinted, printed_city, current)
        else:
            here = printed_city
        if here == city:
            out.append(owner)
    return tuple(out)


def reserved_hex_for_others(board: Board, hex_id: HexId, corp: CorpId) -> tuple[CorpId, ...]:
    """Companies other than ``corp`` whose home is reserved on the whole hex and not yet
    placed there: no other company may token any city of it meanwhile (1830 RULES.md
    §2.5: ERIE on the OO hex E11, ``TILE_RESERVATION_BLOCKS_OTHERS = :always``;
    18xx.games ``Tile#token_blocked_by_reservation?``). The reservation ends once its
    company's token is on the hex."""
    owner = board.hex(hex_id).home_reservations.get(None)
    if owner is None or owner == corp:
        return ()
    if any(owner in corps for (h, _), corps in board.tokens.items() if h == hex_id):
        return ()
    return (owner,)


def check_token(
    board: Board,
    corp: CorpId,
    hex_id: HexId,
    city: int,
    *,
    token_price: int | None = None,
    cash: int | None = None,
    network: Network | None = None,
) -> TokenPlacement:
    """May ``corp`` place its next token in ``hex_id``'s city ``city``? (RULES.md §6.6)

    ``token_price`` defaults to the price of the company's next unused token;
    ``cash``, when given, must cover it. ``network`` may pass a precomputed
    ``reach(board, corp)``.
    """
    data = board.data
    if corp not in data.corporations:
        raise MalformedInput("corporation", f"unknown company {corp!r}")
    if hex_id not in data.hexes:
        raise MalformedInput("hex", f"unknown hex {hex_id!r}")
    tile = board.tile_on(hex_id).tile
    node = tile.node(city)
    if node is None or node.kind != "city":
        cities = [c.index for c in tile.cities]
        raise MalformedInput(
            "city", f"tile {tile.name} on {hex_id} has no city {city} (its cities: {cities})"
        )
    price = next_token_price(board, corp) if token_price is None else token_price
    if price is None:
        raise IllegalAction("no_token_left", f"{corp} has no token left to place")
    if any(corp in corps for (h, _), corps in board.tokens.items() if h == hex_id):
        raise IllegalAction("already_on_hex", f"{corp} already has a token on {hex_id}")
    whole_hex = reserved_hex_for_others(board, hex_id, corp)
    if whole_hex:
        raise IllegalAction(
            "hex_reserved",
            f"{hex_id} is reserved for {', '.join(whole_hex)}'s home token, not yet placed: "
            f"no other company may token any city of it",
        )
    network = network if network is not None else reach(board, corp)
    if (hex_id, city) not in network.nodes:
        raise IllegalAction(
            "not_reachable", f"city {hex_id}-{city} is not reached by {corp}'s network"
        )
    held = board.tokens_in(hex_id, city)
    if len(held) >= node.slots:
        raise IllegalAction(
            "city_full",
            f"city {hex_id}-{city} is full: {node.slots} slot(s), held by {', '.join(held)}",
        )
    reserved = reserved_for_others(board, hex_id, city, corp)
    if len(held) + len(reserved) >= node.slots:
        raise IllegalAction(
            "slot_reserved",
            f"the free slot of city {hex_id}-{city} is reserved for {', '.join(reserved)}'s "
            f"home token",
        )
    if cash is not None and price > cash:
        raise IllegalAction(
            "insufficient_cash", f"{corp}'s next token costs {price} but it has only {cash}"
        )
    return TokenPlacement(hex_id, city, price)


def legal_token_placements(
    board: Board,
    corp: CorpId,
    *,
    token_price: int | None = None,
    cash: int | None = None,
) -> list[TokenPlacement]:
    """Every city where ``corp`` may place its next token now (RULES.md §6.6)."""
    network = reach(board, corp)
    out = []
    for hex_id, index in sorted(network.nodes):
        node = board.revenue_center(hex_id, index)
        if node is None or node.kind != "city":
            continue
        try:
            out.append(
                check_token(
                    board, corp, hex_id, index, token_price=token_price, cash=cash, network=network
                )
            )
        except IllegalAction:
            continue
    return out
