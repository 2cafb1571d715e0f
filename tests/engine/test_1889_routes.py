"""1889 at route level (issue 36): boards built by hand, each expected value added up from
1889's rules as 18xx.games states them (``lib/engine/game/g_1889``, engine commit 111f7f69)
and the engine's own parts (``lib/engine/part/revenue_center.rb``, ``lib/engine/hex.rb``).

* A train named D earns an off-board's diesel value (``route_base_revenue``): Naruto L7
  prints ``yellow_20|brown_40|diesel_80``, so from Tokushima K8 (tile 57, ¥20) a D earns
  20 + 80 = ¥100 and a 6-train in phase D 20 + 40 = ¥60; the solver gives the off-board to
  the train that earns most there, and the judge and the breakdown price a route the same.
* The map is flat-topped (``LAYOUT = :flat``): edge 0 faces down (0, +2), edge 4 up and
  right (+1, −1) (``Hex::DIRECTIONS[:flat]``), and moves name their sides S, SW, NW, N,
  NE, SE.
* Tile lays: the port tile 437 only by the Mitsubishi Ferry on its four coastal towns;
  the Sumitomo Mines' ¥80 discount on mountains, not on water and mountain; Kotohira's
  own upgrade cost; the beginner game's hexes without blockers.
* Game level is refused, naming the step the engine lacks.
"""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.board.lay_cost import lay_cost, terrain_discounts
from route18xx.engine.board.tile_abilities import tile_ability
from route18xx.engine.errors import MalformedInput, TitleDataError
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.suggest.move_words import tile_exits
from route18xx.engine.titles import title_named



def _state(phase: str, corp: str, trains: list[str], tiles: list[tuple[str, str, int]],
           tokens: list[tuple[str, int, str]], **more: Any) -> dict[str, Any]:
    return {
        "title": "1889", "rule_set": "standard", "phase": phase, "corporation": corp,
        "trains": trains,
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "corporation": k} for h, c, k in tokens],
        **more,
    }


#: Tokushima K8 with tile 57 at rotation 1: its city joins edges 1 (SW, Komatsujima J9)
#: and 4 (NE, Naruto L7); AR's home token there.
TOKUSHIMA = [("K8", "57", 1)]
AR_HOME = [("K8", 0, "AR")]
#: The port tile 437 on Komatsujima J9 at rotation 2: its town (¥30) joins edges 2 and 4
#: (NW, and NE towards K8).
PORT = [("J9", "437", 2)]


# ---- stop values by train ------------------------------------------------------------------


@pytest.mark.parametrize("train, revenue", [("D", 20 + 80), ("6", 20 + 40)])
def test_a_d_earns_the_diesel_value_of_an_off_board(train: str, revenue: int) -> None:
    report = api.solve_routes(_state("D", "AR", [train], TOKUSHIMA, AR_HOME))
    assert report["proven_optimal"]
    assert report["revenue"] == revenue
    (route,) = report["routes"]
    assert route["nodes"] == ["K8-0", "L7-0"]


def test_the_off_board_goes_to_the_train_that_earns_most_there() -> None:
    """6 and D: J9–K8 and K8–L7 share only the city. D on L7 (20 + 80) and the 6 on the
    port (30 + 20) make ¥150; the other way round ¥110 (20 + 40, 30 + 20); the D alone
    through all three ¥130 (30 + 20 + 80)."""
    state = _state("D", "AR", ["6", "D"], TOKUSHIMA + PORT, AR_HOME)
    best = api.solve_routes(state)
    assert best["proven_optimal"] and best["revenue"] == 150
    assert {r["train"]: r["nodes"] for r in best["routes"]} == {
        "6-0": ["J9-0", "K8-0"], "D-0": ["K8-0", "L7-0"]}
    swapped = api.check_routes(state, [{"train": "6-0", "connections": [["K8", "L7"]]},
                                       {"train": "D-0", "connections": [["J9", "K8"]]}])
    assert swapped["legal"] and swapped["revenue"] == 60 + 50
    alone = api.check_routes(state, [{"train": "D-0", "connections": [["J9", "K8"], ["K8", "L7"]]}])
    assert alone["legal"] and alone["revenue"] == 130


def test_the_breakdown_names_the_diesel_value() -> None:
    state = _state("D", "AR", ["D"], TOKUSHIMA, AR_HOME)
    report = api.check_routes(state, [{"train": "D-0", "connections": [["K8", "L7"]]}])
    (route,) = report["routes"]
    naruto = next(s for s in route["breakdown"]["stops"] if s["node"] == "L7-0")
    assert naruto["value"] == 80 and "diesel value" in naruto["rule"]
    assert route["breakdown"]["stops_value"] == route["revenue"] == 100


def test_a_yellow_phase_pays_the_yellow_value_even_to_a_long_train() -> None:
    """Phase 4 (yellow and green tiles): Naruto pays its yellow ¥20 (it prints no green
    value, so the newest older colour it lists): K8 20 + L7 20 = ¥40."""
    assert api.solve_routes(_state("4", "AR", ["4"], TOKUSHIMA, AR_HOME))["revenue"] == 40


# ---- the flat-topped map --------------------------------------------------------------------


def test_neighbours_are_flat_topped() -> None:
    hexes = game_data("1889").hexes
    assert game_data("1889").layout == "flat" and game_data("1830").layout == "pointy"
    # Kotohira I4 (x 8, y 3): I6 below (0, +2), H5 down-left, H3 up-left, I2 above,
    # J3 up-right, J5 down-right.
    assert dict(hexes["I4"].neighbors) == {0: "I6", 1: "H5", 2: "H3", 3: "I2", 4: "J3", 5: "J5"}
    assert hexes["K8"].neighbors[4] == "L7" and hexes["L7"].neighbors[1] == "K8"
    assert (hexes["I4"].x, hexes["I4"].y) == (8, 3)


def test_moves_name_the_sides_of_a_flat_hex() -> None:
    tiles = game_data("1889").tiles
    assert tile_exits(tiles["57"], 1, "flat") == ("SW–NE (city)",)
    assert tile_exits(tiles["57"], 1, "pointy") == ("W–E (city)",)
    assert tile_exits(tiles["9"], 0, "flat") == ("S–N",)


# ---- tile lays and privates -----------------------------------------------------------------


def test_the_port_tile_stands_only_on_the_ferrys_coastal_towns() -> None:
    assert api.solve_routes(_state("3", "AR", ["3"], TOKUSHIMA + PORT, AR_HOME))["revenue"] == 30 + 20 + 20
    with pytest.raises(MalformedInput, match="437 belongs on B11, G10, I12, J9 only, not on J5"):
        api.solve_routes(_state("3", "AR", ["3"], TOKUSHIMA + [("J5", "437", 0)], AR_HOME))
    data = game_data("1889")
    assert data.tiles["437"].special_only
    assert all("437" not in h.lay_candidates for h in data.hexes.values())


def test_only_a_lay_of_the_corporations_turn_is_a_private_lay() -> None:
    """The Ehime Railway's C4 lay is made by its selling player at the sale (``when:
    sold``) and the Mitsubishi Ferry's by its owning player (``owner_type: player``):
    neither is a lay of the owning corporation's turn."""
    rule_set = title_named("1889").rule_sets["standard"]
    data = game_data("1889")
    assert tile_ability(rule_set, "ER", data) is None
    assert tile_ability(rule_set, "MF", data) is None


@pytest.mark.parametrize("hex_id, owned, cost", [
    ("E4", (), 80), ("E4", ("SMR",), 0),   # mountain: the discount takes all ¥80
    ("H5", ("SMR",), 80),                  # water and mountain: no discount (exact match)
    ("I4", ("SMR",), 80),                  # Kotohira's own ¥80, no terrain
    ("D9", ("SMR",), 0),                   # a plain hex
])
def test_the_sumitomo_mines_discount_only_mountains(hex_id: str, owned: tuple[str, ...], cost: int) -> None:
    data = game_data("1889")
    discounts = terrain_discounts(data, "standard", owned)
    assert lay_cost(data.hexes[hex_id].preprinted, hex_id, discounts) == cost


def test_kotohiras_tiles_cost_their_own_upgrade() -> None:
    """Tile 438 (and 439) print ``upgrade=cost:80``: upgrading them costs ¥80 again."""
    tiles = game_data("1889").tiles
    assert lay_cost(tiles["438"], "I4", ()) == 80 and lay_cost(tiles["439"], "I4", ()) == 80
    assert lay_cost(tiles["57"], "K8", ()) == 0


def test_suggestions_lay_on_mountains_free_with_the_sumitomo_mines() -> None:
    """TR at home in Kouchi F9 (green, edges NW E8, N F7, NE G8, SE G10) with no cash:
    F7 and G8 are mountains (¥80), E8 plain, G10 a town; with SMR the mountains are free."""
    base = _state("3", "TR", ["3"], [], [("F9", 0, "TR")], cash=0)

    def hexes(privates: list[str]) -> set[str]:
        found = api.suggest_moves(dict(base, privates=privates), top=100)
        return {s.move.hex for s in found.suggestions if s.move.kind == "tile"}

    assert hexes([]) == {"E8", "G10"}
    assert hexes(["SMR"]) == {"E8", "F7", "G8", "G10"}


def test_the_beginner_game_has_no_blockers() -> None:
    hexes = game_data("1889").hexes
    assert hexes["K4"].blockers("standard") == ("TR",) and hexes["C4"].blockers("standard") == ("ER",)
    assert hexes["K4"].blockers("beginner_game") == () and hexes["C4"].blockers("beginner_game") == ()
    assert game_data("1889").hex_blockers("beginner_game") == frozenset()


# ---- the title's level ----------------------------------------------------------------------


def test_a_state_names_the_title_and_its_rule_sets() -> None:
    title = title_named("1889")
    assert list(title.rule_sets) == ["standard", "beginner_game"]
    assert title.rule_set_of_options(["beginner_game"]).name == "beginner_game"
    with pytest.raises(MalformedInput, match="rule_set"):
        api.solve_routes(dict(_state("2", "AR", ["2"], TOKUSHIMA, AR_HOME), rule_set="north"))


def test_a_game_of_1889_starts_its_private_auction() -> None:
    """1889 is played at game level (issue 36 item 3; its logs: tests/game/test_replay_1889.py)."""
    log = {"id": 1, "title": "1889", "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                                                 {"id": 3, "name": "c"}],
           "actions": [], "settings": {"optional_rules": []}}
    assert "1889" in api.titles_replayed()
    report = api.replay_game(log, solve=False).to_json()
    assert report["title"] == "1889" and report["errors"] == []
