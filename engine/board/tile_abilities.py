"""Private companies' tile-laying abilities, read from ``companies.json`` (RULES.md §7).

* Terracotta Army (TA): L39 on H2, free, no connection needed (§7.2).
* Heng Shan (HS): L41 on C5 while C5 is empty, free, no connection (§7.3).
* Great Wall (CW): one or two yellow tiles on empty Great Wall hexes, free, no
  connection needed; a second tile must join the first (§7.4).
* Yanda Railway Ferry (YRF): L40a on E17 and L40b on F16 at rotation 0, laid
  together, no connection needed (§7.5).

The ability's fields (hexes, tiles, ``free``, ``special`` = skips the
colour/label/count test, ``connect``, ``must_lay_all``, ``reachable``) come from
the data; this module only interprets them.

Only a lay the owning corporation makes in its operating turn is a move of that turn
(18xx.games ``when``: ``owning_corp_or_turn``, ``track``). 1889's two other lays are not:
the Ehime Railway's green tile on C4 is laid by the player who sells it to a corporation,
at the sale (``sold``), and the Mitsubishi Ferry's port by its owning player
(``owner_type: player``; ``stock_round``, ``owning_player_track``, ``or_between_turns``):
a state file states their tiles once laid; a game in play judges them with
``tile_ability(outside_turn=True)`` (``engine.game.owner_track``). A time the engine does not
know is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection, Mapping

from route18xx.engine.board.board import Board, PlacedTile
from route18xx.engine.errors import MalformedInput, TitleDataError
from route18xx.engine.facts.gamedata import CompanyId, GameData, HexId, TileDef, TileName
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.board.tile_rules import Refusal, kept_rotations, special_hex_refusal


@dataclass(frozen=True)
class TileAbility:
    """One private's ``tile_lay`` ability (RULES.md §7)."""

    company: CompanyId
    company_name: str
    hexes: tuple[HexId, ...]
    tiles: tuple[TileName, ...]
    free: bool
    special: bool
    connect: bool
    must_lay_all: bool
    needs_connection: bool
    count: int | None

    def partners_laid(self, board: Board, hex_id: HexId) -> Board:
        """The board with the ability's other tiles in place when all must be laid together.

        The ferry tiles point at each other (E17 edge 0 faces F16 edge 3), so each
        one's exits are judged with its partner laid in the same action (§7.5).
        """
        if not self.must_lay_all:
            return board
        for name in self.tiles:
            home = board.data.tiles[name].only_on
            if home is None or home == hex_id or home in board.placed:
                continue
            tile = board.data.tiles[name]
            rotations = kept_rotations(PlacedTile(board.hex(home).preprinted, 0), tile)
            if rotations:
                board = board.with_tile(home, tile, rotations[0])
        return board

    def joins_first(
        self, board: Board, first_hex: HexId, hex_id: HexId, tile: TileDef, rotation: int
    ) -> Refusal | None:
        """The second tile of a two-tile ability must share track with the first (§7.4)."""
        first_exits = board.exits(first_hex)
        for edge in tile.exits(rotation):
            across = board.across(hex_id, edge)
            if across is not None and across[0] == first_hex and across[1] in first_exits:
                return None
        return Refusal(
            "not_connected_to_first",
            f"the second {self.company} tile on {hex_id} must connect to the tile laid on "
            f"{first_hex} this turn; tile {tile.name} at rotation {rotation} does not",
        )


#: 18xx.games ability times (``when``) of a lay the owning corporation makes in its turn.
TURN_TIMES = frozenset({"owning_corp_or_turn", "track"})
#: Times of lays made outside the corporation's turn, or by a player (module docstring).
OTHER_TIMES = frozenset({"sold", "stock_round", "owning_player_track", "or_between_turns"})


def is_turn_lay(raw: Mapping[str, Any], company: CompanyId) -> bool:
    """Whether a private's ``tile_lay``/``teleport`` ability is a lay of the owning
    corporation's operating turn (module docstring); ``TitleDataError`` naming the
    company for a time the engine does not know."""
    times = set(raw.get("when") or ())
    unknown = times - TURN_TIMES - OTHER_TIMES
    if unknown:
        raise TitleDataError(f"{company}'s tile lay at {sorted(unknown)}: a time the engine "
                             f"does not know (known: {sorted(TURN_TIMES | OTHER_TIMES)})")
    return raw.get("owner_type") in (None, "corporation") and bool(times & TURN_TIMES)


def tile_ability(
    rule_set: RuleSet, company: CompanyId, data: GameData, *, outside_turn: bool = False
) -> TileAbility | None:
    """The tile-laying ability a private gives its owning corporation's turn in this rule
    set (``is_turn_lay``); None if it has none. With ``outside_turn``, its lay made at
    another time instead (module docstring: 1889's Ehime Railway at its sale, the
    Mitsubishi Ferry by its owning player), which only a game in play offers.

    Raises ``MalformedInput`` for an unknown private.
    """
    companies = {c.sym: c for c in data.companies[rule_set.name]}
    if company not in companies:
        raise MalformedInput(
            "special", f"unknown private company {company!r}; expected one of {sorted(companies)}"
        )
    company_def = companies[company]
    for raw in company_def.abilities:
        if raw.get("type") not in ("tile_lay", "teleport") or is_turn_lay(raw, company) == outside_turn:
            continue  # a teleport (1830's DH, 1830 RULES.md §7.3): no connection, terrain paid
        return TileAbility(
            company=company,
            company_name=company_def.name,
            hexes=tuple(raw.get("hexes", ())),
            tiles=tuple(raw.get("tiles", ())),
            free=bool(raw.get("free", False)),
            special=bool(raw.get("special", False)),
            connect=bool(raw.get("connect", False)),
            must_lay_all=bool(raw.get("must_lay_all", False)),
            needs_connection=bool(raw.get("reachable", False)),
            count=raw.get("count"),
        )
    return None


def ability_refusal(
    ability: TileAbility | None,
    company: CompanyId,
    owned_privates: Collection[CompanyId],
    board: Board,
    hex_id: HexId,
    tile: TileDef,
) -> Refusal | None:
    """May ``company``'s ability put ``tile`` on ``hex_id`` at all? (RULES.md §7)"""
    if ability is None:
        return Refusal("no_tile_ability", f"private {company} has no tile-laying ability")
    if company not in owned_privates:
        return Refusal(
            "private_not_owned",
            f"the company does not own {ability.company_name} ({company}); only its owning "
            f"corporation may use its tile lay",
        )
    if hex_id not in ability.hexes:
        return Refusal(
            "ability_hex",
            f"{company}'s ability lays tiles on {', '.join(ability.hexes)} only, not on {hex_id}",
        )
    if tile.name not in ability.tiles:
        return Refusal(
            "ability_tile",
            f"{company}'s ability lays tiles {', '.join(ability.tiles)} only, not {tile.name}",
        )
    if hex_id in board.placed:
        return Refusal(
            "hex_not_empty",
            f"{company}'s ability needs {hex_id} to show its printed tile, but tile "
            f"{board.placed[hex_id].tile.name} is there",
        )
    return special_hex_refusal(board.hex(hex_id), tile)
