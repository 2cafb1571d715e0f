"""The typed 1888 data against the reference (RULES.md §1.1, §2, §8; data/README.md).

Figures are typed in from the rule book, so a slip in the data files or in their
loading shows here. The last tests cross-check the engine's own upgrade and exit
rules against fields the reference engine computed (``lay_candidates``,
``upgrades_to``, ``connectable_neighbors``).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.titles import TITLES
from route18xx.engine.board.tile_abilities import tile_ability
from route18xx.engine.board.tile_rules import WALL_COLORS, upgrade_candidates

#: 1888's rule sets (engine/data/1888/rule_sets.json)
NORTH = TITLES["1888"].rule_sets["north"]
PROTOTYPE = TITLES["1888"].rule_sets["prototype"]
RULE_SETS = TITLES["1888"].rule_sets

#: The private-company tiles and the one hex each may stand on (RULES.md §7.2, §7.3, §7.5).
SPECIAL_TILE_HEX = {"L39": "H2", "L40a": "E17", "L40b": "F16", "L41": "C5"}

#: The 18xx.games data the product data is compared with (copied, see tests/data/README.md).
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference" / "1888"


def _raw(name: str) -> Any:
    text = resources.files("route18xx.engine").joinpath("data", "1888", f"{name}.json").read_text("utf-8")
    return json.loads(text)


def test_map_has_73_hexes() -> None:
    assert len(game_data("1888").hexes) == 73


def test_there_are_54_tile_names() -> None:
    assert len(game_data("1888").tiles) == 54


#: RULES.md §1.1: the only tile counts that differ (north, prototype).
COUNT_DIFFERENCES = {"4": (4, 5), "15": (4, 3), "43": (1, 2), "51": (2, 1), "58": (5, 4),
                     "611": (6, 5)}


def test_tile_counts_differ_between_rule_sets_exactly_as_rules_say() -> None:
    differ = {}
    for name, tile in game_data("1888").tiles.items():
        north, proto = NORTH.tile_count(tile), PROTOTYPE.tile_count(tile)
        if north != proto:
            differ[name] = (north, proto)
    assert differ == COUNT_DIFFERENCES


def test_total_tile_copies_per_rule_set() -> None:
    tiles = game_data("1888").tiles.values()
    north = sum(NORTH.tile_count(t) for t in tiles)
    proto = sum(PROTOTYPE.tile_count(t) for t in tiles)
    # the reference tiles.json sums to 111 (north) and 109 (prototype) copies,
    # 4 of them the private companies' tiles L39, L40a, L40b, L41
    assert (north, proto) == (111, 109)
    assert north - proto == sum(n - p for n, p in COUNT_DIFFERENCES.values())
    assert sum(NORTH.tile_count(t) for t in tiles if t.special_only) == 4


def test_trains() -> None:
    trains = game_data("1888").trains
    assert {n: t.count for n, t in trains.items()} == {
        "2": 7, "3": 6, "4": 5, "5": 3, "6": 2, "D": None
    }
    assert {n: t.price for n, t in trains.items()} == {
        "2": 80, "3": 180, "4": 300, "5": 500, "6": 630, "D": 900
    }
    assert {n: t.distance for n, t in trains.items()} == {
        "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "D": None
    }
    assert trains["D"].exchange_discount  # ¥700 when trading in a 4, 5 or 6 (RULES.md §2.7)


def test_phases() -> None:
    phases = game_data("1888").phases
    assert [p.name for p in phases] == ["2", "3", "4", "5", "6", "D"]
    assert [p.train_limit for p in phases] == [4, 4, 3, 2, 2, 2]
    assert [p.operating_rounds for p in phases] == [1, 2, 2, 3, 3, 3]
    assert [p.revenue_color for p in phases] == ["yellow", "green", "green", "brown", "brown",
                                                  "gray"]
    assert phases[0].tile_colors == ("yellow",)
    assert phases[-1].tile_colors == ("yellow", "green", "brown", "gray")


#: RULES.md §2.5: home hex, home city, destination, bonus, token prices.
CORPORATIONS = {
    "JHR": ("C9", 1, "D12", 30, (0, 40, 60)),
    "SSL": ("B18", 0, "C13", 20, (0, 40, 60)),
    "CDL": ("A19", None, "E17", 20, (0, 40, 60, 80)),
    "HJR": ("F6", None, "G9", 20, (0, 40, 60, 80)),
    "TJL": ("E3", None, "H4", 20, (0, 40, 60, 80)),
    "LYR": ("F16", None, "H14", 20, (0, 40, 60)),
    "JZR": ("C9", 0, "B6", 40, (0, 40, 60)),
    "ZDR": ("G11", None, "F12", 40, (0, 40, 60)),
}


def test_corporations() -> None:
    corps = game_data("1888").corporations
    got = {
        c.sym: (c.home_hex, c.home_city_index, c.destination_hex, c.destination_bonus,
                c.token_prices)
        for c in corps.values()
    }
    assert got == CORPORATIONS
    assert {c.float_percent["north"] for c in corps.values()} == {60}
    assert {c.float_percent["prototype"] for c in corps.values()} == {50}
    assert {sum(c.share_percents) for c in corps.values()} == {100}


def test_home_reservations_match_homes() -> None:
    """RULES.md §2.6: each home city slot is reserved for its company."""
    data = game_data("1888")
    for corp in data.corporations.values():
        reservations = data.hexes[corp.home_hex].home_reservations
        assert reservations[corp.home_city_index or 0] == corp.sym


#: RULES.md §2.4: face value and income.
PRIVATES = {"KT": (25, 5), "TA": (50, 10), "HS": (75, 15), "CW": (100, 20), "YRF": (125, 25),
            "FC": (150, 30)}


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_privates(rule_set: str) -> None:
    companies = game_data("1888").companies[rule_set]
    assert {c.sym: (c.value, c.revenue) for c in companies} == PRIVATES
    for c in companies:
        assert (c.min_price, c.max_price) == (c.value / 2, c.value * 1.5)


@pytest.mark.parametrize("rule_set", [NORTH, PROTOTYPE], ids=lambda r: r.name)
def test_special_tiles_belong_to_the_abilities_that_lay_them(rule_set: Any) -> None:
    """Every special-only tile is laid by exactly one private, on a hex that ability covers."""
    data = game_data("1888")
    specials = {n for n, t in data.tiles.items() if t.special_only}
    assert specials == set(SPECIAL_TILE_HEX)
    assert {n: data.tiles[n].only_on for n in specials} == SPECIAL_TILE_HEX  # tiles.json
    for name, hex_id in SPECIAL_TILE_HEX.items():
        owners = [
            c.sym for c in data.companies[rule_set.name]
            if (a := tile_ability(rule_set, c.sym, data)) is not None and name in a.tiles
        ]
        assert len(owners) == 1
        ability = tile_ability(rule_set, owners[0], data)
        assert ability is not None and hex_id in ability.hexes


# -- the engine's rules against fields computed by the reference engine ---------------


def test_lay_candidates_equal_our_upgrade_test_for_every_hex() -> None:
    """map.json ``lay_candidates`` = our upgrade test on the preprinted tile (RULES.md §6.5 #2)."""
    data = game_data("1888")
    tiles = list(data.tiles.values())
    for hex_def in data.hexes.values():
        assert upgrade_candidates(hex_def.preprinted, tiles) == hex_def.lay_candidates, hex_def.id


def test_upgrades_to_equal_our_upgrade_test_for_every_tile() -> None:
    data = game_data("1888")
    tiles = list(data.tiles.values())
    for tile in tiles:
        assert upgrade_candidates(tile, tiles) == tile.upgrades_to, tile.name


def test_connectable_neighbors_equal_our_exit_rule() -> None:
    """map.json ``connectable_neighbors`` = our rule of which sides track may cross (§6.5 #4)."""
    board = Board({}, {}, game_data("1888"))
    for raw in _raw("map")["hexes"]:
        got = {}
        for edge in range(6):
            across = board.across(raw["id"], edge)
            if across is None:
                continue
            other = board.hex(across[0])
            if other.color in WALL_COLORS and across[1] not in board.exits(across[0]):
                continue
            got[str(edge)] = across[0]
        assert got == raw["connectable_neighbors"], raw["id"]


@pytest.mark.parametrize("name", ["map", "tiles", "phases", "trains", "companies",
                                  "corporations", "market"])
def test_product_data_equals_the_reference(name: str) -> None:
    path = REFERENCE / f"{name}.json"
    assert path.exists(), f"reference data {path} is missing (see tests/data/README.md)"
    assert _raw(name) == json.loads(path.read_text("utf-8"))


def test_derived_indexes_are_held_by_the_data() -> None:
    """Issue 25: ``GameData`` owns its derived indexes. Built once per object (the same
    object comes back), no part of ``==``, and a ``dataclasses.replace`` copy (other
    facts) builds its own instead of reading the original's."""
    import dataclasses

    from route18xx.engine.facts.geometry import map_index
    from route18xx.engine.routes.route_bounds import route_bounds

    data = game_data("1888")
    assert map_index(data) is map_index(data)
    assert route_bounds(data) is route_bounds(data)
    # RULES.md §6.9 #3: the train limit is 4 in phase 2, 2 from phase 5 on.
    late = dataclasses.replace(data, phases=data.phases[-1:])
    assert (route_bounds(data).routes, route_bounds(late).routes) == (4, 2)
    assert map_index(late) is not map_index(data)
    tile = data.tiles["8"]
    assert tile.exits(1) == frozenset((e + 1) % 6 for e in tile.exits(0))
    assert tile.exits(7) == tile.exits(1)
    assert dataclasses.replace(tile) == tile  # the memo is no field
    import copy
    import pickle

    assert "_derived" in vars(data) and "_derived" not in vars(pickle.loads(pickle.dumps(data)))
    assert "_derived" not in vars(copy.deepcopy(data))


def test_an_ability_the_engine_does_not_implement_is_refused_when_data_loads() -> None:
    """Issue 33: a title's data is read whole or refused, never with a part ignored."""
    from route18xx.engine.errors import TitleDataError
    from route18xx.engine.facts.gamedata import IMPLEMENTED_ABILITIES, implemented_abilities

    known = [{"type": kind, **({"on_phase": "5"} if kind == "revenue_change" else {})}
             for kind in sorted(IMPLEMENTED_ABILITIES)]
    assert implemented_abilities(known, "XX", "test") == tuple(known)
    with pytest.raises(TitleDataError, match="'assign_hexes' is not implemented"):
        implemented_abilities([*known, {"type": "assign_hexes"}], "XX", "1846")  # 1846's mail contract
    for title in ("1888", "1830", "1889"):  # every shipped title loads: each ability is implemented
        data = game_data(title)
        assert {a["type"] for cs in data.companies.values() for c in cs for a in c.abilities} \
            <= IMPLEMENTED_ABILITIES


def test_an_ability_in_a_form_the_engine_does_not_play_is_refused() -> None:
    """A ``close`` at a phase other than never, a ``revenue_change`` without its phase: the
    engine's private rules (engine.game.privates) play neither, so the data is refused."""
    from route18xx.engine.errors import TitleDataError
    from route18xx.engine.facts.gamedata import implemented_abilities

    never = {"type": "close", "on_phase": "never", "owner_type": "player"}
    assert implemented_abilities([never], "UTF", "1889") == (never,)
    with pytest.raises(TitleDataError, match="closes at phase '5'"):
        implemented_abilities([{"type": "close", "on_phase": "5"}], "XX", "test")
    with pytest.raises(TitleDataError, match="names no phase"):
        implemented_abilities([{"type": "revenue_change", "revenue": 50}], "XX", "test")
