"""18Chesapeake at route level (issue 36): boards built by hand, each expected value added up
from 18Chesapeake's rules as 18xx.games states them (``lib/engine/game/g_18_chesapeake``,
engine commit 111f7f69) and the engine's own parts (``lib/engine/route.rb``,
``lib/engine/part/revenue_center.rb``).

* Off-board areas (``groups``): West Virginia Coal is A13 and B14, Pittsburgh A3 and B2; a
  route stops at one hex of an area at most (``route.rb`` "Cannot use group ... more than
  once"). From Lynchburg C13 (tile 15, $30) a route reaches A13 over B12 and B14 directly.
* Off-boards priced in four colours (``yellow_40|green_50|brown_60|gray_80``): the phase's
  newest tile colour picks the value, gray from phase D.
* Tiles 7, 8 and 9 are unlimited; a teleport (C&OC on D2) is the turn's one tile action;
  the C-P lays a tile on each of H2 and I3, joined.
* Game level is refused, naming what the engine lacks.
"""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.errors import MalformedInput, RouteLevelOnly
from route18xx.engine.game.game import Game
from route18xx.engine.titles import title_named

#: Lynchburg C13 with tile 15 at rotation 1 (exits SW to B14, NW to B12, N, NE), B12 with
#: tile 8 at rotation 5 (SE to C13, SW to A13); the N&W's home token on C13.
LYNCHBURG: dict[str, Any] = {
    "title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "N&W",
    "trains": ["3"],
    "tiles": [{"hex": "C13", "tile": "15", "rotation": 1}, {"hex": "B12", "tile": "8", "rotation": 5}],
    "tokens": [{"hex": "C13", "city": 0, "corporation": "N&W"}],
}


@pytest.mark.parametrize("phase, train, value", [("3", "3", 50), ("5", "5", 60), ("D", "D", 80)])
def test_one_route_takes_one_hex_of_west_virginia_coal(phase: str, train: str, value: int) -> None:
    """A13 – C13 – B14 would earn two off-board values; West Virginia Coal is one area, so
    the best single route is one of them plus Lynchburg's $30 (green $50, brown $60, gray
    $80: the four-colour off-board)."""
    report = api.solve_routes({**LYNCHBURG, "phase": phase, "trains": [train]})
    assert report["proven_optimal"] and report["revenue"] == value + 30
    (route,) = report["routes"]
    assert len(route["nodes"]) == 2 and "C13-0" in route["nodes"]


def test_two_trains_take_one_hex_of_the_area_each() -> None:
    """The area binds one route: two 3-trains run A13 – C13 and C13 – B14, $80 each."""
    report = api.solve_routes({**LYNCHBURG, "trains": ["3", "3"]})
    assert report["revenue"] == 160
    assert sorted(sorted(r["nodes"]) for r in report["routes"]) == [["A13-0", "C13-0"],
                                                                     ["B14-0", "C13-0"]]


def test_the_judge_refuses_a_route_through_both_hexes_of_an_area() -> None:
    checked = api.check_routes(LYNCHBURG, [{"train": "3-0", "connections": [
        ["A13", "B12", "C13"], ["C13", "B14"]]}])
    assert not checked["legal"]
    assert [v["code"] for v in checked["violation_details"]] == ["GROUP_TWICE"]
    assert "West Virginia Coal" in checked["violations"][0]


def test_pittsburgh_a3_is_a_city_of_the_area_and_pays_by_colour() -> None:
    """The PLE's home A3 is a city in a red hex (``city=revenue:yellow_40|...``, Pittsburgh's
    area) with one exit, SE to Charleroi & Connellsville B4: with tile 56 there (towns $10)
    a 2-train earns A3's value and a town's (phase 2: 40 + 10; phase D: 80 + 10)."""
    state = {"title": "18Chesapeake", "rule_set": "standard", "phase": "2", "corporation": "PLE",
             "trains": ["2"], "tiles": [{"hex": "B4", "tile": "56", "rotation": 2}],
             "tokens": [{"hex": "A3", "city": 0, "corporation": "PLE"}]}
    assert api.solve_routes(state)["revenue"] == 50
    assert api.solve_routes({**state, "phase": "D", "trains": ["D"]})["revenue"] == 90
    data = title_named("18Chesapeake").data
    assert data.hexes["A3"].preprinted.nodes[0].groups == ("Pittsburgh",)
    assert data.hexes["B2"].preprinted.nodes[0].groups == ("Pittsburgh",)


def test_unlimited_tiles_may_stand_on_many_hexes() -> None:
    """Tiles 7, 8 and 9 are unlimited (g_18_chesapeake/map.rb ``'unlimited'``; tiles.json
    count null): four 9s are a legal board."""
    tiles = [{"hex": h, "tile": "9", "rotation": 0} for h in ("C7", "C9", "E7", "E9")]
    state = api.read_state({**LYNCHBURG, "tiles": LYNCHBURG["tiles"] + tiles})
    assert state.rule_set.tile_count(state.data.tiles["9"]) > 100
    assert state.rule_set.tile_count(state.data.tiles["57"]) == 7


def test_a_teleport_is_the_turns_tile_action() -> None:
    """The C&OC's lay of 57 on D2 (a ``teleport``) counts as the corporation's tile lay
    (entities.rb: "counts as the corporation's tile lay action"): a turn lists it alone, and
    a normal lay beside it is refused; no normal lay is suggested after it."""
    state = {"title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "B&O",
             "trains": ["2"], "tiles": [{"hex": "D2", "tile": "57", "rotation": 1}],
             "tokens": [{"hex": "H6", "city": 0, "corporation": "B&O"},
                        {"hex": "D2", "city": 0, "corporation": "B&O"}],
             "privates": ["C&OC"], "tiles_laid": [{"hex": "D2", "private": "C&OC"}]}
    assert api.read_state(state).tiles_laid == (("D2", "C&OC"),)
    with pytest.raises(MalformedInput, match="one tile action per turn"):
        api.read_state({**state, "tiles_laid": [{"hex": "D2", "private": "C&OC"}, {"hex": "G5"}]})
    moves = api.suggest_moves(state, top=100).to_json()["suggestions"]
    assert moves == []


def test_the_c_p_lays_both_its_hexes_joined() -> None:
    """The C-P lays 8 or 9 on H2 and I3 together, the two tiles joined (``must_lay_all``,
    ``must_lay_together``): every suggestion of it names both hexes, each pair once, and a
    whole turn lays both or neither (Strasburg H4's 57 faces H2 to the north)."""
    state = {"title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "SRR",
             "trains": ["3"], "tiles": [{"hex": "H4", "tile": "57", "rotation": 0}],
             "tokens": [{"hex": "H4", "city": 0, "corporation": "SRR"}],
             "privates": ["C-P"], "cash": 100}
    moves = [m for m in api.suggest_moves(state, top=100).to_json()["suggestions"]
             if m["private"] == "C-P"]
    assert moves
    pairs = [tuple((lay["hex"], lay["tile"], lay["rotation"]) for lay in m["lays"]) for m in moves]
    assert all([h for h, _, _ in pair] == ["H2", "I3"] for pair in pairs)
    assert len(set(pairs)) == len(pairs)
    turn = api.suggest_turn(state, top=100).to_json()["plans"]
    assert any({lay["hex"] for lay in plan["lays"]} >= {"H2", "I3"} for plan in turn)
    assert not any(len([l for l in plan["lays"] if l["private"] == "C-P"]) == 1 for plan in turn)


def test_a_game_is_refused_at_game_level() -> None:
    with pytest.raises(RouteLevelOnly, match="route level only"):
        Game("standard", [1, 2, 3], title="18Chesapeake")
