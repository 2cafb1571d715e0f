"""Tile-lay legality for a company's track step (RULES.md §6.5 #1–#10, §7).

``check_tile_lay`` answers one question — may ``corp`` put this tile, at this
rotation, on this hex now? — and either returns the ``TileLay`` with the terrain
cost to pay or raises ``IllegalAction`` whose ``code`` names the broken rule:

============================  ============================================================
code                          rule
============================  ============================================================
``hex_blocked``               §6.5 #5: Heng Shan blocks C5 while a player owns it
``special_tile``              §7: L39/L40a/L40b/L41 only through their private's ability
``hex_takes_no_tiles``        red/gray/blue hexes take no track tiles
``special_tile_wrong_hex``    §7: L39 only on H2, L40a on E17, L40b on F16, L41 on C5
``color_not_available``       §6.5 #1: colour not yet available in the phase
``wrong_color``               §6.5 #2: not the next colour (white→yellow→green→brown→gray)
``label_mismatch``            §6.5 #2: B only on C9, OO only on B18/B20/H4
``towns_changed``             §6.5 #2: the number of towns must stay the same
``cities_changed``            §6.5 #2: the number of cities must stay (unlabelled tiles)
``no_tile_left``              no copy of the tile left in the supply
``track_dropped``             §6.5 #2: an existing path is not on the new tile
``city_connections_changed``  §6.5 #2: an old city's connections are not kept
``exit_off_map``              §6.5 #4: an exit leads off the map
``exit_impassable``           §6.5 #4: an exit crosses an impassable border
``exit_into_wall``            §6.5 #4: an exit runs into a red/gray/blue hex without track
``not_connected``             §6.5 #3: no token on the hex and no reached side
``no_exit_on_network``        §6.5 #3: no exit of the new tile on a reached side
``insufficient_cash``         §6.5 #6: the terrain cost is more than the company's cash
``no_tile_ability``           the named private has no tile-laying ability
``private_not_owned``         §7: the company does not own that private
``ability_hex``               §7: the ability does not cover this hex
``ability_tile``              §7: the ability does not allow this tile
``hex_not_empty``             §7: ability tiles go on hexes that still show the printed tile
``wrong_rotation``            §7.2/§7.5: a private tile laid in a rotation it may not take
``not_connected_to_first``    §7.4: the second Great Wall tile must join the first
============================  ============================================================

The static checks (class, kept track, exits) live in ``engine.tile_rules`` and
are shared with state-file reading; private abilities are in
``engine.tile_abilities``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Collection, Iterable, Mapping

from route18xx.engine.board.board import Board, PlacedTile
from route18xx.engine.board.lay_cost import lay_cost, terrain_discounts
from route18xx.engine.errors import IllegalAction, MalformedInput
from route18xx.engine.facts.gamedata import (
    COLOR_ORDER, CompanyId, CorpId, HexDef, HexId, PhaseDef, TileDef, TileName,
)
from route18xx.engine.board.network import Network, reach
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.titles import title_of_data
from route18xx.engine.board.tile_abilities import TileAbility, ability_refusal, tile_ability
from route18xx.engine.board.tile_rules import (
    Refusal,
    class_refusal,
    distinct_rotations,
    exits_refusal,
    paths_refusal,
    special_hex_refusal,
)


@dataclass(frozen=True)
class TileLay:
    """A legal tile lay: where, what, and the terrain cost to pay the bank (§6.5 #6).

    ``replaces`` is the name of the tile that goes back to the supply, or None
    when the lay covers the preprinted hex. ``ability`` is the private whose
    ability is used, None for the normal track action.
    """

    hex: HexId
    tile: TileName
    rotation: int
    cost: int
    replaces: TileName | None = None
    ability: CompanyId | None = None


def tiles_left(board: Board, rule_set: RuleSet) -> dict[TileName, int]:
    """Copies of each tile in the supply: the rule set's count minus the tiles on the board."""
    left = {name: rule_set.tile_count(tile) for name, tile in board.data.tiles.items()}
    for placed in board.placed.values():
        left[placed.tile.name] = left.get(placed.tile.name, 0) - 1
    return left


def reached_sides(board: Board, network: Network, hex_id: HexId) -> frozenset[int]:
    """Sides of ``hex_id`` the network reaches, from this hex or from the neighbour (§6.5 #3)."""
    out = set()
    for edge in range(6):
        across = board.across(hex_id, edge)
        if (hex_id, edge) in network.edges or (across is not None and across in network.edges):
            out.add(edge)
    return frozenset(out)


@dataclass
class LayContext:
    """Everything about the company and the moment that tile-lay legality depends on."""

    board: Board
    corp: CorpId
    phase: PhaseDef
    rule_set: RuleSet
    supply: Mapping[TileName, int]
    owned_privates: frozenset[CompanyId] = frozenset()
    player_owned_blockers: frozenset[CompanyId] = frozenset()
    cash: int | None = None
    first_special_lay: HexId | None = None
    #: the private's lay outside its corporation's turn (``tile_ability(outside_turn=)``).
    outside_turn: bool = False
    _sides: dict[HexId, frozenset[int]] = field(default_factory=dict)

    @cached_property
    def network(self) -> Network:
        return reach(self.board, self.corp)

    @cached_property
    def token_hexes(self) -> frozenset[HexId]:
        return frozenset(h for h, _ in self.board.token_cities(self.corp))

    def sides(self, hex_id: HexId) -> frozenset[int]:
        """Reached sides of a hex; all six in a hex holding one of the company's tokens."""
        if hex_id in self.token_hexes:
            return frozenset(range(6))
        if hex_id not in self._sides:
            self._sides[hex_id] = reached_sides(self.board, self.network, hex_id)
        return self._sides[hex_id]

    def candidate_hexes(self) -> list[HexId]:
        """Hexes where a normal lay can connect: token hexes and hexes with a reached side."""
        return [h for h in self.board.data.hexes if self.sides(h)]


def make_context(
    board: Board,
    corp: CorpId,
    *,
    phase: PhaseDef | str,
    rule_set: RuleSet | str,
    tiles_in_supply: Mapping[TileName, int] | None = None,
    owned_privates: Iterable[CompanyId] = (),
    player_owned_blockers: Collection[CompanyId] = (),
    cash: int | None = None,
    first_special_lay: HexId | None = None,
    outside_turn: bool = False,
) -> LayContext:
    """Resolve names and defaults once; ``MalformedInput`` for an unknown phase/rule set/company."""
    data = board.data
    if corp not in data.corporations:
        raise MalformedInput("corporation", f"unknown company {corp!r}")
    if isinstance(phase, str):
        found = data.phase(phase)
        if found is None:
            raise MalformedInput("phase", f"unknown phase {phase!r}")
        phase = found
    if isinstance(rule_set, str):
        found_set = title_of_data(data).rule_set(rule_set)
        if found_set is None:
            raise MalformedInput("rule_set", f"unknown rule set {rule_set!r}")
        rule_set = found_set
    supply = tiles_left(board, rule_set) if tiles_in_supply is None else dict(tiles_in_supply)
    return LayContext(
        board=board,
        corp=corp,
        phase=phase,
        rule_set=rule_set,
        supply=supply,
        owned_privates=frozenset(owned_privates),
        # The privates whose hexes stay closed while players own them (RULES.md §7.3).
        player_owned_blockers=frozenset(player_owned_blockers),
        cash=cash,
        first_special_lay=first_special_lay,
        outside_turn=outside_turn,
    )


def _raise(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise IllegalAction(refusal.code, refusal.message)


def _resolve(ctx: LayContext, hex_id: HexId, tile_name: TileName, rotation: int) -> TileDef:
    if hex_id not in ctx.board.data.hexes:
        raise MalformedInput("hex", f"unknown hex {hex_id!r}")
    tile = ctx.board.data.tiles.get(tile_name)
    if tile is None:
        raise MalformedInput("tile", f"unknown tile {tile_name!r}")
    if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise MalformedInput("rotation", f"{rotation!r} is outside 0-5")
    return tile


def check_tile_lay(
    board: Board,
    corp: CorpId,
    hex_id: HexId,
    tile_name: TileName,
    rotation: int,
    *,
    phase: PhaseDef | str,
    rule_set: RuleSet | str,
    tiles_in_supply: Mapping[TileName, int] | None = None,
    owned_privates: Collection[CompanyId] = (),
    special: CompanyId | None = None,
    player_owned_blockers: Collection[CompanyId] = (),
    cash: int | None = None,
    first_special_lay: HexId | None = None,
    outside_turn: bool = False,
) -> TileLay:
    """Is this tile lay legal for ``corp``? Return it with its cost or raise ``IllegalAction``.

    ``special`` names the private whose ability is used (``TA``, ``HS``, ``CW``,
    ``YRF``); None is the normal track action. ``tiles_in_supply`` defaults to
    the rule set's counts minus the tiles on the board. ``cash``, when given, must
    cover the terrain cost. ``first_special_lay`` is the hex of the first Great
    Wall tile laid this turn, which the second must join (§7.4). ``outside_turn``: the
    private's lay made outside its corporation's turn (``tile_ability``).
    Unknown ids raise ``MalformedInput``.
    """
    ctx = make_context(
        board,
        corp,
        phase=phase,
        rule_set=rule_set,
        tiles_in_supply=tiles_in_supply,
        owned_privates=owned_privates,
        player_owned_blockers=player_owned_blockers,
        cash=cash,
        first_special_lay=first_special_lay,
        outside_turn=outside_turn,
    )
    return check_in_context(ctx, hex_id, tile_name, rotation, special=special)


def upgrade_refusal(ctx: LayContext, hex_def: HexDef, current: TileDef, tile: TileDef) -> Refusal | None:
    """``class_refusal`` of ``tile`` replacing ``current`` on ``hex_def`` (RULES.md §6.5 #2),
    with the hex's own label facts (1856: the label its tiles take from a colour on,
    ``TileDef.future_label``; the tiles it takes whatever their label, Hamilton's 123) and,
    in the phases that allow it, a town upgraded to a city or to plain track
    (``GameData.town_upgrades``: 1856's 3 → 5 or 7 from phase 6 on)."""
    data = ctx.board.data
    if data.town_upgrades and tile.name in data.town_upgrades.get(current.name, ()):
        if data.town_upgrade_status in ctx.phase.status:
            return None
    printed = hex_def.preprinted
    if current is not printed and (printed.future_label or printed.label_exempt):
        current = replace(current, future_label=printed.future_label, label_exempt=printed.label_exempt)
    return class_refusal(current, tile, next_only=True)


def check_in_context(
    ctx: LayContext,
    hex_id: HexId,
    tile_name: TileName,
    rotation: int,
    *,
    special: CompanyId | None = None,
) -> TileLay:
    """``check_tile_lay`` on a prepared context (used to enumerate many lays cheaply)."""
    tile = _resolve(ctx, hex_id, tile_name, rotation)
    board = ctx.board
    hex_def = board.hex(hex_id)
    current = board.tile_on(hex_id)
    blockers = sorted(set(hex_def.blockers(ctx.rule_set.name)) & ctx.player_owned_blockers)
    if blockers:
        raise IllegalAction(
            "hex_blocked",
            f"no tile may be laid on {hex_id} while {', '.join(blockers)} is owned by a player",
        )
    ability: TileAbility | None = None
    if special is None:
        if tile.special_only:
            raise IllegalAction(
                "special_tile",
                f"tile {tile.name} is a private company's tile: it can only be laid on "
                f"{_special_home(tile)} through that private's ability, not as a normal lay",
            )
        _raise(special_hex_refusal(hex_def, tile))
    else:
        ability = tile_ability(ctx.rule_set, special, board.data, outside_turn=ctx.outside_turn)
        _raise(ability_refusal(ability, special, ctx.owned_privates, board, hex_id, tile))
    if tile.color in COLOR_ORDER and tile.color not in ctx.phase.tile_colors:
        raise IllegalAction(
            "color_not_available",
            f"{tile.color} tiles are not available in phase {ctx.phase.name} "
            f"(only {', '.join(ctx.phase.tile_colors)})",
        )
    if ability is None or not ability.special:
        _raise(upgrade_refusal(ctx, hex_def, current.tile, tile))
    if ctx.supply.get(tile.name, 0) <= 0:
        raise IllegalAction("no_tile_left", f"no copy of tile {tile.name} is left in the supply")
    new = PlacedTile(tile, rotation)
    refusal = paths_refusal(current, new)
    if refusal is not None and ability is not None and ability.special:
        raise IllegalAction(
            "wrong_rotation",
            f"tile {tile.name} must keep {hex_id}'s printed track: rotation {rotation} does "
            f"not ({refusal.message})",
        )
    _raise(refusal)
    exit_board = board if ability is None else ability.partners_laid(board, hex_id)
    _raise(exits_refusal(exit_board, hex_id, tile, rotation))
    if ability is None or ability.needs_connection:
        _check_connected(ctx, hex_id, tile, rotation)
    if ability is not None and ability.connect and ctx.first_special_lay is not None:
        _raise(ability.joins_first(board, ctx.first_special_lay, hex_id, tile, rotation))
    pays = ability is None or not ability.free
    discounts = terrain_discounts(board.data, ctx.rule_set.name, ctx.owned_privates)
    cost = lay_cost(current.tile, hex_id, discounts) if pays else 0
    if ctx.cash is not None and cost > ctx.cash:
        raise IllegalAction(
            "insufficient_cash",
            f"the terrain on {hex_id} costs {cost} but {ctx.corp} has only {ctx.cash}",
        )
    replaces = board.placed[hex_id].tile.name if hex_id in board.placed else None
    return TileLay(hex_id, tile.name, rotation, cost, replaces, special)


def _special_home(tile: TileDef) -> str:
    return tile.only_on or " or ".join(tile.ability_hexes) or "its own hex"


def _check_connected(ctx: LayContext, hex_id: HexId, tile: TileDef, rotation: int) -> None:
    """RULES.md §6.5 #3: a token on the hex or a reached side, and an exit on a reached side."""
    sides = ctx.sides(hex_id)
    if not sides:
        raise IllegalAction(
            "not_connected",
            f"{hex_id} is not connected to {ctx.corp}'s network: no {ctx.corp} token there "
            f"and no side of it is reached by {ctx.corp}'s track",
        )
    exits = tile.exits(rotation)
    if not exits & sides:
        raise IllegalAction(
            "no_exit_on_network",
            f"tile {tile.name} at rotation {rotation} has exits {sorted(exits)} but "
            f"{ctx.corp}'s network reaches {hex_id} only on side(s) {sorted(sides)}",
        )


def legal_tile_lays(
    board: Board,
    corp: CorpId,
    *,
    phase: PhaseDef | str,
    rule_set: RuleSet | str,
    tiles_in_supply: Mapping[TileName, int] | None = None,
    owned_privates: Collection[CompanyId] = (),
    special: CompanyId | None = None,
    player_owned_blockers: Collection[CompanyId] = (),
    cash: int | None = None,
    first_special_lay: HexId | None = None,
) -> list[TileLay]:
    """Every legal lay for ``corp`` (same arguments as ``check_tile_lay``).

    With ``special`` None: the normal track action on every hex the company can
    connect to. With a private named: that ability's lays. Rotations that draw
    identical track are listed once (the lowest rotation).
    """
    ctx = make_context(
        board,
        corp,
        phase=phase,
        rule_set=rule_set,
        tiles_in_supply=tiles_in_supply,
        owned_privates=owned_privates,
        player_owned_blockers=player_owned_blockers,
        cash=cash,
        first_special_lay=first_special_lay,
    )
    data = board.data
    if special is None:
        hexes = ctx.candidate_hexes()
        tiles = [t for t in data.tiles.values() if not t.special_only]
    else:
        ability = tile_ability(ctx.rule_set, special, data)
        if ability is None or special not in ctx.owned_privates:
            return []
        hexes = [h for h in ability.hexes if h in data.hexes]
        tiles = [data.tiles[name] for name in ability.tiles if name in data.tiles]
    out: list[TileLay] = []
    for hex_id in hexes:
        current = board.tile_on(hex_id).tile
        hex_def = data.hexes[hex_id]
        for tile in tiles:
            if special is None and upgrade_refusal(ctx, hex_def, current, tile) is not None:
                continue  # cheap pre-filter; the full check below decides
            for rotation in distinct_rotations(tile):
                try:
                    out.append(check_in_context(ctx, hex_id, tile.name, rotation, special=special))
                except IllegalAction:
                    continue
    return out
