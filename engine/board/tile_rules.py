"""Can a tile stand on a hex? The static part of tile-lay legality (RULES.md §6.5).

These checks look at a hex, its tile and the neighbours only — never at a
company, a phase or the supply (that is ``engine.tile_lay``):

* the *tile class*: colour order, labels, town and city counts (§6.5 #2);
* *track kept*: the old tile's paths are a subset of the new tile's paths at the
  chosen rotation, and every old city keeps its connections (§6.5 #2);
* *exits*: every exit leads to a hex track may enter (§6.5 #4, ROUTES.md §1.2);
* the *special tiles* L39, L40a, L40b and L41 stand only on their own hex (§7).

Each check returns a ``Refusal`` (a machine-readable code plus a sentence) or
None. ``standing_problem`` combines them for reading state files, where a tile
may be the end of a chain of legal upgrades from the preprinted tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from route18xx.engine.board.board import Board, PlacedTile, city_exits
from route18xx.engine.facts.gamedata import COLOR_ORDER, GameData, HexDef, HexId, TileDef, TileName
from route18xx.engine.facts.hexgrid import facing_edge, rotate_edge

#: Colours of preprinted hexes that are walls to track (ROUTES.md §1.2).
WALL_COLORS: frozenset[str] = frozenset({"red", "gray", "blue"})

#: Refusal codes of this module (``IllegalAction.code`` in ``engine.tile_lay``).
WRONG_COLOR = "wrong_color"
LABEL_MISMATCH = "label_mismatch"
TOWNS_CHANGED = "towns_changed"
CITIES_CHANGED = "cities_changed"
TRACK_DROPPED = "track_dropped"
CITY_CONNECTIONS_CHANGED = "city_connections_changed"
EXIT_OFF_MAP = "exit_off_map"
EXIT_IMPASSABLE = "exit_impassable"
EXIT_INTO_WALL = "exit_into_wall"
SPECIAL_TILE_HEX_MISMATCH = "special_tile_wrong_hex"
HEX_TAKES_NO_TILES = "hex_takes_no_tiles"


@dataclass(frozen=True)
class Refusal:
    """Why a tile cannot go where it was put: ``code`` for machines, ``message`` for people."""

    code: str
    message: str


# -- tile class: colour, label, towns, cities (RULES.md §6.5 #2) ---------------


def color_rank(color: str) -> int | None:
    """Position in white→yellow→green→brown→gray; None for red/blue private tiles."""
    return COLOR_ORDER.index(color) if color in COLOR_ORDER else None


def _label_text(labels: tuple[str, ...]) -> str:
    return "/".join(labels) if labels else "no label"


def class_refusal(base: TileDef, tile: TileDef, *, next_only: bool) -> Refusal | None:
    """Colour, label and town/city counts of ``tile`` replacing ``base`` (RULES.md §6.5 #2).

    With ``next_only`` the colour must be the next one (a single upgrade);
    otherwise any later colour is accepted (a chain of upgrades). Labelled
    tiles (B, OO) may change their city count; unlabelled ones may not.
    """
    old, new = color_rank(base.color), color_rank(tile.color)
    last = len(COLOR_ORDER) - 1
    if old is None or old == last:
        return Refusal(
            WRONG_COLOR, f"{base.color} tile {base.name} cannot be upgraded to tile {tile.name}"
        )
    ok = new is not None and (new == old + 1 if next_only else new > old)
    if not ok:
        wanted = COLOR_ORDER[old + 1] if next_only else " or ".join(COLOR_ORDER[old + 1:])
        return Refusal(
            WRONG_COLOR,
            f"{tile.color} tile {tile.name} cannot replace {base.color} tile {base.name}: "
            f"the next tile must be {wanted}",
        )
    want = base.labels
    if base.future_label is not None and new is not None and \
            new >= (color_rank(base.future_label[1]) or 0):
        want = (base.future_label[0],)  # the label the hex takes from that colour on (1856)
    if tile.labels != want and tile.name not in base.label_exempt:
        return Refusal(
            LABEL_MISMATCH,
            f"tile {tile.name} has {_label_text(tile.labels)} but {base.name} has "
            f"{_label_text(want)}: labels must match (a labelled tile only where the "
            f"map prints its label)",
        )
    if len(tile.towns) != len(base.towns):
        return Refusal(
            TOWNS_CHANGED,
            f"tile {tile.name} has {len(tile.towns)} town(s) but {base.name} has "
            f"{len(base.towns)}: the number of towns must stay the same",
        )
    if not base.labels and len(tile.cities) != len(base.cities):
        return Refusal(
            CITIES_CHANGED,
            f"tile {tile.name} has {len(tile.cities)} city(ies) but {base.name} has "
            f"{len(base.cities)}: the number of cities must stay the same",
        )
    return None


# -- track kept (RULES.md §6.5 #2, #9) -----------------------------------------

_End = tuple[str, int]


def _shape(placed: PlacedTile) -> list[frozenset[_End]]:
    """Each path as a set of ends: ("edge", rotated edge) or (node kind, -1).

    A node matches any node of the same kind (an upgraded city may be a new
    city object), which is how the 18xx.games path test compares them.
    """
    out = []
    for path in placed.tile.paths:
        out.append(
            frozenset(
                ("edge", rotate_edge(e.index, placed.rotation)) if e.is_edge else (e.kind, -1)
                for e in (path.a, path.b)
            )
        )
    return out


def _path_text(ends: frozenset[_End]) -> str:
    return "–".join(sorted(f"edge {i}" if k == "edge" else k for k, i in ends))


def paths_refusal(old: PlacedTile, new: PlacedTile) -> Refusal | None:
    """The old tile's track must survive on the new one (RULES.md §6.5 #2).

    Every old path must be a new path at the chosen rotation; when both tiles
    have several cities, each connected old city must lie inside exactly one
    new city, and no two old cities may merge.
    """
    new_shape = _shape(new)
    for ends in _shape(old):
        if not any(ends <= other for other in new_shape):
            return Refusal(
                TRACK_DROPPED,
                f"tile {new.tile.name} at rotation {new.rotation} drops the track "
                f"{_path_text(ends)} of {old.tile.name}",
            )
    if len(old.tile.cities) > 1 and len(new.tile.cities) > 1:
        used: set[int] = set()
        for city in old.tile.cities:
            wanted = city_exits(old, city.index)
            if not wanted:
                continue
            homes = [c.index for c in new.tile.cities if wanted <= city_exits(new, c.index)]
            if len(homes) != 1 or homes[0] in used:
                return Refusal(
                    CITY_CONNECTIONS_CHANGED,
                    f"tile {new.tile.name} at rotation {new.rotation} does not keep city "
                    f"{city.index} of {old.tile.name} (exits {sorted(wanted)}) as one "
                    f"separate city",
                )
            used.add(homes[0])
    return None


def track_key(placed: PlacedTile) -> frozenset[tuple[str, frozenset[int]]]:
    """The track a placed tile draws: each node with its edges, each plain edge–edge path.

    Equal keys mean physically identical track (tile 9 at rotations 0 and 3;
    the double-town tile 1 at 0 and 3, whose towns merely swap numbers).
    """
    key: set[tuple[str, frozenset[int]]] = set()
    for node in placed.tile.nodes:
        edges = frozenset(
            rotate_edge(e.index, placed.rotation)
            for p in placed.tile.paths
            if any(not e.is_edge and e.kind == node.kind and e.index == node.index
                   for e in (p.a, p.b))
            for e in (p.a, p.b)
            if e.is_edge
        )
        key.add((node.kind, edges))
    for p in placed.tile.paths:
        if p.a.is_edge and p.b.is_edge:
            key.add(("track", frozenset(rotate_edge(e.index, placed.rotation) for e in (p.a, p.b))))
    return frozenset(key)


def distinct_rotations(tile: TileDef, rotations: Iterable[int] = range(6)) -> list[int]:
    """``rotations`` without those that draw the same track as an earlier one."""
    seen: set[frozenset[tuple[str, frozenset[int]]]] = set()
    out = []
    for rotation in rotations:
        key = track_key(PlacedTile(tile, rotation))
        if key not in seen:
            seen.add(key)
            out.append(rotation)
    return out


def kept_rotations(old: PlacedTile, tile: TileDef) -> list[int]:
    """Rotations of ``tile`` that keep ``old``'s track (RULES.md §6.5 #2)."""
    return [r for r in range(6) if paths_refusal(old, PlacedTile(tile, r)) is None]


def upgrade_candidates(base: TileDef, tiles: Iterable[TileDef]) -> tuple[TileName, ...]:
    """Names of ``tiles`` that pass the non-special upgrade test on ``base`` (any rotation).

    This is the test behind ``map.json`` ``lay_candidates`` and ``tiles.json``
    ``upgrades_to``: next colour, label, towns/cities, track kept. Special
    tiles are never candidates.
    """
    old = PlacedTile(base, 0)
    return tuple(
        t.name
        for t in tiles
        if not t.special_only
        and class_refusal(base, t, next_only=True) is None
        and kept_rotations(old, t)
    )


# -- exits (RULES.md §6.5 #4, ROUTES.md §1.2) ----------------------------------


def exits_refusal(board: Board, hex_id: HexId, tile: TileDef, rotation: int) -> Refusal | None:
    """Every exit must point to a hex track may enter (RULES.md §6.5 #4).

    Not off the map, not across an impassable border (either side), not into a
    red/gray/blue hex unless the tile there has track pointing back.
    """
    hex_def = board.hex(hex_id)
    for edge in sorted(tile.exits(rotation)):
        other = hex_def.neighbors.get(edge)
        where = f"tile {tile.name} at rotation {rotation} on {hex_id} has an exit on edge {edge}"
        if other is None:
            return Refusal(EXIT_OFF_MAP, f"{where}, which leads off the map")
        if board.across(hex_id, edge) is None:
            return Refusal(EXIT_IMPASSABLE, f"{where}, across an impassable border to {other}")
        other_def = board.hex(other)
        if other_def.color in WALL_COLORS and facing_edge(edge) not in board.exits(other):
            return Refusal(
                EXIT_INTO_WALL,
                f"{where}, into {other_def.color} hex {other} which has no track on that side",
            )
    return None


# -- special tiles (RULES.md §7) -----------------------------------------------


def special_hex_refusal(hex_def: HexDef, tile: TileDef) -> Refusal | None:
    """Special tiles only on their hex; red/gray/blue hexes take only their special tile."""
    # the one hex a special tile stands on (private_rules.json), or its abilities' hexes
    homes = (tile.only_on,) if tile.only_on is not None else tile.ability_hexes
    if tile.special_only and hex_def.id not in homes:
        return Refusal(
            SPECIAL_TILE_HEX_MISMATCH,
            f"tile {tile.name} belongs on {', '.join(homes) or 'no hex'} only, not on {hex_def.id}",
        )
    if not tile.special_only and hex_def.color in WALL_COLORS:
        return Refusal(
            HEX_TAKES_NO_TILES,
            f"{hex_def.id} is a {hex_def.color} hex and takes no track tiles",
        )
    return None


def standing_problem(board: Board, hex_id: HexId, tile: TileDef, rotation: int) -> str | None:
    """None if ``tile`` at ``rotation`` may stand on ``hex_id``; else the reason.

    For reading state files: the tile must be reachable from the preprinted tile
    by a chain of legal upgrades (any later colour of the same class), keep the
    preprinted track, and every exit must lead somewhere track may go on
    ``board`` (RULES.md §6.5 #2, #4). Special tiles stand on their own hex only
    (RULES.md §7), where the preprinted track decides the rotation.
    """
    refusal = standing_refusal(board, hex_id, tile, rotation)
    return None if refusal is None else refusal.message


def standing_refusal(board: Board, hex_id: HexId, tile: TileDef, rotation: int) -> Refusal | None:
    """``standing_problem`` with its machine-readable code.

    It depends only on the hex, the tile and its rotation, unless a tile was
    placed on a red/gray/blue neighbour (the only track of the board it reads,
    ``exits_refusal``; such tiles are refused elsewhere): cached per data set.
    """
    return _standing_cached(board, _wall_neighbours(board), hex_id, tile, rotation)


def first_standing_problem(
    board: Board, hexes: Iterable[HexId] | None = None
) -> tuple[HexId, PlacedTile, str] | None:
    """The first of ``board``'s laid tiles, in laying order, that cannot stand where
    it is, with the reason (``standing_problem``); None when every tile may stand.
    With ``hexes`` (laid hexes in laying order), only the tiles on those: the caller
    knows the others stand (``wall_hexes``)."""
    walls = _wall_neighbours(board)
    known = board.data.derived(_standing_memo)
    laid = board.placed
    for hex_id in laid if hexes is None else hexes:
        placed = laid[hex_id]
        # ``_standing_cached`` written out for the common case, a tile away from any
        # laid wall neighbour and already judged (it runs for every tile of every request).
        near = walls[hex_id]
        if not near or laid.keys().isdisjoint(near):
            held = known.get((hex_id, placed.tile.name, placed.rotation))
            if held is not None and held[0] is placed.tile:
                if held[1] is None:
                    continue
                return hex_id, placed, held[1].message
        refusal = _standing_cached(board, walls, hex_id, placed.tile, placed.rotation)
        if refusal is not None:
            return hex_id, placed, refusal.message
    return None


def _standing_cached(
    board: Board, walls: dict[HexId, frozenset[HexId]], hex_id: HexId, tile: TileDef, rotation: int
) -> Refusal | None:
    if not board.placed.keys().isdisjoint(walls[hex_id]):
        return _standing_refusal(board, hex_id, tile, rotation)
    # Away from a laid wall neighbour the answer is a fact of the data: held by it,
    # per hex, tile and rotation (the tile checked by identity: keyed by its name).
    known = board.data.derived(_standing_memo)
    held = known.get((hex_id, tile.name, rotation))
    if held is not None and held[0] is tile:
        return held[1]
    refusal = _standing_refusal(board, hex_id, tile, rotation)
    known[(hex_id, tile.name, rotation)] = (tile, refusal)
    return refusal


def wall_hexes(data: GameData) -> frozenset[HexId]:
    """The red, gray and blue hexes: on a board with no laid tile on one of them,
    ``standing_refusal`` on the empty board holds for any tile anywhere."""
    return data.derived(_wall_hexes)


def _wall_hexes(data: GameData) -> frozenset[HexId]:
    return frozenset(h for h, d in data.hexes.items() if d.color in WALL_COLORS)


def _standing_memo(data: GameData) -> dict[tuple[HexId, str, int], tuple[TileDef, Refusal | None]]:
    """(hex, tile name, rotation) → (tile, whether it may stand there), filled as asked."""
    return {}


def _wall_neighbours(board: Board) -> dict[HexId, frozenset[HexId]]:
    """Each hex → its red/gray/blue neighbours (whose track ``exits_refusal`` reads),
    built once and held by the data (``GameData.derived``)."""
    return board.data.derived(_walls)


def _walls(data: GameData) -> dict[HexId, frozenset[HexId]]:
    hexes = data.hexes
    return {
        h: frozenset(n for n in d.neighbors.values() if hexes[n].color in WALL_COLORS)
        for h, d in hexes.items()
    }


def _standing_refusal(board: Board, hex_id: HexId, tile: TileDef, rotation: int) -> Refusal | None:
    hex_def = board.hex(hex_id)
    preprinted = PlacedTile(hex_def.preprinted, 0)
    classed = None if tile.special_only else class_refusal(preprinted.tile, tile, next_only=False)
    if classed is not None and classed.code in (TOWNS_CHANGED, CITIES_CHANGED) and \
            tile.name in board.data.derived(town_upgrade_reach):
        classed = None  # a town upgraded away (1856's gray phases: the phase is checked apart)
    return (
        special_hex_refusal(hex_def, tile)
        or classed
        or paths_refusal(preprinted, PlacedTile(tile, rotation))
        or exits_refusal(board, hex_id, tile, rotation)
    )


def town_upgrade_reach(data: GameData) -> frozenset[TileName]:
    """The tiles a hex may hold once its town was upgraded to a city or to plain track
    (``GameData.town_upgrades``: 1856's 3 → 5 or 7, 4 → 57 or 9, …), and every tile they
    upgrade to in turn: these may stand where the printed hex has other towns."""
    seen: set[TileName] = set()
    todo = [t for targets in data.town_upgrades.values() for t in targets]
    while todo:
        name = todo.pop()
        if name in seen or name not in data.tiles:
            continue
        seen.add(name)
        todo.extend(data.tiles[name].upgrades_to)
    return frozenset(seen)
