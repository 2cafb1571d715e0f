"""Tile lays during a game: which physical tile copy, and whether the lay is legal (RULES.md §6.5, §7).

``check_lay`` is the single entry point of the game's track steps. The rules of
a lay — colour, phase, upgrade, kept track, exits, connection, Heng Shan's
block, private abilities, terrain cost — are ``engine.tile_lay.check_tile_lay``
(the engine's one tile-lay validator); this module adds what only a game knows:
the log names a physical copy (``"8-3"``), which must exist in the rule set's
supply and not lie on the map already (RULES.md §12 #12).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from route18xx.engine.board.board import Board
from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import CompanyId, CorpId, HexId, PhaseDef, TileDef
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.board.tile_lay import check_tile_lay


@dataclass(frozen=True)
class LayRequest:
    """Everything a tile lay is judged on; the game fills it in."""

    board: Board
    phase: PhaseDef
    rule_set: RuleSet
    corp: CorpId
    hex_id: HexId
    tile_id: str
    rotation: int
    cash: int
    #: tile id → hex for every copy on the map (preprinted tiles excluded).
    tiles_in_use: Mapping[str, HexId]
    #: privates the corporation owns (open), for special lays.
    owned_privates: Collection[CompanyId] = ()
    #: the privates players own that close hexes (§7.3; any title, 1830 RULES.md §7).
    player_owned_blockers: Collection[CompanyId] = ()
    #: the private whose ability lays the tile; None for the normal track action.
    special: CompanyId | None = None
    #: the hex of the first tile of a two-tile Great Wall lay this turn (§7.4).
    first_special_lay: HexId | None = None
    #: ``special`` lays outside its corporation's turn (1889's ER at its sale, MF by its
    #: player; ``engine.board.tile_abilities.tile_ability``).
    outside_turn: bool = False


@dataclass(frozen=True)
class LayPlan:
    """A checked lay: the tile, where, how turned, and the terrain cost to pay."""

    hex_id: HexId
    tile: TileDef
    tile_id: str
    rotation: int
    cost: int


def parse_tile_id(tile_id: str) -> tuple[str, int]:
    """``"8858-0"`` → ("8858", 0); raises IllegalAction on a malformed id."""
    name, sep, copy = tile_id.rpartition("-")
    if not sep or not copy.isdigit() or not name:
        raise IllegalAction("unknown_tile", f"{tile_id!r} is not a tile id like '8-0'")
    return name, int(copy)


def check_lay(req: LayRequest) -> LayPlan:
    """Judge one tile lay (RULES.md §6.5; special lays §7.2-§7.5)."""
    data = req.board.data
    name, copy = parse_tile_id(req.tile_id)
    tile = data.tiles.get(name)
    if tile is None:
        raise IllegalAction("unknown_tile", f"there is no tile {name}")
    if copy >= req.rule_set.tile_count(tile):
        raise IllegalAction(
            "no_tile_left",
            f"the {req.rule_set.name} supply has {req.rule_set.tile_count(tile)} of tile {name}; "
            f"{req.tile_id} does not exist",
        )
    where = req.tiles_in_use.get(req.tile_id)
    if where is not None:
        raise IllegalAction("tile_in_use", f"tile {req.tile_id} already lies on {where}")
    lay = check_tile_lay(
        req.board,
        req.corp,
        req.hex_id,
        name,
        req.rotation,
        phase=req.phase,
        rule_set=req.rule_set,
        owned_privates=req.owned_privates,
        special=req.special,
        player_owned_blockers=req.player_owned_blockers,
        cash=req.cash,
        first_special_lay=req.first_special_lay,
        outside_turn=req.outside_turn,
    )
    return LayPlan(req.hex_id, tile, req.tile_id, req.rotation, lay.cost)
