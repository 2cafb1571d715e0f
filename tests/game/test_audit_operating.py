"""Audit of operating-round rules the held-back log uses (RULES.md §6, §7, §9; ROUTES.md §5).

Each case starts from a real position of the north bankrupt log and plays the
moves as log JSON (ACTIONS.md §4), the way a replay feeds them:

* L42 on Beijing at rotation 4 moves JZR's token to city 1 (RULES.md §6.5 #8)
  and its routes start at ``C9-1`` (ROUTES.md §1.4, worked example 3);
* two trains stopping at the mine earn ¥80 subsidy (ROUTES.md §5.3);
* buying privates: phases 3-4 only, 50-150 % of face value, paid to the owner;
  phase 3 may begin in the middle of an OR set, which keeps its OR count (§3.2);
* the Yanda ferry and the Terracotta tile laid by their private (entity type
  ``company``), and a run over the ferry;
* the D is for sale only once both 6-trains are gone (§6.9 #1); exporting the
  first 4 at the end of a set starts phase 4 and rusts the 2s (§9.6).
"""

from __future__ import annotations

import pytest

from route18xx.engine.api import check_routes
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.invariants import check
from route18xx.engine.game.routing import route_state
from route18xx.engine.routes.route_judge import RouteSpec, judge_routes
from tests.game.audit import act
from tests.game.conftest import game_before

BANKRUPT = "1888_game_end_bankrupt"
B1, B2, B3, B4 = 9152, 3714, 13498, 5306  # its seats

JZR_3_TRAIN = {
    "train": "3-0",
    "connections": [["C9", "C7", "B6"], ["B6", "C5"]],
    "hexes": ["C9", "B6", "C5"],
    "revenue": 90,
    "revenue_str": "C9-B6-C5 (dest)",
    "subsidy": 40,
    "nodes": ["C9-1", "B6-1", "C5-0"],
}
JZR_4_TRAIN = {
    "train": "4-1",
    "connections": [["C3", "C5"]],
    "hexes": ["C3", "C5"],
    "revenue": 30,
    "revenue_str": "C3-C5",
    "subsidy": 40,
    "nodes": ["C3-0", "C5-0"],
}


def test_l42_at_rotation_4_puts_jzr_on_city_1_and_two_mine_runs_earn_80() -> None:
    """OR 5.2, phase 4. JZR's home token sits on Beijing city 0 (exit 1), JHR's on city 1
    (exit 5). L42 turned by 4 has city 1 on edge 1 and city 0 on edge 5 (RULES.md §6.5 #8).
    The first upgrade of preprinted Beijing pays its ¥10 wall (§6.5 #6). Then the 3-train
    runs ROUTES.md example 3 (40 + 10 + 0 + 40 bonus = 90, subsidy 40) and the 4-train
    C3-C5 (green 30 + mine 0, subsidy 40), entering the mine by another side."""
    game = game_before(BANKRUPT, 325)
    jzr = game.corporation("JZR")
    assert (jzr.cash, game.board.tokens_in("C9", 0), game.board.tokens_in("C9", 1)) == (176, ("JZR",), ("JHR",))
    act(game, "JZR", "lay_tile", hex="C9", tile="L42-0", rotation=4)
    assert game.board.tokens_in("C9", 1) == ("JZR",)
    assert game.board.tokens_in("C9", 0) == ("JHR",)
    assert jzr.cash == 166
    cash = {p.id: p.cash for p in game.players}
    assert jzr.shares.player_percents() == {B2: 50, B3: 30, B1: 20}
    run = act(game, "JZR", "run_routes", routes=[JZR_3_TRAIN, JZR_4_TRAIN], extra_revenue=0, subsidy=80)
    assert run is not None
    assert run.problems == []
    assert (run.engine_revenue, run.engine_subsidy) == (120, 80)
    act(game, "JZR", "dividend", kind="payout")
    assert jzr.cash == 166 + 80  # the subsidy goes to the treasury whatever the dividend
    assert {p.id: p.cash - cash[p.id] for p in game.players} == {B2: 60, B3: 36, B1: 24, B4: 0}
    assert jzr.share_price == (2, 7) and game.price(jzr) == 120
    assert check(game) == []


def test_buy_company_price_limits_and_payment() -> None:
    """§6.12: an integer price within 50-150 % of face value (YRF 125: 63-187), paid to the
    player who owns it; the private's income goes to the corporation from then on."""
    game = game_before(BANKRUPT, 175)  # OR 4.1, phase 3, JHR operating with ¥600; B1 owns YRF
    for price in (62, 188):
        with pytest.raises(IllegalAction) as info:
            act(game, "JHR", "buy_company", company="YRF", price=price)
        assert info.value.code == "price_range"
    act(game, "JHR", "buy_company", company="YRF", price=63)
    assert game.company("YRF").owner == "JHR"
    assert game.corporation("JHR").cash == 600 - 63
    assert game.player(B1).cash == 75 + 63
    assert game.waiting_for() == {"step": "track", "entity": "JHR", "actions": ["lay_tile", "pass"]}


def test_phase_3_begins_mid_set_opens_private_purchases_and_keeps_one_or() -> None:
    """§3.2, §6.12: OR 4.1 of a one-OR set. Before the first 3-train no private may be bought;
    right after it the same corporation may buy one; the set still has one OR and the next
    set (phase 4 by then) has two."""
    game = game_before(BANKRUPT, 128)
    assert (game.phase.name, game.state.operating_rounds) == ("2", 1)
    with pytest.raises(IllegalAction) as info:
        act(game, "JZR", "buy_company", company="HS", price=112)
    assert info.value.code == "phase"
    act(game, "JZR", "buy_train", train="3-0", price=180, variant="3")
    assert (game.phase.name, game.train_limit(), game.state.operating_rounds) == ("3", 4, 1)
    act(game, "JZR", "pass")  # no more trains
    assert game.waiting_for() == {"step": "buy private", "entity": "JZR", "actions": ["buy_company", "pass"]}
    act(game, "JZR", "buy_company", company="HS", price=112)
    act(game, "HS", "lay_tile", hex="C5", tile="L41-0", rotation=1)  # at the last step too
    assert game.board.tile_on("C5").tile.name == "L41"
    assert game_before(BANKRUPT, 233).state.operating_rounds == 2


def test_the_yanda_ferry_as_log_json_and_a_run_over_it() -> None:
    """§7.5: entity "YRF", type "company"; both tiles at rotation 0, free; LYR's reservation
    follows Yantai onto L40b. A 2-train from Yantai over the ferry to Dalian earns
    40 + 30 (green Dalian) = 70 (ROUTES.md §4.2)."""
    game = game_before(BANKRUPT, 194)
    jhr = game.corporation("JHR")
    cash = jhr.cash
    act(game, "YRF", "lay_tile", hex="E17", tile="L40a-0", rotation=0)
    assert game.waiting_for() == {"step": "private tile lay", "entity": "YRF", "actions": ["lay_tile"]}
    act(game, "YRF", "lay_tile", hex="F16", tile="L40b-0", rotation=0)
    assert (game.state.tile_at["E17"], game.state.tile_at["F16"]) == ("L40a-0", "L40b-0")
    assert jhr.cash == cash
    assert game.state.reservations["LYR"] == ("F16", 0)
    assert game.company("YRF").lay_uses == 0
    act(game, "JHR", "lay_tile", hex="C13", tile="14-0", rotation=0)  # the normal lay follows
    board = game.board.with_token("F16", 0, "LYR")
    state = route_state(game, game.corporation("LYR"), ["2-9"])
    state = type(state)(state.rule_set, state.phase, state.corporation, state.trains, board)
    judged = judge_routes(state, [RouteSpec("2-9", (("F16", "E17"),), ("F16-0", "E17-0"))])
    assert judged.legal, judged.violations
    assert (judged.revenue, judged.subsidy) == (70, 0)


def test_terracotta_tile_as_log_json() -> None:
    """§7.2: L39 on H2 at rotation 5, free, by the private TA for its owner HJR."""
    game = game_before(BANKRUPT, 162)
    cash = game.corporation("HJR").cash
    with pytest.raises(IllegalAction) as info:
        act(game, "TA", "lay_tile", hex="H2", tile="L39-0", rotation=4)
    assert info.value.code == "wrong_rotation"
    act(game, "TA", "lay_tile", hex="H2", tile="L39-0", rotation=5)
    assert game.state.tile_at["H2"] == "L39-0" and game.company("TA").lay_uses == 0
    assert game.corporation("HJR").cash == cash
    with pytest.raises(IllegalAction):
        act(game, "TA", "lay_tile", hex="H2", tile="L39-0", rotation=5)


def test_an_unused_tile_ability_keeps_the_last_buy_private_step_waiting() -> None:
    """§6.3 j: in phases 3-4 the final buy-private step waits while the corporation owns a
    private with an unused tile lay, even with no private for sale: the bankrupt log's JHR
    (unused ferry) passes it at #303, JZR (mine already laid) has nothing to pass at #328."""
    game = game_before(BANKRUPT, 302)
    assert all(not c.owned_by_player() for c in game.companies.values())
    act(game, "JHR", "pass")  # buy trains
    assert game.waiting_for() == {"step": "buy private", "entity": "JHR", "actions": ["pass"]}
    act(game, "JHR", "pass")
    assert game.round.current_entity(game) != "JHR"
    game = game_before(BANKRUPT, 328)
    act(game, "JZR", "pass")
    assert game.round.current_entity(game) == "TJL"


def test_the_d_is_sold_only_after_both_6_trains() -> None:
    """§6.9 #1: D-0 follows 6-1 in depot order."""
    game = game_before(BANKRUPT, 484)
    assert game.depot.available() == ["6-1"]
    with pytest.raises(IllegalAction) as info:
        act(game, "JZR", "buy_train", train="D-0", price=900, variant="D")
    assert info.value.code == "not_available"
    act(game, "JZR", "buy_train", train="6-1", price=630, variant="6")
    assert game.depot.available() == ["D-0"]
    assert game.phase.name == "6"


def test_exporting_the_first_4_starts_phase_4_and_rusts_the_2s() -> None:
    """§9.6: the set of OR 4 ends with 4-0 first in the depot: it is exported, phase 4 begins
    (train limit 3) and every 2-train is gone (JHR's 2-2, HJR's 2-1 and 2-4, JZR's 2-0)."""
    before = game_before(BANKRUPT, 202)
    assert before.depot.upcoming[0] == "4-0" and before.phase.name == "3"
    assert before.corporation("JZR").trains == ["2-0", "3-0"]
    game = game_before(BANKRUPT, 203)
    assert (game.round.kind, game.turn, game.phase.name, game.train_limit()) == ("stock", 5, "4", 3)
    assert game.depot.upcoming[0] == "4-1" and "4-0" in game.depot.removed
    assert all(not t.startswith("2-") for c in game.corporations.values() for t in c.trains)
    assert game.corporation("JZR").trains == ["3-0"]
    assert game.corporation("HJR").trains == ["3-3"]


ZDR_TWO_TWOS = {
    "title": "1888",
    "rule_set": "north",
    "phase": "2",
    "corporation": "ZDR",
    "trains": ["2", "2"],
    "tiles": [
        {"hex": "G11", "tile": "5", "rotation": 2},
        {"hex": "F10", "tile": "7", "rotation": 4},
        {"hex": "F12", "tile": "3", "rotation": 0},
    ],
    "tokens": [{"hex": "G11", "city": 0, "corporation": "ZDR"}],
}


def test_two_destinated_two_trains_each_earn_the_bonus() -> None:
    """ROUTES.md §5.2 and worked example 2: Zibo (20) + Dongying (10) + ZDR's bonus 40 = 70
    for each of two 2-trains, by disjoint hex sides; one shared side makes the pair illegal."""
    report = check_routes(
        ZDR_TWO_TWOS,
        [
            {"train": "2-3", "connections": [["G11", "F10", "F12"]]},
            {"train": "2-1", "connections": [["G11", "F12"]]},
        ],
    )
    assert report["legal"], report["violations"]
    assert [r["revenue"] for r in report["routes"]] == [70, 70]
    assert (report["revenue"], report["subsidy"]) == (140, 0)
    shared = check_routes(
        ZDR_TWO_TWOS,
        [
            {"train": "2-3", "connections": [["G11", "F12"]]},
            {"train": "2-1", "connections": [["G11", "F12"]]},
        ],
    )
    assert not shared["legal"]


def test_an_unusable_but_unused_heng_shan_still_holds_the_last_step() -> None:
    """§6.3 j reads "a private with an unused active ability": the 18xx.games ability list
    checks uses and timing, not whether C5 is still free. Position: bankrupt #141, JZR has
    just bought HS; C5 is given a plain tile (as another corporation may lay once HS is
    corporation-owned, §7.3) and JZR's treasury is emptied so no private is affordable."""
    from route18xx.engine.board.board import PlacedTile
    from route18xx.engine.game.tokens import lay_on_board

    game = game_before(BANKRUPT, 141)
    lay_on_board(game, "C5", PlacedTile(game.data.tiles["9"], 0), "9-0")
    jzr = game.corporation("JZR")
    game.pay_to_bank(jzr, jzr.cash)
    with pytest.raises(IllegalAction) as info:
        act(game, "HS", "lay_tile", hex="C5", tile="L41-0", rotation=1)
    assert info.value.code == "hex_not_empty"
    assert game.waiting_for() == {"step": "buy private", "entity": "JZR", "actions": ["pass"]}
    act(game, "JZR", "pass")
    assert game.round.current_entity(game) != "JZR"
