"""Rules the shared logs use rarely or never, exercised one by one (RULES.md)."""

from __future__ import annotations

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Bid, BuyTrain, LayTile, Pass, SellShares
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check
from route18xx.engine.game.payout import share_of
from route18xx.engine.game.summary import summary
from route18xx.engine.replay.replay import kept_actions
from tests.game.conftest import game_before

BANKRUPT = "1888_game_end_bankrupt"
P1, P2 = 12274, 311


def fresh(rule_set: str = "prototype") -> Game:
    return Game(rule_set, [(1, "A"), (2, "B"), (3, "C"), (4, "D")], title="1888")


# -- setup (§2) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule_set, n, cash, bank",
    [("north", 4, 600, 6600), ("prototype", 4, 600, 7600), ("prototype", 2, 1200, 7600)],
)
def test_setup_cash_and_bank(rule_set: str, n: int, cash: int, bank: int) -> None:
    game = Game(rule_set, list(range(1, n + 1)), title="1888")
    assert [p.cash for p in game.players] == [cash] * n
    assert game.bank.cash == bank
    assert game.cert_limit == {2: 20, 4: 16}[n]


def test_north_needs_three_players() -> None:
    from route18xx.engine.errors import MalformedInput

    with pytest.raises(MalformedInput):
        Game("north", [1, 2], title="1888")


# -- auction (§4) -------------------------------------------------------------------------


def test_everyone_passing_makes_kaiping_tramway_cheaper_until_it_is_free() -> None:
    game = fresh()
    for cycle in range(4):
        for pid in (1, 2, 3, 4):
            game.process(Pass(pid, "player"))
        assert game.company("KT").price == 25 - 5 * (cycle + 1)
    for pid in (1, 2, 3, 4):
        game.process(Pass(pid, "player"))
    assert game.company("KT").owner == 1  # the next player must take it for free
    assert game.player(1).cash == 600
    assert game.waiting_for()["entity"] == 2


def test_everyone_passing_after_kaiping_tramway_is_sold_is_a_fake_operating_round() -> None:
    game = fresh()
    game.process(Bid(1, "player", company="KT", price=25))
    for pid in (2, 3, 4, 1):
        game.process(Pass(pid, "player"))
    assert game.player(1).cash == 600 - 25 + 5  # KT's income
    assert game.depot.upcoming[0] == "2-1"  # the first 2-train was exported
    assert check(game) == []


def test_a_purchase_resolves_single_bids_and_starts_an_auction_on_several() -> None:
    game = fresh()
    game.process(Bid(1, "player", company="TA", price=55))
    game.process(Bid(2, "player", company="TA", price=60))
    game.process(Bid(3, "player", company="HS", price=80))
    game.process(Bid(4, "player", company="KT", price=25))  # buys KT; TA has two bids
    assert game.company("KT").owner == 4
    assert game.waiting_for()["entity"] == 1  # the lowest bidder on TA acts
    with pytest.raises(IllegalAction):
        game.process(Bid(1, "player", company="TA", price=62))  # +5 at least
    game.process(Pass(1, "player"))  # withdraws: player 2 buys TA, then HS goes to player 3
    assert game.company("TA").owner == 2 and game.player(2).cash == 540
    assert game.company("HS").owner == 3 and game.player(3).cash == 520
    assert game.waiting_for()["entity"] == 1  # normal turns resume after player 4


# -- shares (§5) --------------------------------------------------------------------------


def test_partial_sale_of_the_presidents_certificate() -> None:
    game = game_before("129026", 63)  # SR 2: Player 1 holds LYR_0, LYR_1, LYR_4; Player 2 holds 20 %
    lyr = game.corporation("LYR")
    price = game.price(lyr)
    cash = game.player(P1).cash
    game.process(SellShares(P1, "player", shares=("LYR_1", "LYR_4", "LYR_0"), percent=30))
    assert lyr.president == P2
    assert lyr.shares.certs_of(P1) == ["LYR_1"]
    assert lyr.shares.certs_of(P2) == ["LYR_0"]
    assert sorted(lyr.shares.certs_of("pool")) == ["LYR_2", "LYR_4", "LYR_5"]
    assert game.player(P1).cash == cash + 3 * price
    assert check(game) == []


def test_dividends_round_up_per_holder() -> None:
    assert share_of(20, 25) == 5
    assert share_of(10, 25) == 3
    assert share_of(30, 90) == 27


# -- privates (§7) ------------------------------------------------------------------------


def test_yanda_ferry_lays_both_tiles_and_moves_the_reservation() -> None:
    game = game_before(BANKRUPT, 194)  # JHR owns YRF, phase 3
    game.process(LayTile("YRF", "company", hex="E17", tile="L40a-0", rotation=0))
    with pytest.raises(IllegalAction) as info:
        game.process(Pass("YRF", "company"))
    assert info.value.code == "must_lay_all"
    with pytest.raises(IllegalAction):
        game.process(LayTile("JHR", "corporation", hex="C13", tile="14-0", rotation=0))
    game.process(LayTile("YRF", "company", hex="F16", tile="L40b-0", rotation=0))
    assert game.board.tile_on("F16").tile.name == "L40b"
    assert game.state.reservations["LYR"] == ("F16", 0)
    assert game.company("YRF").lay_uses == 0
    assert game.waiting_for() == {"step": "track", "entity": "JHR", "actions": ["lay_tile", "pass"]}


def test_great_wall_second_tile_must_connect_to_the_first() -> None:
    game = game_before(BANKRUPT, 153)  # TJL's Great Wall laid 8 on D4; the second lay is pending
    before = summary(game)
    with pytest.raises(IllegalAction) as info:
        game.process(LayTile("CW", "company", hex="C3", tile="5-1", rotation=2))
    assert info.value.code == "not_connected_to_first"
    assert summary(game) == before
    game.process(Pass("CW", "company"))  # forfeits the second tile
    assert game.company("CW").lay_uses == 0
    assert game.waiting_for()["step"] == "track"


def test_terracotta_tile_must_keep_xian_exits() -> None:
    game = game_before(BANKRUPT, 162)
    with pytest.raises(IllegalAction):
        game.process(LayTile("TA", "company", hex="H2", tile="L39-0", rotation=0))
    game.process(LayTile("TA", "company", hex="H2", tile="L39-0", rotation=5))
    assert game.board.tile_on("H2").tile.name == "L39"


def test_privates_close_with_the_first_five_train() -> None:
    game = game_before("129026", 307)  # HJR is about to buy 5-0
    game.process(BuyTrain("HJR", "corporation", train="5-0", price=500))
    assert all(c.closed for c in game.companies.values())
    assert game.phase.name == "5"


# -- trains (§6.9, §9) --------------------------------------------------------------------


def test_d_trade_in_costs_700_and_discards_the_old_train() -> None:
    game = game_before("129026", 441)  # JHR owns 6-0; the D is for sale
    jhr = game.corporation("JHR")
    game.pay_from_bank(jhr, 700 - jhr.cash)
    game.process(BuyTrain("JHR", "corporation", train="D-0", price=700, exchange="6-0"))
    assert jhr.trains == ["D-0"] and jhr.cash == 0
    assert game.depot.discarded == ["6-0"]
    assert game.phase.name == "D"
    assert all(not t.startswith("4-") for c in game.corporations.values() for t in c.trains)
    assert check(game) == []


def test_bank_break_ends_the_game_after_the_set() -> None:
    game = game_before("129026", 656)  # the bank broke at 655, in OR 9.1 of three
    assert game.bank.broken and not game.finished


# -- the log format (ACTIONS.md §2.2) --------------------------------------------------------


def test_undo_and_redo_filtering() -> None:
    log = {
        "actions": [
            {"type": "pass", "id": 1},
            {"type": "pass", "id": 2},
            {"type": "undo", "id": 3},
            {"type": "redo", "id": 4},
            {"type": "pass", "id": 5},
            {"type": "pass", "id": 6},
            {"type": "undo", "id": 7, "action_id": 1},
            {"type": "pass", "id": 8},
            {"type": "undo", "id": 9},
            {"type": "redo", "id": 10},
            {"type": "undo", "id": 11},
        ]
    }
    assert [a["id"] for a in kept_actions(log)] == [1]


def test_beijing_reservations_survive_merging_into_one_city() -> None:
    """Both Beijing home slots stay reserved when L42 and then 8892 replace the two cities."""
    from route18xx.engine.board.board import PlacedTile
    from route18xx.engine.game.tokens import lay_on_board, place_home_token

    game = fresh("north")
    tiles = game.data.tiles
    lay_on_board(game, "C9", PlacedTile(tiles["L42"], 0), "L42-0")
    assert game.state.reservations["JZR"] != game.state.reservations["JHR"]
    lay_on_board(game, "C9", PlacedTile(tiles["8892"], 0), "8892-0")
    assert game.state.reservations["JZR"] == game.state.reservations["JHR"] == ("C9", 0)
    for sym in ("JHR", "JZR"):
        place_home_token(game, game.corporation(sym))
    assert game.board.tokens_in("C9", 0) == ("JHR", "JZR")
