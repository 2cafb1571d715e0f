"""1830 routes on the 1888 engine and solver (issue 25 item 2; reference/1830 ROUTES.md).

* Every recorded route of the two shared 1830 logs (67 ``run_routes``, 103 routes), judged
  on the board of that moment (``tests/data/1830/states.json``, cut from the logs and
  checked against the 18xx.games checkpoints; see ``make_states.py``), is legal at its
  recorded revenue, and the solver's proven optimum is at least that.
* The worked examples of ROUTES.md §7, route by route, at the values added up there.
* The three route rules 1830 adds, each on a board built by hand with the expected incomes
  added up from the rules text: off-board groups (§3.3), the Altoona bypass (§1.3) and two
  cities on one hex (§3.5, NY and the OO hexes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.errors import MalformedInput

DATA = Path(__file__).resolve().parents[1] / "data" / "1830"


def _states() -> dict[str, dict[str, Any]]:
    raw = json.loads((DATA / "states.json").read_text("utf-8"))
    return {s["name"]: s for s in raw["states"]}


STATES = _states()


def test_every_recorded_route_of_both_logs_is_legal_at_its_revenue_and_never_beats_the_optimum() -> None:
    assert len(STATES) == 67  # 43 run_routes of 26855 (one undone) + 24 of 29133
    assert sum(len(s["routes"]) for s in STATES.values()) == 103
    for name, s in STATES.items():
        report = api.check_routes(s["state"], s["routes"])
        assert report["legal"], (name, report["violations"])
        assert report["revenue"] == s["recorded_revenue"], name
        assert report["subsidy"] == 0, name  # 1830 has no subsidy (ROUTES.md §5.1)
        best = api.solve_routes(s["state"])
        assert best["proven_optimal"], name
        assert best["revenue"] >= s["recorded_revenue"], name


#: ROUTES.md §7, each route's revenue as added up there (train id → revenue).
WORKED = {
    "26855-92": {"2-2": 40 + 10, "2-3": 10 + 20, "2-4": 20 + 10},  # §7.1 NYNH, phase 2
    "29133-115": {"3-1": 30 + 20 + 30},  # §7.2 B&O: Deep South at its yellow value in phase 3
    "26855-458": {"6-0": 60 + 20 + 10 + 30},  # §7.3 C&O through the Altoona bypass
    "26855-470": {"6-1": 60 + 40 + 50 + 80 + 10 + 50},  # §7.4 PRR: both Philadelphia cities
    "26855-584": {"6-0": 40 + 10 + 80 + 10 + 30, "5-2": 60 + 40 + 50},  # §7.5 NYC, phase D
    "29133-251": {"3-0": 80 + 30, "4-3": 10 + 30 + 10 + 80},  # §7.6 NYNH's token now in G19-1
}


@pytest.mark.parametrize("name", sorted(WORKED))
def test_worked_examples_price_route_by_route(name: str) -> None:
    s = STATES[name]
    report = api.check_routes(s["state"], s["routes"])
    assert report["legal"]
    got = {r["train"]: r["revenue"] for r in report["routes"]}
    for train, revenue in WORKED[name].items():
        assert got[train] == revenue, (train, got)


def test_the_bypass_route_does_not_stop_at_altoona() -> None:
    """ROUTES.md §1.3: 26855 #458 runs H10-H12-H14-I15 with four stops, none on H12."""
    s = STATES["26855-458"]
    (route,) = api.check_routes(s["state"], s["routes"])["routes"]
    assert not any(n.startswith("H12-") for n in route["nodes"])
    assert len(route["nodes"]) == 4


def test_two_cities_of_one_hex_on_one_route() -> None:
    """ROUTES.md §3.5: PRR's 6-train stops at both Philadelphia cities (26855 #470)."""
    s = STATES["26855-470"]
    (route,) = [r for r in api.check_routes(s["state"], s["routes"])["routes"] if r["train"] == "6-1"]
    assert {"H18-0", "H18-1"} <= set(route["nodes"])


# ---- boards built by hand ------------------------------------------------------------------


def _state(phase: str, corp: str, trains: list[str], tiles: list[tuple[str, str, int]],
           tokens: list[tuple[str, int, str]]) -> dict[str, Any]:
    return {
        "title": "1830", "rule_set": "standard", "phase": phase, "corporation": corp,
        "trains": trains,
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "corporation": o} for h, c, o in tokens],
    }


def _route(train: str, *connections: list[str]) -> dict[str, Any]:
    return {"train": train, "connections": [list(c) for c in connections]}


#: Barrie B10 upgraded to green 14 turned so that its city reaches both Canadian West hexes:
#: edge 2 → A9, edge 3 → A11 (map.json), plus edges 4 and 5.
CANADA = _state("3", "CPR", ["3"], [("B10", "14", 2)], [("B10", 0, "CPR")])


def test_off_board_group_counts_once_per_route() -> None:
    """ROUTES.md §3.3: A9 and A11 are one group (Canada), at most one per route. Phase 3
    prices them yellow (30 each, §4.1), green Barrie 30: the 3-train's best is one
    off-board and Barrie, 30 + 30 = 60, never 30 + 30 + 30 = 90."""
    both = _route("3-0", ["A9", "B10"], ["B10", "A11"])
    report = api.check_routes(CANADA, [both])
    assert not report["legal"]
    one = api.check_routes(CANADA, [_route("3-0", ["A9", "B10"])])
    assert one["legal"] and one["revenue"] == 60
    best = api.solve_routes(CANADA)
    assert best["proven_optimal"] and best["revenue"] == 60


#: Pittsburgh H10 and Philadelphia H16 as yellow 57 cities and a straight 9 on H14, all
#: along row H through gray Altoona H12 (edges 1 and 4: to the city, and the bypass).
ALTOONA_TILES = [("H10", "57", 1), ("H14", "9", 1), ("H16", "57", 1)]


def test_altoona_bypass_passes_a_full_city() -> None:
    """ROUTES.md §1.3, §3.8: Altoona's one slot holds PRR's token, so NYC cannot run
    through the city, only end there; the bypass runs past it without stopping.
    One 3-train: H10 (20) + H16 (20) on the bypass = 40. Two 3-trains: each ends at
    Altoona from its side, (20 + 10) + (20 + 10) = 60 (the bypass would take both sides)."""
    state = _state("2", "NYC", ["2"], ALTOONA_TILES,
                   [("H10", 0, "NYC"), ("H16", 0, "NYC"), ("H12", 0, "PRR")])
    state["trains"] = ["3"]
    state["phase"] = "3"
    bypass = _route("3-0", ["H10", "H12", "H14", "H16"])
    report = api.check_routes(state, [bypass])
    assert report["legal"] and report["revenue"] == 40
    through = _route("3-0", ["H10", "H12"], ["H12", "H14", "H16"])
    assert not api.check_routes(state, [through])["legal"]
    assert api.solve_routes(state)["revenue"] == 40
    state["trains"] = ["3", "3"]
    best = api.solve_routes(state)
    assert best["proven_optimal"] and best["revenue"] == 60


def test_altoona_city_is_a_stop_when_it_is_open() -> None:
    """Without PRR's token the 3-train may stop at Altoona between the two cities:
    20 + 10 + 20 = 50 beats the bypass's 40 (ROUTES.md §4.1: Altoona 10)."""
    state = _state("3", "NYC", ["3"], ALTOONA_TILES, [("H10", 0, "NYC")])
    through = _route("3-0", ["H10", "H12"], ["H12", "H14", "H16"])
    report = api.check_routes(state, [through])
    assert report["legal"] and report["revenue"] == 50
    best = api.solve_routes(state)
    assert best["proven_optimal"] and best["revenue"] == 50


def test_new_york_two_cities_pay_apart() -> None:
    """ROUTES.md §4.1: preprinted NY is two cities of 40; NYNH's home is city 0 (edge 3,
    towards F20). A 2-train from G19-0 to the first town of tile 1 on F20: 40 + 10 = 50;
    city 1 (edge 0) leads nowhere on this board and adds nothing."""
    state = _state("2", "NYNH", ["2"], [("F20", "1", 0)], [("G19", 0, "NYNH")])
    best = api.solve_routes(state)
    assert best["proven_optimal"] and best["revenue"] == 50
    (route,) = best["routes"]
    assert "G19-0" in route["nodes"] and "G19-1" not in route["nodes"]


# ---- the title on a state --------------------------------------------------------------------


def test_an_unknown_title_or_another_titles_rule_set_names_the_field() -> None:
    with pytest.raises(MalformedInput, match="title: unknown title '1867'"):
        api.check_routes({**CANADA, "title": "1867"}, [])
    with pytest.raises(MalformedInput, match=r"rule_set: unknown rule set 'north'; expected one of \['multiple_brown"):
        api.check_routes({**CANADA, "rule_set": "north"}, [])
    with pytest.raises(MalformedInput, match="corporation: unknown company 'LYR'"):
        api.check_routes({**CANADA, "corporation": "LYR"}, [])


def test_a_state_file_round_trips_with_its_title() -> None:
    from route18xx.engine.inputs.state_file import parse_state, to_state_file

    state = parse_state(STATES["29133-251"]["state"])
    again = to_state_file(state)
    assert again["title"] == "1830"
    assert parse_state(again).board.placed == state.board.placed


def test_suggest_and_draw_take_an_1830_state() -> None:
    from route18xx.draw.render import render_svg

    s = STATES["26855-458"]
    ranked = api.suggest_moves(s["state"], top=3).to_json()
    assert ranked["base_income"] == 120 and ranked["suggestions"]
    assert all(m["income"] >= 120 for m in ranked["suggestions"])
    svg = render_svg(s["state"], routes="both", recorded=s["routes"])
    assert "1830 (multiple_brown_from_ipo)" in svg
    assert 'class="mine"' not in svg  # 1830 has no mine (ROUTES.md §5.1)
    assert "Altoona" in svg and "Chicago" in svg


def test_player_owned_blockers_close_their_hexes_one_by_one() -> None:
    """1830 RULES.md §14: SV blocks G15 while a player owns it (map.json
    ``blocked_by_company``); CS blocking B20 does not close G15. PRR reaches G15 from
    Altoona over a curve 8 on H14 (edges 1 and 3)."""
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.engine.board.tile_lay import legal_tile_lays

    raw = _state("3", "PRR", ["3"], [("H14", "8", 1)], [("H12", 0, "PRR")])
    board = parse_state(raw).board
    lays = {blockers: {lay.hex for lay in legal_tile_lays(
        board, "PRR", phase="3", rule_set="standard", player_owned_blockers=blockers)}
        for blockers in ((), ("SV",), ("CS",))}
    assert "G15" in lays[()] and "G15" in lays[("CS",)]
    assert "G15" not in lays[("SV",)]
    assert parse_state({**raw, "player_owned_blockers": ["SV", "CS"]}).player_owned_blockers == ("SV", "CS")
    with pytest.raises(MalformedInput, match=r"player_owned_blockers\[0\]: 'HS' is no private"):
        parse_state({**raw, "player_owned_blockers": ["HS"]})
