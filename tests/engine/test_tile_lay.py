"""Tile-lay legality in the track step (RULES.md §6.5 #1–#10, §7): refusals and costs."""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine.board.board import Board, PlacedTile
from route18xx.engine.errors import IllegalAction, MalformedInput
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.titles import TITLES
from route18xx.engine.inputs.state_file import parse_state
from route18xx.engine.board.tile_lay import (
    TileLay,
    check_in_context,
    check_tile_lay,
    legal_tile_lays,
    make_context,
    tiles_left,
)
from route18xx.engine.board.tile_rules import track_key
from tests.engine.north_boards import assert_refused, board

#: 1888's rule sets (engine/data/1888/rule_sets.json)
NORTH = TITLES["1888"].rule_sets["north"]
PROTOTYPE = TITLES["1888"].rule_sets["prototype"]

TILES = game_data("1888").tiles


#: LYR at home in Yantai (F16), nothing built: its first tile goes on G15, G17 or F14.
LYR_HOME = board(tokens=[("F16", 0, "LYR")])
#: LYR with a straight on G15 (F16–H14), a yellow city in Qingdao; JHR in Beijing.
LYR_LINE = board(
    [("G15", "9", 0), ("H14", "6", 2)],
    [("F16", 0, "LYR"), ("H14", 0, "LYR"), ("C9", 1, "JHR")],
)
#: JHR in Qinhuangdao with a city tile reaching C11 and C15.
JHR_C13 = board([("C13", "57", 1)], [("C13", 0, "JHR")])


def lay(b: Board, corp: str, hex_id: str, tile: str, rotation: int, **kw: Any) -> TileLay:
    kw.setdefault("phase", "2")
    kw.setdefault("rule_set", "north")
    return check_tile_lay(b, corp, hex_id, tile, rotation, **kw)


def refused(code: str, *words: str, b: Board, args: tuple[str, str, str, int], **kw: Any) -> None:
    assert_refused(lambda: lay(b, *args, **kw), code, *words)


# -- refusals: one rule each -------------------------------------------------------------


def test_green_tile_in_phase_2() -> None:
    refused("color_not_available", "green", "phase 2",
            b=LYR_LINE, args=("LYR", "G15", "23", 0))


def test_gray_tile_in_phase_5() -> None:
    b = board([("C9", "8892", 0)], [("C9", 0, "JZR")])
    refused("color_not_available", "gray", "phase 5",
            b=b, args=("JZR", "C9", "8893", 0), phase="5")


def test_brown_on_a_yellow_tile() -> None:
    refused("wrong_color", "must be green", b=LYR_LINE, args=("LYR", "G15", "41", 0), phase="5")


def test_yellow_on_a_yellow_tile() -> None:
    refused("wrong_color", "must be green", b=LYR_LINE, args=("LYR", "G15", "8", 0))


def test_green_on_a_white_hex() -> None:
    refused("wrong_color", "must be yellow", b=LYR_HOME, args=("LYR", "G15", "23", 0), phase="3")


def test_a_gray_tile_is_final() -> None:
    b = board([("C9", "8893", 0)], [("C9", 0, "JZR")])
    refused("wrong_color", "cannot be upgraded", b=b, args=("JZR", "C9", "8892", 0), phase="D")


def test_oo_tile_on_a_plain_city() -> None:
    refused("label_mismatch", "OO", b=LYR_LINE, args=("LYR", "H14", "8858", 0), phase="3")


def test_b_tile_away_from_beijing() -> None:
    refused("label_mismatch", "B", b=LYR_LINE, args=("LYR", "H14", "L42", 0), phase="3")


def test_plain_tile_on_beijing() -> None:
    b = board(tokens=[("C9", 0, "JZR")])
    refused("label_mismatch", "B", b=b, args=("JZR", "C9", "14", 0), phase="3")


def test_town_tile_on_a_city_hex() -> None:
    b = board([("G15", "9", 0)], [("F16", 0, "LYR")])
    refused("towns_changed", "town", b=b, args=("LYR", "H14", "4", 0))


def test_city_tile_on_a_plain_hex() -> None:
    refused("cities_changed", "cit", b=LYR_HOME, args=("LYR", "G15", "57", 0))


def test_upgrade_that_drops_a_path() -> None:
    # 9 joins edges 0–3 on G15; tile 18 at rotation 1 has 1–4 and 2–3 only
    refused("track_dropped", "edge 0", "edge 3", b=LYR_LINE, args=("LYR", "G15", "18", 1),
            phase="3")


def test_beijing_upgrade_must_keep_the_printed_track() -> None:
    b = board(tokens=[("C9", 0, "JZR")])
    refused("track_dropped", "edge 1", b=b, args=("JZR", "C9", "L42", 1), phase="3")


def test_exit_across_an_impassable_border() -> None:
    # C15 edge 4 (to C17) is impassable; JHR reaches C15's side 1 from C13
    refused("exit_impassable", "edge 4", "impassable", b=JHR_C13, args=("JHR", "C15", "9", 1))
    refused("exit_impassable", "edge 5", b=JHR_C13, args=("JHR", "C15", "8", 3))


def test_exit_off_the_map() -> None:
    refused("exit_off_map", "edge 4", "off the map", b=LYR_HOME, args=("LYR", "G17", "7", 4))


def test_exit_into_the_sea() -> None:
    refused("exit_into_wall", "H16", b=LYR_HOME, args=("LYR", "G17", "9", 0))


def test_track_tile_on_a_blue_hex() -> None:
    refused("hex_takes_no_tiles", "blue", b=LYR_HOME, args=("LYR", "F16", "57", 0))


def test_unconnected_lay() -> None:
    refused("not_connected", "D8", "LYR", b=LYR_LINE, args=("LYR", "D8", "9", 0))


def test_no_company_token_no_network() -> None:
    refused("not_connected", b=LYR_LINE, args=("TJL", "E3", "57", 0))


def test_new_track_must_touch_a_reached_side() -> None:
    # LYR reaches G15 only on side 3 (from Yantai); tile 8 at rotation 0 uses edges 0 and 2
    refused("no_exit_on_network", "[0, 2]", "[3]", b=LYR_HOME, args=("LYR", "G15", "8", 0))


def test_a_full_city_of_another_company_cuts_the_network() -> None:
    # ZDR fills Qingdao (one slot): LYR cannot build beyond it towards H12
    b = board([("G15", "9", 0), ("H14", "57", 1)], [("F16", 0, "LYR"), ("H14", 0, "ZDR")])
    refused("not_connected", b=b, args=("LYR", "H12", "9", 1))
    assert lay(b, "ZDR", "H12", "9", 1).cost == 20


def test_supply_exhausted() -> None:
    refused("no_tile_left", "9", b=LYR_HOME, args=("LYR", "G15", "9", 0),
            tiles_in_supply={"9": 0, "8": 3})
    assert lay(LYR_HOME, "LYR", "G15", "8", 1, tiles_in_supply={"8": 1}).cost == 30


def test_supply_counts_tiles_on_the_board_per_rule_set() -> None:
    # 43 has one copy in north, two in the prototype (RULES.md §1.1)
    b = board([("H10", "43", 2), ("G15", "16", 0)], [("F16", 0, "LYR")])
    assert tiles_left(b, NORTH)["43"] == 0 and tiles_left(b, PROTOTYPE)["43"] == 1
    refused("no_tile_left", "43", b=b, args=("LYR", "G15", "43", 0), phase="5")
    assert lay(b, "LYR", "G15", "43", 0, phase="5", rule_set="prototype").cost == 0


def test_heng_shan_blocks_c5_while_player_owned() -> None:
    b = board([("C7", "9", 1)], [("C9", 0, "JZR")])  # JZR's track reaches C5's side 4
    refused("hex_blocked", "C5", "HS", b=b, args=("JZR", "C5", "9", 1),
            player_owned_blockers={"HS"})
    assert lay(b, "JZR", "C5", "9", 1).cost == 40


def test_special_tile_in_the_normal_track_action() -> None:
    b = board([("G3", "8", 4)], [("H4", 0, "TJL")])
    refused("special_tile", "L39", "H2", b=b, args=("TJL", "H2", "L39", 5))


def test_l39_without_owning_terracotta_army() -> None:
    refused("private_not_owned", "Terracotta Army", b=LYR_HOME,
            args=("LYR", "H2", "L39", 5), special="TA")


def test_ferry_tile_in_the_wrong_rotation() -> None:
    refused("wrong_rotation", "rotation 1", b=LYR_HOME, args=("LYR", "E17", "L40a", 1),
            special="YRF", owned_privates={"YRF"})


def test_ferry_tile_on_the_other_ferry_hex() -> None:
    refused("special_tile_wrong_hex", "F16", b=LYR_HOME, args=("LYR", "E17", "L40b", 2),
            special="YRF", owned_privates={"YRF"})


def test_terracotta_army_on_another_hex() -> None:
    refused("ability_hex", "H2", b=LYR_HOME, args=("LYR", "H4", "L39", 5),
            special="TA", owned_privates={"TA"})


def test_heng_shan_mine_needs_an_empty_c5() -> None:
    b = board([("C5", "9", 1)])
    refused("hex_not_empty", "C5", b=b, args=("JZR", "C5", "L41", 0),
            special="HS", owned_privates={"HS"})


def test_great_wall_only_yellow_tiles_on_wall_hexes() -> None:
    refused("ability_hex", "D8", b=LYR_HOME, args=("LYR", "D8", "8", 0),
            special="CW", owned_privates={"CW"})
    refused("ability_tile", "14", b=LYR_HOME, args=("LYR", "C13", "14", 0),
            special="CW", owned_privates={"CW"}, phase="3")


def test_great_wall_second_tile_must_join_the_first() -> None:
    first = board([("D4", "8", 0)])  # edges 0 (E3) and 2 (C3)
    kw = dict(special="CW", owned_privates={"CW"}, first_special_lay="D4")
    assert lay(first, "TJL", "C3", "5", 4, **kw).cost == 0  # C3 edge 5 faces D4 edge 2
    refused("not_connected_to_first", "D4", b=first, args=("TJL", "C3", "5", 2), **kw)


def test_a_private_without_a_tile_ability() -> None:
    refused("no_tile_ability", "KT", b=LYR_HOME, args=("LYR", "G15", "9", 0),
            special="KT", owned_privates={"KT"})


def test_no_money_for_the_terrain() -> None:
    refused("insufficient_cash", "30", "20", b=LYR_HOME, args=("LYR", "G15", "9", 0), cash=20)


def test_unknown_ids_are_malformed_input() -> None:
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "LYR", "Z99", "9", 0)
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "LYR", "G15", "999", 0)
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "LYR", "G15", "9", 6)
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "XXX", "G15", "9", 0)
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "LYR", "G15", "9", 0, phase="7")
    with pytest.raises(MalformedInput):
        lay(LYR_HOME, "LYR", "G15", "9", 0, special="ZZ")


# -- legal lays and their cost (RULES.md §6.5 #6) -----------------------------------------


def test_lyr_first_tile_on_g15_pays_the_mountain() -> None:
    result = lay(LYR_HOME, "LYR", "G15", "9", 0, cash=30)
    assert result == TileLay("G15", "9", 0, 30, None, None)


def test_upgrades_of_a_laid_tile_are_free() -> None:
    result = lay(LYR_LINE, "LYR", "G15", "23", 0, phase="3")
    assert (result.cost, result.replaces) == (0, "9")


def test_beijing_pays_10_on_its_first_upgrade_only() -> None:
    b = board(tokens=[("C9", 0, "JZR"), ("C9", 1, "JHR")])
    first = lay(b, "JZR", "C9", "L42", 0, phase="3")
    assert (first.cost, first.replaces) == (10, None)
    b = b.with_tile("C9", TILES["L42"], 0)
    second = lay(b, "JHR", "C9", "8892", 0, phase="5")
    assert (second.cost, second.replaces) == (0, "L42")


def test_h4_pays_20_on_its_first_upgrade() -> None:
    b = board(tokens=[("H4", 0, "TJL")])
    assert lay(b, "TJL", "H4", "8858", 1, phase="3").cost == 20


def test_heng_shan_open_c5_pays_40_and_the_mine_is_free() -> None:
    b = board([("C7", "9", 1)], [("C9", 0, "JZR")])
    assert lay(b, "JZR", "C5", "8", 2).cost == 40
    mine = lay(LYR_HOME, "LYR", "C5", "L41", 1, special="HS", owned_privates={"HS"})
    assert mine == TileLay("C5", "L41", 1, 0, None, "HS")  # free, no connection needed


def test_terracotta_army_and_ferry_lays() -> None:
    kw: dict[str, Any] = dict(owned_privates={"TA", "YRF"})
    assert lay(LYR_HOME, "ZDR", "H2", "L39", 5, special="TA", **kw).cost == 0
    assert lay(LYR_HOME, "ZDR", "E17", "L40a", 0, special="YRF", **kw).cost == 0
    assert lay(LYR_HOME, "ZDR", "F16", "L40b", 0, special="YRF", **kw).cost == 0


def test_great_wall_waives_the_terrain_and_the_connection() -> None:
    result = lay(LYR_HOME, "LYR", "D4", "8", 0, special="CW", owned_privates={"CW"})
    assert result == TileLay("D4", "8", 0, 0, None, "CW")
    refused("not_connected", b=LYR_HOME, args=("LYR", "D4", "8", 0))  # not as a normal lay


def test_a_token_hex_counts_every_side_as_reached() -> None:
    b = board(tokens=[("F6", 0, "HJR")])  # bare white home city
    assert lay(b, "HJR", "F6", "6", 0).cost == 0


# -- enumeration -----------------------------------------------------------------------


def test_legal_tile_lays_from_home() -> None:
    lays = legal_tile_lays(LYR_HOME, "LYR", phase="2", rule_set="north")
    assert {(x.hex, x.tile) for x in lays} == {
        ("G15", "7"), ("G15", "8"), ("G15", "9"), ("G17", "7"),
        ("F14", "7"), ("F14", "8"),
    }
    assert {x.cost for x in lays if x.hex == "G15"} == {30}
    # the only tile on G17 bends from Yantai (side 2) to G15 (side 1)
    assert [x.rotation for x in lays if x.hex == "G17"] == [1]


def test_legal_tile_lays_with_an_ability() -> None:
    lays = legal_tile_lays(LYR_HOME, "LYR", phase="2", rule_set="north",
                           special="YRF", owned_privates={"YRF"})
    assert [(x.hex, x.tile, x.rotation) for x in lays] == [("E17", "L40a", 0),
                                                            ("F16", "L40b", 0)]
    assert legal_tile_lays(LYR_HOME, "LYR", phase="2", rule_set="north", special="YRF") == []


@pytest.mark.parametrize("name", ["129026-138", "129026-466", "1888_game_end_bankrupt-300"])
def test_enumeration_equals_checking_everything(real_states: dict[str, Any], name: str) -> None:
    """``legal_tile_lays`` = every (hex, tile, rotation) ``check_tile_lay`` accepts, up to
    rotations drawing identical track (listed once)."""
    state = parse_state(real_states[name])
    corp = state.corporation.sym
    kw: dict[str, Any] = dict(phase=state.phase, rule_set=state.rule_set)
    listed = legal_tile_lays(state.board, corp, **kw)
    keys = [(x.hex, x.tile, track_key(PlacedTile(TILES[x.tile], x.rotation))) for x in listed]
    assert len(keys) == len(set(keys))  # no two rotations with identical track
    ctx = make_context(state.board, corp, **kw)
    accepted = set()
    for hex_id in state.board.data.hexes:
        for tile in TILES.values():
            for rotation in range(6):
                try:
                    check_in_context(ctx, hex_id, tile.name, rotation)
                except IllegalAction:
                    continue
                accepted.add((hex_id, tile.name, track_key(PlacedTile(tile, rotation))))
    assert accepted == set(keys)
    assert listed
