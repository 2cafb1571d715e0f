"""1888's rules as of a date (issue 19, DESIGN.md §9): each dated change of HISTORY.md §2.

Every expected value below is copied from the rules text (reference/1888/HISTORY.md
§2 and §2.1, RULES.md §5.11, §6.9, §6.10, §8), never computed by the code under test.
"""

from __future__ import annotations

from datetime import date

import pytest

from route18xx.engine.errors import IllegalAction, MalformedInput
from route18xx.engine.game.emergency import check_purchase, must_buy_train
from route18xx.engine.game.game import Game
from route18xx.engine.game.stock import check_cert_room
from route18xx.engine.game.trains import depot_trains
from route18xx.engine.facts.rule_versions import (
    current_rules,
    log_date,
    log_rules_date,
    parse_rules_as_of,
    rules_as_of,
)
from route18xx.engine.titles import TITLES
from route18xx.engine.inputs.state_file import parse_board, parse_state

#: 1888's rule sets (engine/data/1888/rule_sets.json)
NORTH = TITLES["1888"].rule_sets["north"]

OLD = date(2023, 8, 24)  # the day before the market change (HISTORY.md §2)
NEW = date(2023, 8, 25)

#: HISTORY.md §2.1, rows 4-9 top to bottom (rows 1-3 have no yellow cell either way).
MARKET_BEFORE = {
    4: "70y 75 80 85p 90 95 100 110 120 130 145 160",
    5: "65y 70 75 80p 85 90 95 100 110 120",
    6: "60y 65y 70 75p 80 85 90 95",
    7: "55y 60y 65 70p 75 80 85",
    8: "50y 55y 60y 65 70 75",
    9: "40y 50y 55y 60y 65y",
}
MARKET_FROM = {
    4: "70 75 80 85p 90 95 100 110 120 130 145 160",
    5: "65 70 75 80p 85 90 95 100 110 120",
    6: "60y 65 70 75p 80 85 90 95",
    7: "55y 60y 65 70p 75 80 85",
    8: "50y 55y 60y 65 70 75",
    9: "40y 50y 55y 60y 65",
}


def _game(day: date) -> Game:
    return Game(NORTH, [(1, "A"), (2, "B"), (3, "C")], rules=rules_as_of(day, "1888"), title="1888")


# ---- the table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "name"),
    [
        (date(2021, 12, 1), "1888@2021-06-07"),
        (date(2022, 4, 26), "1888@2021-06-07"),
        (date(2022, 4, 27), "1888@2022-04-27"),
        (date(2023, 8, 8), "1888@2022-04-27"),
        (date(2023, 8, 9), "1888@2023-08-09"),
        (date(2023, 8, 24), "1888@2023-08-09"),
        (date(2023, 8, 25), "1888@2023-08-25"),
        (date(2026, 5, 12), "1888@2023-08-25"),
        (date(2026, 5, 13), "1888@2026-05-13"),
    ],
)
def test_the_version_in_force_is_named_after_its_newest_change(day: date, name: str) -> None:
    assert rules_as_of(day, "1888").name == name


# ---- 2023-08-25: the market's yellow cells (HISTORY.md §2.1) --------------------------


@pytest.mark.parametrize(("day", "rows"), [(OLD, MARKET_BEFORE), (NEW, MARKET_FROM)])
def test_market_yellow_cells_as_the_history_prints_them(day: date, rows: dict[int, str]) -> None:
    market = _game(day).market
    for number, text in rows.items():
        row = number - 1  # HISTORY.md counts rows from 1, the grid from 0
        for column, cell in enumerate(text.split()):
            assert market.price((row, column)) == int(cell.rstrip("py")), (number, cell)
            assert market.no_cert_limit((row, column)) == cell.endswith("y"), (day, number, cell)


def test_the_newest_grid_is_market_json() -> None:
    """Today's yellow cells are the grid's own flags (market.json, the 18xx.games dump)."""
    game = Game(NORTH, [(1, "A"), (2, "B"), (3, "C")], title="1888")
    flags = {
        (r, c)
        for r, row in enumerate(game.data.market["grid"])
        for c, cell in enumerate(row)
        if cell is not None and cell["no_cert_limit"]
    }
    assert current_rules("1888").no_cert_limit == flags


@pytest.mark.parametrize(("day", "may_buy"), [(OLD, True), (NEW, False)])
def test_a_player_at_the_cert_limit_buys_at_70_in_row_4_only_under_the_old_grid(
    day: date, may_buy: bool
) -> None:
    """RULES.md §5.6, §5.11: a player at the limit may still buy a share whose price is in
    the yellow zone; 70 in row 4 is yellow before 2023-08-25 and not after."""
    game = _game(day)
    player = game.players[0]
    corp = game.corporation("LYR")
    corp.share_price = (3, 0)  # row 4, the 70 cell
    assert game.market.price(corp.share_price) == 70
    game.cert_limit = game.num_certs(player)  # at the limit
    if may_buy:
        check_cert_room(game, player, corp)
    else:
        with pytest.raises(IllegalAction) as info:
            check_cert_room(game, player, corp)
        assert info.value.code == "over_cert_limit"


# ---- 2023-08-09: the D beside the remaining 6-trains (HISTORY.md §2) ------------------


def _phase_six_with_a_six_left(day: date) -> Game:
    """Phase 6 has begun (6-0 bought); 6-1 and D-0 are still in the depot."""
    game = _game(day)
    game.depot.upcoming[:] = ["6-1", "D-0"]
    game.state.phase_index = [p.name for p in game.data.phases].index("6")
    return game


@pytest.mark.parametrize(("day", "on_sale"), [
    (date(2023, 8, 8), ["6-1", "D-0"]),
    (date(2023, 8, 9), ["6-1"]),
])
def test_the_d_is_sold_in_phase_6_beside_the_last_6_only_before_2023_08_09(
    day: date, on_sale: list[str]
) -> None:
    assert depot_trains(_phase_six_with_a_six_left(day)) == on_sale


@pytest.mark.parametrize(("day", "sold"), [(date(2023, 8, 8), True), (date(2023, 8, 9), False)])
def test_buying_the_d_while_a_6_is_left(day: date, sold: bool) -> None:
    """The purchase itself (RULES.md §6.9 #1): at face value ¥900 from the depot."""
    game = _phase_six_with_a_six_left(day)
    corp = game.corporation("LYR")
    corp.cash = 1000
    if sold:
        assert check_purchase(game, corp, "D-0", 900, None, False).train == "D-0"
    else:
        with pytest.raises(IllegalAction) as info:
            check_purchase(game, corp, "D-0", 900, None, False)
        assert info.value.code == "not_available"


def test_before_phase_6_the_d_waits_under_either_rule() -> None:
    game = _game(date(2022, 1, 1))
    game.depot.upcoming[:] = ["5-2", "6-0", "6-1", "D-0"]
    game.state.phase_index = [p.name for p in game.data.phases].index("5")
    assert depot_trains(game) == ["5-2"]


@pytest.mark.parametrize("day", ["2023-08-08", "2023-08-09"])
def test_a_state_in_phase_6_holds_no_d_under_either_rule(day: str) -> None:
    """The first D bought starts phase D (RULES.md §8), so even when it was on sale in
    phase 6 no phase-6 company holds one: the state check refuses it both ways."""
    raw = {
        "title": "1888", "rule_set": "north", "phase": "6", "corporation": "LYR",
        "trains": ["D"], "tiles": [], "tokens": [], "rules_as_of": day,
    }
    with pytest.raises(MalformedInput) as info:
        parse_state(raw)
    assert info.value.field == "trains[0]"
    assert "phase D" in info.value.reason
    parse_state({**raw, "phase": "D"})


# ---- 2026-05-13: 17 D-trains, then unlimited (HISTORY.md §2) --------------------------


@pytest.mark.parametrize(("day", "more"), [(date(2026, 5, 12), False), (date(2026, 5, 13), True)])
def test_the_17th_d_is_the_last_only_before_2026_05_13(day: date, more: bool) -> None:
    game = _game(day)
    game.depot.upcoming[:] = ["D-16"]
    game.depot.take("D-16", game.trains)
    assert game.depot.upcoming == (["D-17"] if more else [])


# ---- 2022-04-27: MUST_BUY_TRAIN (HISTORY.md §2, RULES.md §6.10 #1) --------------------


def _trainless_lyr(day: date, tiles: list[dict[str, object]]) -> Game:
    """LYR tokened in its home F16 (Dalian), no trains, with ``tiles`` laid."""
    game = _game(day)
    tokens = [{"hex": "F16", "city": 0, "corporation": "LYR"}]
    game.state.board = parse_board(tiles, tokens, NORTH, game.data)
    return game


#: F16 (Dalian) → G15 → H14: track from LYR's home to a second revenue centre.
ROUTE = [{"hex": "G15", "tile": "9", "rotation": 0}, {"hex": "H14", "tile": "5", "rotation": 3}]


@pytest.mark.parametrize(("day", "must"), [(date(2022, 4, 26), False), (date(2022, 4, 27), True)])
def test_a_trainless_company_without_a_route_must_buy_only_from_2022_04_27(
    day: date, must: bool
) -> None:
    game = _trainless_lyr(day, [])
    assert must_buy_train(game, game.corporation("LYR")) is must


@pytest.mark.parametrize("day", [date(2022, 4, 26), date(2022, 4, 27)])
def test_a_trainless_company_with_a_route_must_buy_either_way(day: date) -> None:
    game = _trainless_lyr(day, ROUTE)
    assert must_buy_train(game, game.corporation("LYR")) is True


def test_a_company_with_a_train_need_not_buy() -> None:
    game = _trainless_lyr(date(2022, 4, 26), ROUTE)
    game.corporation("LYR").trains.append("2-0")
    assert must_buy_train(game, game.corporation("LYR")) is False


# ---- dates: the log's, rules_as_of ---------------------------------------------------


def test_the_log_date_is_its_own_created_at_else_its_first_action() -> None:
    assert log_date({"created_at": 1689608187, "actions": []}) == date(2023, 7, 17)
    assert log_date({"created_at": "2023-08-20T10:00:00Z", "actions": []}) == date(2023, 8, 20)
    assert log_date({"actions": [{"type": "message"}, {"created_at": 1732066000}]}) == date(2024, 11, 20)
    assert log_date({"actions": [{"type": "pass"}]}) is None


def test_rules_as_of_overrides_the_log_date() -> None:
    log = {"created_at": 1689608187, "actions": []}
    assert log_rules_date(log) == date(2023, 7, 17)
    assert log_rules_date(log, "2026-06-01") == date(2026, 6, 1)


@pytest.mark.parametrize("bad", ["2023-13-01", "2023-02-30", "24.8.2023", "20230824", 20230824, True])
def test_a_malformed_rules_as_of_names_the_field(bad: object) -> None:
    with pytest.raises(MalformedInput) as info:
        parse_rules_as_of(bad)
    assert info.value.field == "rules_as_of"


def test_a_state_file_reads_and_writes_its_date() -> None:
    raw = {"title": "1888", "rule_set": "north", "phase": "2", "corporation": "LYR",
           "trains": ["2"], "tiles": [], "tokens": [], "rules_as_of": "2023-08-24"}
    state = parse_state(raw)
    assert state.rules.name == "1888@2023-08-09"
    assert parse_state({**raw, "rules_as_of": None}).rules == current_rules("1888")
    with pytest.raises(MalformedInput) as info:
        parse_state({**raw, "rules_as_of": "yesterday"})
    assert info.value.field == "rules_as_of"
