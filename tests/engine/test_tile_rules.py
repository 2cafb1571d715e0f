"""Can a tile stand on a hex? (RULES.md §6.5 #2, #4, §7) — and state files that say otherwise."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from route18xx.engine.board.board import Board, PlacedTile
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import parse_state
from route18xx.engine.board.tile_rules import (
    distinct_rotations,
    kept_rotations,
    paths_refusal,
    standing_problem,
    standing_refusal,
    track_key,
)

TILES = game_data("1888").tiles


def refusal_code(hex_id: str, tile: str, rotation: int, board: Board | None = None) -> str | None:
    refusal = standing_refusal(board or Board({}, {}, game_data("1888")), hex_id, TILES[tile], rotation)
    return None if refusal is None else refusal.code


# -- the real states ----------------------------------------------------------------


def test_every_real_state_parses(real_states: dict[str, Any]) -> None:
    """All 123 real decisions are legal boards; a refusal here would be a wrong rule."""
    assert len(real_states) == 123
    for name, raw in real_states.items():
        state = parse_state(raw)
        for hex_id, placed in state.board.placed.items():
            assert standing_problem(state.board, hex_id, placed.tile, placed.rotation) is None, name


# -- tiles that may stand ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_id", "tile", "rotation"),
    [
        ("G15", "9", 0),       # plain yellow on a plain white hex
        ("G15", "23", 0),      # green: a chain of upgrades happened
        ("G15", "46", 0),      # brown
        ("D12", "58", 1),      # town hex, town tile
        ("B6", "2", 4),        # two-town hex, two-town tile
        ("C13", "611", 0),     # city hex, brown city
        ("C9", "L42", 0),      # Beijing: 2 cities → 4 cities
        ("C9", "8892", 0),     # → 1 city
        ("C9", "8893", 0),
        ("B18", "8860", 2),    # OO keeps Shenyang's printed track (edge 1)
        ("B20", "512", 2),     # OO → gray single city
        ("H4", "X7", 3),
        ("H2", "L39", 5),      # Terracotta Army keeps Xi'an's edges 3, 4
        ("C5", "L41", 1),      # Heng Shan mine
        ("C5", "9", 1),        # normal track on C5 (after HS left the players)
    ],
)
def test_tiles_that_may_stand(hex_id: str, tile: str, rotation: int) -> None:
    assert refusal_code(hex_id, tile, rotation) is None


def test_the_ferry_tiles_stand_together_only() -> None:
    """RULES.md §7.5: L40a's edge 0 faces L40b's edge 3; alone, each points into a wall."""
    both = Board({"E17": PlacedTile(TILES["L40a"], 0), "F16": PlacedTile(TILES["L40b"], 0)}, {},
                 game_data("1888"))
    assert standing_refusal(both, "E17", TILES["L40a"], 0) is None
    assert standing_refusal(both, "F16", TILES["L40b"], 0) is None
    assert refusal_code("E17", "L40a", 0) == "exit_into_wall"
    assert refusal_code("F16", "L40b", 0) == "exit_into_wall"


# -- tiles that may not --------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_id", "tile", "rotation", "code", "words"),
    [
        ("C9", "9", 0, "wrong_color", "yellow"),                 # yellow on printed yellow
        ("B18", "5", 0, "wrong_color", "green"),
        ("D10", "X7", 0, "label_mismatch", "OO"),                 # OO on a plain city
        ("D10", "L42", 0, "label_mismatch", "B"),                 # B away from Beijing
        ("C9", "8858", 1, "label_mismatch", "OO"),                # OO on Beijing
        ("C9", "611", 0, "label_mismatch", "B"),                  # unlabelled on Beijing
        ("H14", "3", 0, "towns_changed", "town"),                 # town tile on a city hex
        ("D12", "57", 1, "towns_changed", "town"),                # city tile on a town hex
        ("B6", "58", 0, "towns_changed", "town"),                 # one-town tile on two towns
        ("G15", "5", 0, "cities_changed", "cit"),                 # city tile on plain hex
        ("C9", "L42", 1, "track_dropped", "edge 1"),             # printed Beijing track lost
        ("B18", "8858", 2, "track_dropped", "edge 1"),
        ("C15", "9", 1, "exit_impassable", "impassable"),         # C15 edge 4
        ("C15", "8", 3, "exit_impassable", "impassable"),         # C15 edge 5
        ("D16", "9", 2, "exit_impassable", "impassable"),         # D16 edge 2
        ("G17", "7", 4, "exit_off_map", "off the map"),
        ("G17", "9", 0, "exit_into_wall", "H16"),                 # harbour has no track there
        ("C13", "611", 1, "exit_into_wall", "D14"),               # sea
        ("A7", "9", 0, "hex_takes_no_tiles", "gray"),
        ("D14", "8", 0, "hex_takes_no_tiles", "blue"),
        ("A1", "7", 0, "hex_takes_no_tiles", "red"),
        ("H4", "L39", 5, "special_tile_wrong_hex", "H2"),
        ("E17", "L40b", 2, "special_tile_wrong_hex", "F16"),      # keeps E17's track, wrong tile
        ("G15", "L41", 0, "special_tile_wrong_hex", "C5"),
        ("H2", "L39", 0, "track_dropped", "edge 3"),              # Xi'an only at rotation 5
    ],
)
def test_tiles_that_may_not_stand(
    hex_id: str, tile: str, rotation: int, code: str, words: str
) -> None:
    refusal = standing_refusal(Board({}, {}, game_data("1888")), hex_id, TILES[tile], rotation)
    assert refusal is not None and refusal.code == code
    assert words in refusal.message


def test_old_cities_must_stay_separate_cities() -> None:
    """RULES.md §6.5 #2: L42's cities on edges 3 and 4 may not merge into one new city."""
    old = PlacedTile(TILES["L42"], 0)
    refusal = paths_refusal(old, PlacedTile(TILES["8865"], 0))  # all L42 exits, 2 cities
    assert refusal is not None and refusal.code == "city_connections_changed"
    assert paths_refusal(PlacedTile(game_data("1888").hexes["C9"].preprinted, 0),
                         PlacedTile(TILES["L42"], 0)) is None


def test_kept_rotations() -> None:
    c9 = PlacedTile(game_data("1888").hexes["C9"].preprinted, 0)
    assert kept_rotations(c9, TILES["L42"]) == [0, 2, 4]
    assert kept_rotations(PlacedTile(game_data("1888").hexes["E17"].preprinted, 0), TILES["L40a"]) == [0]
    assert kept_rotations(PlacedTile(game_data("1888").hexes["F16"].preprinted, 0), TILES["L40b"]) == [0]
    assert kept_rotations(PlacedTile(game_data("1888").hexes["H2"].preprinted, 0), TILES["L39"]) == [5]
    assert kept_rotations(PlacedTile(TILES["9"], 0), TILES["18"]) == [0, 3]


def test_distinct_rotations_drop_identical_track() -> None:
    assert distinct_rotations(TILES["9"]) == [0, 1, 2]       # straight: 3 ways
    assert distinct_rotations(TILES["8892"]) == [0]          # all six edges to one city
    assert distinct_rotations(TILES["1"]) == [0, 1, 2]       # towns swap numbers at +3
    assert distinct_rotations(TILES["8"]) == list(range(6))
    assert track_key(PlacedTile(TILES["9"], 1)) == track_key(PlacedTile(TILES["9"], 4))


# -- state files with tiles that cannot stand ------------------------------------------


def _state(real_states: dict[str, Any], extra: list[dict[str, Any]]) -> dict[str, Any]:
    raw = copy.deepcopy(real_states["129026-138"]["state"])
    # Phase D allows every tile colour (RULES.md §8), so only whether the tile can
    # stand is at stake; its trains are the D's (earlier ones rust, RULES.md §9.2).
    raw["phase"], raw["trains"] = "D", ["D"]
    raw["tiles"].extend(extra)
    return raw  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("tile", "words"),
    [
        ({"hex": "C15", "tile": "9", "rotation": 1}, "impassable"),
        ({"hex": "D10", "tile": "X7", "rotation": 0}, "hex D10 is listed twice"),
        ({"hex": "D8", "tile": "X7", "rotation": 0}, "OO"),
        ({"hex": "H4", "tile": "L39", "rotation": 5}, "H2"),
        ({"hex": "A7", "tile": "9", "rotation": 0}, "gray"),
        ({"hex": "D12", "tile": "57", "rotation": 1}, "town"),
        ({"hex": "G17", "tile": "7", "rotation": 4}, "off the map"),
        ({"hex": "E17", "tile": "L40a", "rotation": 0}, "F16"),
        ({"hex": "C9", "tile": "L42", "rotation": 1}, "drops the track"),
        ({"hex": "B18", "tile": "14", "rotation": 0}, "OO"),
    ],
)
def test_parse_state_names_the_bad_tile(
    real_states: dict[str, Any], tile: dict[str, Any], words: str
) -> None:
    raw = _state(real_states, [tile])
    index = len(raw["tiles"]) - 1
    with pytest.raises(MalformedInput) as err:
        parse_state(raw)
    assert err.value.field.startswith(f"tiles[{index}]")
    assert words in err.value.reason


def test_parse_state_accepts_the_ferry_pair(real_states: dict[str, Any]) -> None:
    raw = _state(real_states, [{"hex": "E17", "tile": "L40a", "rotation": 0}])
    raw["tiles"].append({"hex": "F16", "tile": "L40b", "rotation": 0})
    state = parse_state(raw)
    assert state.board.tile_on("E17").tile.name == "L40a"
