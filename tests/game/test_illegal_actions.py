"""Illegal actions are refused with a reason and leave the game untouched (DESIGN.md §2).

Each case takes a real game at a chosen moment (or a fresh game), tries a move
the rules forbid, and checks the machine-readable code, that the message says
something, and that the game's summary is exactly what it was before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from route18xx.engine.errors import IllegalAction, MalformedInput
from route18xx.engine.game.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from route18xx.engine.game.emergency import apply_purchase, check_purchase
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.game.game import Game
from route18xx.engine.game.summary import summary
from tests.game.conftest import game_before

P1, P2, P3, P4 = 12274, 311, 3858, 7353  # 129026 seats (prototype)
B1, B2, B3, B4 = 9152, 3714, 13498, 5306  # bankrupt log seats (north)


def player(pid: int, cls: Callable[..., Action], **kw: Any) -> Action:
    return cls(pid, "player", **kw)


def corp(sym: str, cls: Callable[..., Action], **kw: Any) -> Action:
    return cls(sym, "corporation", **kw)


def company(sym: str, cls: Callable[..., Action], **kw: Any) -> Action:
    return cls(sym, "company", **kw)


def route(train: str, *connections: list[str], revenue: int, nodes: tuple[str, ...] = ()) -> RouteSpec:
    return RouteSpec(train, tuple(tuple(c) for c in connections), nodes, revenue=revenue)


def fresh() -> Game:
    return Game("prototype", [(1, "A"), (2, "B"), (3, "C"), (4, "D")], title="1888")


def assert_refused(game: Game, action: Action, code: str) -> IllegalAction:
    before = summary(game)
    with pytest.raises(IllegalAction) as info:
        game.process(action)
    assert info.value.code == code, str(info.value)
    assert str(info.value)
    assert summary(game) == before
    return info.value


# (setup, action, expected code) -------------------------------------------------------

# fmt: off
CASES: list[tuple[str, Callable[[], Game], Action, str]] = [
    # private auction (RULES.md §4)
    ("bid below the minimum", fresh, player(1, Bid, company="TA", price=52), "bid_too_low"),
    ("buy the cheapest private at the wrong price", fresh,
     player(1, Bid, company="KT", price=20), "wrong_price"),
    ("bid out of turn", fresh, player(2, Bid, company="TA", price=55), "not_your_turn"),
    ("bid more than one's cash", fresh, player(1, Bid, company="FC", price=700), "not_enough_cash"),
    # stock round (RULES.md §5)
    ("par at a price that is not a par price", lambda: game_before("129026", 41),
     player(P2, Par, corporation="JZR", price=100, row=0, column=3), "not_a_par_price"),
    ("par at a non-par cell with a par price's value", lambda: game_before("129026", 41),
     player(P2, Par, corporation="JZR", price=95, row=0, column=2), "not_a_par_price"),
    ("par a corporation that is already parred", lambda: game_before("129026", 41),
     player(P2, Par, corporation="LYR", price=95, row=1, column=3), "already_parred"),
    ("buy a share of an unparred corporation", lambda: game_before("129026", 41),
     player(P2, BuyShares, shares=("JZR_1",)), "not_parred"),
    ("buy another player's president's certificate", lambda: game_before("129026", 41),
     player(P2, BuyShares, shares=("LYR_0",)), "not_for_sale"),
    ("buy out of turn", lambda: game_before("129026", 41),
     player(P3, BuyShares, shares=("LYR_1",)), "not_your_turn"),
    ("sell in the first stock round", lambda: game_before("129026", 47),
     player(P1, SellShares, shares=("LYR_1",), percent=10), "no_selling_yet"),
    ("buy without the cash", lambda: game_before("129026", 65),
     player(P3, BuyShares, shares=("LYR_6",)), "not_enough_cash"),
    ("buy over 60 %", lambda: game_before("129026", 113),
     player(P1, BuyShares, shares=("LYR_7",)), "over_holding_limit"),
    ("buy over the certificate limit", lambda: game_before("129026", 498),
     player(P1, BuyShares, shares=("SSL_7",)), "over_cert_limit"),
    ("sell the president's certificate nobody can take", lambda: game_before("129026", 90),
     player(P4, SellShares, shares=("ZDR_1", "ZDR_2", "ZDR_3", "ZDR_0"), percent=50), "cannot_dump"),
    ("sell more than the pool may hold", lambda: game_before("1888_game_end_bankrupt", 107),
     player(B4, SellShares, shares=("HJR_1", "HJR_2", "HJR_4"), percent=30), "pool_full"),
    ("sell shares one does not hold", lambda: game_before("129026", 90),
     player(P4, SellShares, shares=("LYR_1",), percent=10), "not_owner"),
    ("exchange the Forbidden City for a corporation without a Beijing station",
     lambda: game_before("129026", 41), company("FC", BuyShares, shares=("LYR_1",)), "no_beijing_token"),
    ("north: exchange the Forbidden City outside its owner's turn",
     lambda: game_before("1888_game_end_bankrupt", 52), company("FC", BuyShares, shares=("JHR_6",)),
     "exchange_timing"),
    # track (RULES.md §6.5)
    ("lay an unconnected tile", lambda: game_before("129026", 52),
     corp("LYR", LayTile, hex="C7", tile="8-0", rotation=0), "not_connected"),
    ("lay a green tile in phase 2", lambda: game_before("129026", 52),
     corp("LYR", LayTile, hex="G15", tile="23-0", rotation=0), "color_not_available"),
    ("upgrade that drops a path", lambda: game_before("129026", 164),
     corp("HJR", LayTile, hex="F6", tile="14-0", rotation=0), "track_dropped"),
    ("lay on C5 while Heng Shan is a player's", lambda: game_before("129026", 52),
     corp("LYR", LayTile, hex="C5", tile="8-0", rotation=0), "hex_blocked"),
    ("lay a private's special tile as a normal lay", lambda: game_before("129026", 52),
     corp("LYR", LayTile, hex="H2", tile="L39-0", rotation=5), "special_tile"),
    ("lay a tile copy that is already on the map", lambda: game_before("129026", 66),
     corp("LYR", LayTile, hex="H14", tile="9-0", rotation=0), "tile_in_use"),
    ("lay a second tile in one turn", lambda: game_before("129026", 53),
     corp("LYR", LayTile, hex="F14", tile="8-0", rotation=4), "track_done"),
    ("lay track in another corporation's turn", lambda: game_before("129026", 52),
     corp("HJR", LayTile, hex="F6", tile="6-0", rotation=0), "not_your_turn"),
    # tokens (RULES.md §6.6)
    ("token in a full city", lambda: game_before("129026", 295),
     corp("JHR", PlaceToken, city="A19-0-0"), "city_full"),
    ("token in a city the network does not reach", lambda: game_before("129026", 67),
     corp("LYR", PlaceToken, city="6-0-0"), "not_reachable"),
    # running trains (ROUTES.md §3)
    ("run two trains over the same track", lambda: game_before("129026", 68),
     corp("LYR", RunRoutes, routes=(route("2-0", ["F16", "G15", "H14"], revenue=80),
                                    route("2-1", ["F16", "G15", "H14"], revenue=80))), "illegal_route"),
    ("claim more revenue than the route earns", lambda: game_before("129026", 68),
     corp("LYR", RunRoutes, routes=(route("2-0", ["F16", "G15", "H14"], revenue=100),)),
     "revenue_mismatch"),
    ("run a train the corporation does not own", lambda: game_before("129026", 68),
     corp("LYR", RunRoutes, routes=(route("2-5", ["F16", "G15", "H14"], revenue=80),)), "not_owner"),
    ("pay a dividend without a run", lambda: game_before("129026", 66),
     corp("LYR", Dividend, kind="payout"), "wrong_step"),
    # trains (RULES.md §6.9-§6.11)
    ("pass when a train is mandatory", lambda: game_before("129026", 53),
     corp("LYR", Pass), "must_buy_train"),
    ("buy a train the depot does not sell yet", lambda: game_before("129026", 53),
     corp("LYR", BuyTrain, train="3-0", price=180), "not_available"),
    ("buy a depot train below its price", lambda: game_before("129026", 53),
     corp("LYR", BuyTrain, train="2-0", price=70), "wrong_price"),
    ("discard without being over the limit", lambda: game_before("129026", 53),
     corp("LYR", DiscardTrain, train="2-0"), "not_crowded"),
    ("sell shares in an operating round without an emergency", lambda: game_before("129026", 53),
     player(P1, SellShares, shares=("LYR_1",), percent=10), "no_emergency"),
    ("go bankrupt while able to pay", lambda: game_before("129026", 53),
     corp("LYR", Bankrupt), "not_bankrupt"),
    ("forced train with president's money before selling enough",
     lambda: game_before("1888_game_end_bankrupt", 489),
     corp("HJR", BuyTrain, train="D-0", price=900), "must_sell_first"),
    ("pass a forced train purchase", lambda: game_before("1888_game_end_bankrupt", 489),
     corp("HJR", Pass), "must_buy_train"),
    # privates (RULES.md §6.12, §7)
    ("a corporation buys a private before phase 3", lambda: game_before("129026", 52),
     corp("LYR", BuyCompany, company="KT", price=20), "phase"),
    ("a corporation buys a private below 50 %", lambda: game_before("129026", 169),
     corp("HJR", BuyCompany, company="HS", price=30), "price_range"),
    ("a corporation buys a private above 150 %", lambda: game_before("129026", 169),
     corp("HJR", BuyCompany, company="HS", price=120), "price_range"),
    ("use a private's ability the corporation does not own", lambda: game_before("129026", 52),
     company("HS", LayTile, hex="C5", tile="L41-0", rotation=1), "not_owner"),
    ("use a private's ability in another corporation's turn", lambda: game_before("129026", 249),
     company("TA", LayTile, hex="H2", tile="L39-0", rotation=5), "not_owner"),
]
# fmt: on


@pytest.mark.parametrize("label, setup, action, code", CASES, ids=[c[0] for c in CASES])
def test_illegal_action_is_refused_and_changes_nothing(
    label: str, setup: Callable[[], Game], action: Action, code: str
) -> None:
    assert_refused(setup(), action, code)


def test_there_are_at_least_25_cases() -> None:
    assert len(CASES) >= 25


def test_token_without_money_is_refused() -> None:
    game = game_before("129026", 67)
    lyr = game.corporation("LYR")
    game.pay_to_bank(lyr, lyr.cash - 10)  # keep the money in play, out of LYR's treasury
    assert_refused(game, corp("LYR", PlaceToken, city="5-0-0"), "not_enough_cash")


def test_emergency_sale_of_more_than_needed_is_refused() -> None:
    game = game_before("1888_game_end_bankrupt", 489)
    game.process(player(B4, SellShares, shares=("SSL_5",), percent=10))
    assert_refused(game, player(B4, SellShares, shares=("ZDR_2", "ZDR_3", "ZDR_4"), percent=30), "oversell")


def test_after_an_emergency_sale_no_train_from_another_corporation() -> None:
    game = game_before("1888_game_end_bankrupt", 489)
    game.process(player(B4, SellShares, shares=("SSL_5",), percent=10))
    assert_refused(game, corp("HJR", BuyTrain, train="4-2", price=10), "emergency")


def test_buying_over_the_train_limit_is_refused() -> None:
    game = game_before("129026", 58)  # HJR's buy-train step, one 2-train owned, phase 2 (limit 4)
    hjr = game.corporation("HJR")
    for train in ("2-3", "2-4", "2-5"):
        apply_purchase(game, hjr, check_purchase(game, hjr, train, 80, None, False))
    with pytest.raises(IllegalAction) as info:
        check_purchase(game, hjr, "2-6", 80, None, False)
    assert info.value.code == "train_limit"


def test_a_d_trade_in_needs_a_d_for_sale() -> None:
    game = game_before("129026", 53)
    assert_refused(game, corp("LYR", BuyTrain, train="2-0", price=80, exchange="2-1"), "no_trade_in")


def test_malformed_actions_are_malformed_input_not_illegal() -> None:
    game = fresh()
    before = summary(game)
    with pytest.raises(MalformedInput):
        game.process(player(1, Bid, company="XX", price=30))
    with pytest.raises(MalformedInput):
        game.process(player(99, Bid, company="TA", price=55))
    assert summary(game) == before


# positive counterparts of some refusals --------------------------------------------------


def test_prototype_forbidden_city_exchange_in_another_players_turn() -> None:
    game = game_before("129026", 187)  # SR 5, Player 3 to act; FC is Player 2's
    waiting = game.waiting_for()["entity"]
    game.process(company("FC", BuyShares, shares=("JHR_4",)))
    assert game.corporation("JHR").shares.owner_of("JHR_4") == P2
    assert game.company("FC").closed
    assert game.waiting_for()["entity"] == waiting  # the exchange is not a turn


def test_north_forbidden_city_exchange_ends_the_owners_turn() -> None:
    game = game_before("1888_game_end_bankrupt", 54)  # SR 2, Player 3 (FC owner) to act
    assert game.waiting_for()["entity"] == B3
    game.process(company("FC", BuyShares, shares=("JHR_6",)))
    assert game.corporation("JHR").shares.owner_of("JHR_6") == B3
    assert game.waiting_for()["entity"] != B3


def test_selling_the_presidency_hands_it_to_the_largest_other_holder() -> None:
    game = game_before("1888_game_end_bankrupt", 398)  # Player 2 sells LYR incl. the president's cert
    game.process(player(B2, SellShares, shares=("LYR_3", "LYR_5", "LYR_0"), percent=40))
    lyr = game.corporation("LYR")
    assert lyr.president == B3
    assert lyr.shares.certs_of("pool")[-2:] == ["LYR_1", "LYR_2"]  # the new president's first two
