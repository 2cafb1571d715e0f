"""Tile-lay legality and cost (RULES.md §6.5, §7.2-§7.5).

``check_lay`` is the single entry point the game's track steps call: it says
whether a tile copy may go on a hex at a rotation for a corporation (a normal
lay) or for a private's ability (a special lay), and what it costs. It raises
``IllegalAction`` with a machine-readable code otherwise. (When the shared
``engine.tile_lay`` lands, this function is the one place to switch over.)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.board import Board, PlacedTile
from engine.errors import IllegalAction
from engine.game.graph import enterable
from engine.gamedata import HexId, PhaseDef, TileDef
from engine.hexgrid import rotate_edge
from engine.rulesets import RuleSet


@dataclass(frozen=True)
class LayRequest:
    """Everything a tile lay is judged on; the game fills it in."""

    board: Board
    phase: PhaseDef
    rule_set: RuleSet
    hex_id: HexId
    tile_id: str
    rotation: int
    #: tile id → hex for every copy on the map (preprinted tiles excluded).
    tiles_in_use: Mapping[str, HexId]
    #: hexes no tile may go on (Heng Shan while a player owns it, §7.3).
    blocked_hexes: Collection[HexId] = ()
    #: sides of ``hex_id`` the corporation reaches; None for a lay that needs no connection.
    reached_sides: Collection[int] | None = None
    #: the private ability used for a special lay (companies.json), or None.
    ability: Mapping[str, Any] | None = None
    #: hexes already laid in this turn by the same ability (Great Wall: must connect, §7.4).
    ability_laid: Collection[HexId] = ()


@dataclass(frozen=True)
class LayPlan:
    """A checked lay: the tile, where, how turned, and the terrain cost to pay."""

    hex_id: HexId
    tile: TileDef
    tile_id: str
    rotation: int
    cost: int


def _refuse(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def parse_tile_id(tile_id: str) -> tuple[str, int]:
    """``"8858-0"`` → ("8858", 0); raises IllegalAction on a malformed id."""
    name, sep, copy = tile_id.rpartition("-")
    if not sep or not copy.isdigit() or not name:
        raise _refuse("unknown_tile", f"{tile_id!r} is not a tile id like '8-0'")
    return name, int(copy)


def check_lay(req: LayRequest) -> LayPlan:
    """Judge one tile lay (RULES.md §6.5 #1-#9; special lays §7.2-§7.5)."""
    board = req.board
    data = board.data
    if req.hex_id not in data.hexes:
        raise _refuse("unknown_hex", f"there is no hex {req.hex_id}")
    name, copy = parse_tile_id(req.tile_id)
    tile = data.tiles.get(name)
    if tile is None:
        raise _refuse("unknown_tile", f"there is no tile {name}")
    if copy >= req.rule_set.tile_count(tile):
        raise _refuse(
            "no_tile_left",
            f"the {req.rule_set.name} supply has {req.rule_set.tile_count(tile)} of tile {name}; "
            f"{req.tile_id} does not exist",
        )
    where = req.tiles_in_use.get(req.tile_id)
    if where is not None:
        raise _refuse("tile_in_use", f"tile {req.tile_id} already lies on {where}")
    if not 0 <= req.rotation <= 5:
        raise _refuse("bad_rotation", f"rotation {req.rotation} is outside 0-5")
    if req.hex_id in req.blocked_hexes:
        raise _refuse("hex_blocked", f"{req.hex_id} is blocked by a private company")
    old = board.tile_on(req.hex_id)
    hex_def = board.hex(req.hex_id)
    is_preprinted = req.hex_id not in board.placed
    _check_upgrade(req, tile, old, is_preprinted)
    new = PlacedTile(tile, req.rotation)
    _check_rotation(req, old, new)
    cost = 0
    if is_preprinted and not (req.ability and req.ability.get("free")):
        cost = hex_def.terrain_cost
    return LayPlan(req.hex_id, tile, req.tile_id, req.rotation, cost)


def _check_upgrade(req: LayRequest, tile: TileDef, old: PlacedTile, is_preprinted: bool) -> None:
    """Colour, phase, label and upgrade list; special tiles only through their ability."""
    hex_def = req.board.hex(req.hex_id)
    ability = req.ability
    if ability is not None:
        if req.hex_id not in ability.get("hexes", ()):
            raise _refuse("ability_hex", f"this ability cannot lay on {req.hex_id}")
        if tile.name not in ability.get("tiles", ()):
            raise _refuse("ability_tile", f"this ability cannot lay tile {tile.name}")
        if ability.get("special"):
            if not is_preprinted:
                raise _refuse("hex_not_empty", f"{req.hex_id} already holds a tile")
            return
        if not is_preprinted:
            raise _refuse("hex_not_empty", f"{req.hex_id} already holds a tile")
    elif tile.special_only:
        raise _refuse("special_tile", f"tile {tile.name} can only be laid by a private's ability")
    if tile.color not in req.phase.tile_colors:
        raise _refuse(
            "color_not_available",
            f"{tile.color} tiles are not available in phase {req.phase.name}",
        )
    if is_preprinted:
        allowed = hex_def.lay_candidates
        what = f"the preprinted {hex_def.color} hex {req.hex_id}"
    else:
        allowed = old.tile.upgrades_to
        what = f"tile {old.tile.name} on {req.hex_id}"
    if tile.name not in allowed:
        raise _refuse("not_an_upgrade", f"tile {tile.name} cannot replace {what}")


def _end(kind: str, index: int, rotation: int) -> tuple[str, int]:
    return ("edge", rotate_edge(index, rotation)) if kind == "edge" else (kind, -1)


def _path_sigs(placed: PlacedTile) -> list[tuple[tuple[str, int], ...]]:
    """Each path as a sorted pair of ends; nodes by kind only (RULES.md §6.5 #2)."""
    out: list[tuple[tuple[str, int], ...]] = []
    for p in placed.tile.paths:
        a = _end(p.a.kind, p.a.index, placed.rotation)
        b = _end(p.b.kind, p.b.index, placed.rotation)
        out.append(tuple(sorted((a, b))))
    return out


def _ct_edges(placed: PlacedTile) -> list[frozenset[int]]:
    """Edges joined to each city/town that has track (18xx.games city_town_edges)."""
    groups: dict[tuple[str, int], set[int]] = {}
    for p in placed.tile.paths:
        ends = (p.a, p.b)
        for node in ends:
            if node.kind in ("city", "town"):
                for e in ends:
                    if e.is_edge:
                        groups.setdefault((node.kind, node.index), set()).add(
                            rotate_edge(e.index, placed.rotation)
                        )
    return [frozenset(v) for v in groups.values()]


def _check_rotation(req: LayRequest, old: PlacedTile, new: PlacedTile) -> None:
    """Exits on the map, old track kept, cities kept, touching the network (§6.5 #2-#4)."""
    board = req.board
    new_exits = new.tile.exits(new.rotation)
    partners = set(req.ability.get("hexes", ())) if req.ability and req.ability.get("special") else set()
    for edge in sorted(new_exits):
        if edge in old.tile.exits(old.rotation):
            continue
        across = board.across(req.hex_id, edge)
        if across is not None and across[0] in partners:
            continue  # the two ferry tiles open the sea side between them (§7.5)
        if not enterable(board, req.hex_id, edge):
            raise _refuse(
                "exit_blocked",
                f"tile {new.tile.name} rotation {new.rotation} on {req.hex_id} has an exit "
                f"at edge {edge} that leads off the map, across a border or into a wall",
            )
    new_paths = _path_sigs(new)
    for path in _path_sigs(old):
        if path not in new_paths:
            raise _refuse(
                "track_dropped",
                f"tile {new.tile.name} rotation {new.rotation} does not keep the track "
                f"{_describe(path)} of tile {old.tile.name} on {req.hex_id}",
            )
    old_ct, new_ct = _ct_edges(old), _ct_edges(new)
    extra = max(0, len(new_ct) - len(old_ct))
    unmatched = sum(1 for n in new_ct if all(not (n & o) for o in old_ct))
    if unmatched > extra:
        raise _refuse(
            "city_moved",
            f"tile {new.tile.name} rotation {new.rotation} does not keep the cities and towns "
            f"of {req.hex_id} where they are",
        )
    if len(new_ct) > 1 and len(old_ct) > 1:
        for o in old_ct:
            if sum(1 for n in new_ct if o <= n) != 1:
                raise _refuse(
                    "city_moved",
                    f"tile {new.tile.name} rotation {new.rotation} splits a city of {req.hex_id}",
                )
    if req.reached_sides is not None and not (new_exits & frozenset(req.reached_sides)):
        raise _refuse(
            "not_connected",
            f"tile {new.tile.name} rotation {new.rotation} on {req.hex_id} does not connect "
            f"to the company's track",
        )
    if req.ability_laid and req.ability and req.ability.get("connect"):
        if not any(_joined(board, req.hex_id, new, h) for h in req.ability_laid):
            raise _refuse(
                "ability_not_connected",
                f"the second tile on {req.hex_id} must connect to the first one",
            )


def _joined(board: Board, hex_id: HexId, new: PlacedTile, other: HexId) -> bool:
    """Do the new tile on ``hex_id`` and the tile on ``other`` share a track side?"""
    for edge in new.tile.exits(new.rotation):
        across = board.across(hex_id, edge)
        if across is not None and across[0] == other and across[1] in board.exits(other):
            return True
    return False


def _describe(path: Any) -> str:
    parts = [f"edge {i}" if k == "edge" else k for k, i in path]
    return "-".join(parts)
