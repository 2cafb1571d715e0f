"""Reading a state file's ``tiles`` and ``tokens`` arrays into a ``Board`` (DESIGN.md §5).

Every error is a ``MalformedInput`` naming the field (``tiles[3].rotation``) and the
reason. A tile must be of a colour the phase allows (RULES.md §6.5 #1), within the
rule set's supply (RULES.md §1.1) and able to stand where it is (RULES.md §6.5:
``engine.tile_rules``); a token must sit on a city the tile has, in a free slot, at
most one per company and hex, within the company's tokens (RULES.md §2.5, §6.6).

Every tile and token of every request passes here (issue 21: a board seen first).
A well-formed item is read on a flat path whose facts — the tiles a phase and rule
set accept with their supply; each (hex, tile, rotation) on the map with its placed
tile and whether it stands there on a board without tiles on red/gray/blue hexes;
each company's token count — are worked out once from the game data and held by it
(``GameData.derived``, at most one entry per hex, tile and rotation of the map). Any
item that path does not accept whole is read again by the checks that name its error,
in the order they always ran, so a bad item gets the same error either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from route18xx.engine.board import state_rules as rules
from route18xx.engine.board.arrivals import TileArrivals, map_arrivals, tile_arrivals
from route18xx.engine.board.board import Board
from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import GameData, HexId, PhaseDef
from route18xx.engine.facts.geometry import PlacedTile, placed_tile
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.board.tile_rules import (
    first_standing_problem, standing_refusal, town_upgrade_reach, wall_hexes,
)


def require(raw: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``raw[key]`` if it is a ``kind`` (an int is never a bool), else the error naming it."""
    value = raw.get(key)
    if type(value) is kind:  # the common case, decided at once (an exact int is no bool)
        return value
    if key not in raw:
        raise MalformedInput(f"{where}{key}", "is missing")
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise MalformedInput(f"{where}{key}", f"must be a {name}, not {type(value).__name__}")
    return value


def _accepted_tiles(data: GameData, key: tuple[RuleSet, PhaseDef | None]) -> dict[str, int]:
    """Tile name → its copies in the supply, for every tile of ``data`` the phase in
    ``key`` accepts (``state_rules.check_tile_phase``; None: any phase) and the rule
    set supplies at least once (RULES.md §1.1, §6.5 #1)."""
    rule_set, phase = key
    out: dict[str, int] = {}
    for name, tile in data.tiles.items():
        supply = rule_set.tile_count(tile)
        if supply < 1:
            continue
        if phase is not None:
            try:
                rules.check_tile_phase("", tile, phase, data)
            except MalformedInput:
                continue
        out[name] = supply
    return out


@dataclass(frozen=True, slots=True)
class _Laid:
    """A tile of the data at a rotation on a hex of its map."""

    placed: PlacedTile
    #: it may stand there on any board without a laid tile on a red/gray/blue hex
    stands: bool
    #: the tile there as a walk and the tokens read it (``engine.arrivals``)
    arrivals: TileArrivals


def _laid_tiles(data: GameData) -> dict[tuple[HexId, str, int], _Laid]:
    """(hex, tile, rotation) → its ``_Laid``, filled as asked (``_laid_tile``)."""
    return {}


def _laid_tile(data: GameData, hex_id: str, name: str, rotation: int) -> _Laid | None:
    """The facts of ``name`` at ``rotation`` on ``hex_id``, held by the data when the
    hex is on the map, the tile known and the rotation 0-5 (None otherwise: those are
    read by the checks, and never held, so no request grows the memo past the map)."""
    tile = data.tiles.get(name)
    if tile is None or hex_id not in data.hexes or not 0 <= rotation <= 5:
        return None
    placed = placed_tile(tile, rotation)
    stands = standing_refusal(Board({}, {}, data), hex_id, tile, rotation) is None
    arrivals = tile_arrivals(data, hex_id, placed)
    laid = data.derived(_laid_tiles)[(hex_id, name, rotation)] = _Laid(placed, stands, arrivals)
    return laid


def _token_counts(data: GameData) -> dict[str, int]:
    """Company → its station tokens (RULES.md §2.5)."""
    return {sym: c.stations for sym, c in data.corporations.items()}


def parse_board(
    tiles_raw: Any,
    tokens_raw: Any,
    rule_set: RuleSet,
    data: GameData,
    phase: PhaseDef | None = None,
) -> Board:
    """The ``tiles`` and ``tokens`` arrays of a state file as a ``Board``.

    With ``phase``, every tile's colour must be one the phase allows (RULES.md §6.5 #1).
    Each company holds at most its own station tokens (RULES.md §2.5).
    """
    if not isinstance(tiles_raw, list):
        raise MalformedInput("tiles", "must be a list")
    if not isinstance(tokens_raw, list):
        raise MalformedInput("tokens", "must be a list")
    if len(tiles_raw) > len(data.hexes):
        raise MalformedInput(
            "tiles", f"lists {len(tiles_raw)} tiles; the map has {len(data.hexes)} hexes"
        )
    rules.check_token_total(tokens_raw, data)
    placed: dict[HexId, PlacedTile] = {}
    table = map_arrivals(data)  # ``Board.arrivals``, each laid tile's put in as it is read
    used: dict[str, int] = {}
    accepted = data.derived_for(_accepted_tiles, (rule_set, phase))
    laid = data.derived(_laid_tiles)
    walled = wall_hexes(data)
    unsure: list[HexId] = []  # laid hexes whose tile is not known to stand, in laying order
    for i, item in enumerate(tiles_raw):
        # The flat path (read plainly: it runs for every tile of every request).
        if type(item) is dict:
            hex_id, name, rotation = item.get("hex"), item.get("tile"), item.get("rotation")
            if type(hex_id) is str and type(name) is str and type(rotation) is int:
                fact = laid.get((hex_id, name, rotation))
                if fact is None:
                    fact = _laid_tile(data, hex_id, name, rotation)
                supply = accepted.get(name, 0)
                if fact is not None and hex_id not in placed:
                    count = used.get(name, 0)
                    if count < supply:
                        used[name] = count + 1
                        placed[hex_id] = fact.placed
                        table[hex_id] = fact.arrivals
                        if not fact.stands:
                            unsure.append(hex_id)
                        continue
        hex_id, pt = _read_tile(i, item, placed, used, rule_set, data, phase)
        placed[hex_id] = pt
        table[hex_id] = tile_arrivals(data, hex_id, pt)
        unsure.append(hex_id)
    # A tile judged before stands again unless a red/gray/blue hex has a laid tile
    # (whose track the exits check reads): then every tile is judged on this board.
    apart = placed.keys().isdisjoint(walled)
    if unsure or not apart:
        board = Board(placed, {}, data, table)
        unstanding = first_standing_problem(board, unsure if apart else None)
        if unstanding is not None:
            hex_id, pt, problem = unstanding
            index = next(i for i, t in enumerate(tiles_raw) if t["hex"] == hex_id)
            raise MalformedInput(
                f"tiles[{index}]",
                f"tile {pt.tile.name} rotation {pt.rotation} cannot stand on {hex_id}: {problem}",
            )
    if data.town_upgrades and phase is not None and data.town_upgrade_status not in phase.status:
        _check_towns_kept(tiles_raw, placed, data, phase)
    return Board(placed, _read_tokens(tokens_raw, table, data), data, table)


def _check_towns_kept(tiles_raw: Any, placed: dict[HexId, PlacedTile], data: GameData,
                      phase: PhaseDef) -> None:
    """Before the phases that upgrade towns away (``GameData.town_upgrade_status``: 1856's
    gray phases), every hex keeps its printed towns."""
    reach = data.derived(town_upgrade_reach)
    for hex_id, pt in placed.items():
        printed = data.hexes[hex_id].preprinted
        if pt.tile.name in reach and len(pt.tile.towns) != len(printed.towns):
            index = next(i for i, t in enumerate(tiles_raw) if t["hex"] == hex_id)
            raise MalformedInput(
                f"tiles[{index}]",
                f"tile {pt.tile.name} on {hex_id} upgrades its town away, which phase {phase.name} "
                f"does not allow (only phases with {data.town_upgrade_status})")


def _read_tile(
    i: int,
    item: Any,
    placed: dict[HexId, PlacedTile],
    used: dict[str, int],
    rule_set: RuleSet,
    data: GameData,
    phase: PhaseDef | None,
) -> tuple[HexId, PlacedTile]:
    """``tiles[i]`` read check by check, each failure the error naming its field; ``used``
    counts the tile."""
    where = f"tiles[{i}]."
    if not isinstance(item, Mapping):
        raise MalformedInput(f"tiles[{i}]", "must be an object")
    hex_id = require(item, "hex", str, where)
    if hex_id not in data.hexes:
        raise MalformedInput(f"{where}hex", f"unknown hex {excerpt(hex_id)}")
    if hex_id in placed:
        raise MalformedInput(f"{where}hex", f"hex {hex_id} is listed twice")
    tile_name = require(item, "tile", str, where)
    tile = data.tiles.get(tile_name)
    if tile is None:
        raise MalformedInput(f"{where}tile", f"unknown tile {excerpt(tile_name)}")
    if phase is not None:
        rules.check_tile_phase(f"{where}tile", tile, phase, data)
    rotation = require(item, "rotation", int, where)
    if not 0 <= rotation <= 5:
        raise MalformedInput(f"{where}rotation", f"{excerpt(rotation)} is outside 0-5")
    count = used[tile_name] = used.get(tile_name, 0) + 1
    if count > rule_set.tile_count(tile):
        raise MalformedInput(
            f"{where}tile",
            f"tile {tile_name} is used {count} times but the {rule_set.name} "
            f"supply has {rule_set.tile_count(tile)}",
        )
    return hex_id, placed_tile(tile, rotation)


def _read_tokens(
    tokens_raw: list[Any], tiles: Mapping[HexId, TileArrivals], data: GameData
) -> dict[tuple[HexId, int], tuple[str, ...]]:
    """The ``tokens`` array on the board whose tiles are ``tiles`` (``Board.arrivals``):
    (hex, city) → companies, in slot order."""
    tokens: dict[tuple[HexId, int], tuple[str, ...]] = {}
    placed_by: dict[str, int] = {}
    corps_on: dict[HexId, set[str]] = {}  # hex → companies with a token in any of its cities
    owned = data.derived(_token_counts)
    for i, item in enumerate(tokens_raw):
        # The flat path (read plainly: it runs for every token of every request). A hex
        # off the map has no tile, a node that is no city no slots: the checks name them.
        if type(item) is dict:
            hex_id, city, corp = item.get("hex"), item.get("city"), item.get("corporation")
            if type(hex_id) is str and type(city) is int and type(corp) is str:
                tile = tiles.get(hex_id)
                slots = 0 if tile is None else tile.city_slots.get(city, 0)
                before = placed_by.get(corp, 0)
                on_hex = corps_on.get(hex_id)
                held = tokens.get((hex_id, city), ())
                if (before < owned.get(corp, 0) and len(held) < slots
                        and (on_hex is None or corp not in on_hex)):
                    placed_by[corp] = before + 1
                    tokens[(hex_id, city)] = held + (corp,)
                    if on_hex is None:
                        corps_on[hex_id] = {corp}
                    else:
                        on_hex.add(corp)
                    continue
        _read_token(i, item, tiles, data, tokens, placed_by, corps_on)
    return tokens


def _read_token(
    i: int,
    item: Any,
    tiles: Mapping[HexId, TileArrivals],
    data: GameData,
    tokens: dict[tuple[HexId, int], tuple[str, ...]],
    placed_by: dict[str, int],
    corps_on: dict[HexId, set[str]],
) -> None:
    """``tokens[i]`` read check by check, each failure the error naming its field; the
    token is added to ``tokens``, ``placed_by`` and ``corps_on``."""
    where = f"tokens[{i}]."
    if not isinstance(item, Mapping):
        raise MalformedInput(f"tokens[{i}]", "must be an object")
    hex_id = require(item, "hex", str, where)
    if hex_id not in data.hexes:
        raise MalformedInput(f"{where}hex", f"unknown hex {excerpt(hex_id)}")
    city = require(item, "city", int, where)
    corp = require(item, "corporation", str, where)
    if corp not in data.corporations:
        raise MalformedInput(f"{where}corporation", f"unknown company {excerpt(corp)}")
    rules.check_token_owner(f"tokens[{i}]", data.corporations[corp], placed_by.get(corp, 0))
    placed_by[corp] = placed_by.get(corp, 0) + 1
    geometry = tiles[hex_id].geometry
    node = geometry.nodes.get(city)
    if node is None or node.kind != "city":
        tile_name = geometry.placed.tile.name
        cities = [c.index for c in geometry.placed.tile.cities]
        raise MalformedInput(
            f"{where}city",
            f"tile {tile_name} on {hex_id} has no city {excerpt(city)} (its cities: {cities})",
        )
    held = tokens.get((hex_id, city), ())
    on_hex = corps_on.setdefault(hex_id, set())
    if corp in on_hex:
        raise MalformedInput(
            f"{where}corporation", f"{corp} already has a token on {hex_id}"
        )
    if len(held) >= node.slots:
        raise MalformedInput(
            f"{where}city",
            f"city {hex_id}-{city} is full: {node.slots} slot(s), held by {', '.join(held)}",
        )
    tokens[(hex_id, city)] = held + (corp,)
    on_hex.add(corp)
