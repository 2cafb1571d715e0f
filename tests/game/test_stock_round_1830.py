"""1830's stock round rules the shared logs never exercise (1830 RULES.md §5, §14).

Positions are the real ones of log 29133 (4 players, certificate limit 16): SR 1
before action 24, SR 2 before action 60 (phase 3; Player 1 has $50 and the DH and CA,
Player 3 the SV and MH), SR 3 before action 131 (Player 2, $171, to act). Where a
rule needs a price in a coloured zone, the test moves the marker there itself; every
expected outcome is the rule's text:

* §5.2 sell – buy – sell in one turn; one purchase per turn; §5.5 no buying back a
  corporation sold this round;
* §5.3 no selling and no private sales in SR 1;
* §5.6 brown zone: several shares of that corporation in one turn — only from the
  pool, and not after an IPO share, unless ``multiple_brown_from_ipo``; never after a
  share of another corporation;
* §5.7 the 60 % limit is lifted in the orange and brown zones; shares in the yellow,
  orange and brown zones do not count toward the certificate limit;
* §5.9 players buy other players' privates from SR 2 in phases 2-4 (not the BO): the
  turn offers it, so a turn that could do only that waits for a pass.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import BuyCompany, BuyShares, Pass, SellShares
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.market import Cell
from route18xx.engine.game.privates import check_player_buys_private, privates_for_sale_to
from route18xx.engine.game.shares import POOL
from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _log

P1, P2, P3, P4 = 4836, 4631, 4639, 1668

#: market cells by zone (1830 data/market.json; 1830 RULES.md §14 "market zones")
WHITE, YELLOW, ORANGE, BROWN = (2, 7), (0, 0), (4, 0), (6, 1)


@cache
def _at(action_id: int) -> Game:
    return replay(_log("29133"), stop_before=action_id).game


def _game(action_id: int) -> Game:
    return copy.deepcopy(_at(action_id))


def _move(game: Game, sym: str, cell: Cell) -> None:
    corp = game.corporation(sym)
    assert corp.share_price is not None
    corp.share_price = game.market.move(sym, corp.share_price, cell)


def _do(game: Game, *actions: object) -> None:
    for action in actions:
        game.process(action)  # type: ignore[arg-type]
        assert check_after(game, action) == []  # type: ignore[arg-type]


def _refused(game: Game, action: object) -> str:
    with pytest.raises(IllegalAction) as refused:
        game.process(action)  # type: ignore[arg-type]
    return refused.value.code


def _buy(pid: int, cert: str) -> BuyShares:
    return BuyShares(pid, "player", shares=(cert,))


def _sell(pid: int, *certs: str) -> SellShares:
    return SellShares(pid, "player", shares=certs, percent=sum(20 if c.endswith("_0") else 10 for c in certs))


# -- §5.2, §5.5: sell, buy, sell --------------------------------------------------------


def test_a_turn_may_sell_buy_and_sell_again_then_ends_with_a_pass() -> None:
    game = _game(131)
    assert game.waiting_for()["entity"] == P2
    cash = game.player(P2).cash
    nynh, bo = game.price(game.corporation("NYNH")), game.price(game.corporation("B&O"))
    _do(game, _sell(P2, "NYNH_5"), _buy(P2, "PRR_1"), _sell(P2, "B&O_5"))
    assert game.player(P2).cash == cash + nynh - 90 + bo  # PRR_1 from the pool at 90
    assert game.waiting_for()["entity"] == P2  # the turn goes on until the player passes
    assert _refused(game, _buy(P2, "PRR_7")) == "already_bought"  # one purchase a turn
    assert _refused(game, _buy(P2, "NYNH_7")) in ("already_bought", "sold_this_round")
    _do(game, Pass(P2, "player"))
    assert game.waiting_for()["entity"] == P3


def test_a_corporation_sold_this_round_cannot_be_bought_back() -> None:
    game = _game(131)
    _do(game, _sell(P2, "NYNH_5"))
    assert _refused(game, _buy(P2, "NYNH_7")) == "sold_this_round"


def test_sr1_has_no_sales_and_no_private_sales() -> None:
    game = _game(24)
    assert game.turn == 1 and game.waiting_for()["entity"] == P3
    assert "buy_company" not in game.waiting_for()["actions"]
    assert _refused(game, BuyCompany(P3, "player", company="CS", price=40)) == "no_private_sales"


# -- §5.6 the brown zone ---------------------------------------------------------------


def _brown_prr(rule_set: str = "standard") -> Game:
    game = _game(131)
    game.rule_set = game.title.rule_sets[rule_set]
    _move(game, "PRR", BROWN)
    game.corporation("PRR").shares.move("PRR_8", POOL)  # two pool shares: PRR_1, PRR_8
    return game


def test_brown_zone_several_pool_shares_in_one_turn() -> None:
    game = _brown_prr()
    cash = game.player(P2).cash
    _do(game, _buy(P2, "PRR_1"), _buy(P2, "PRR_8"))
    assert game.player(P2).cash == cash - 2 * 27
    assert _refused(game, _buy(P2, "PRR_7")) == "already_bought"  # not the IPO (standard)


def test_brown_zone_standard_no_pool_share_after_an_ipo_share() -> None:
    game = _brown_prr()
    _do(game, _buy(P2, "PRR_7"))  # IPO, at par
    assert _refused(game, _buy(P2, "PRR_1")) == "already_bought"


def test_brown_zone_ipo_shares_too_with_multiple_brown_from_ipo() -> None:
    game = _brown_prr("multiple_brown_from_ipo")
    _do(game, _buy(P2, "PRR_7"), _buy(P2, "PRR_1"), _buy(P2, "PRR_8"))
    assert game.corporation("PRR").shares.percent_of(P2) == 40


def test_brown_zone_not_after_a_share_of_another_corporation() -> None:
    game = _brown_prr()
    _do(game, _buy(P2, "B&O_2"))
    assert _refused(game, _buy(P2, "PRR_1")) == "already_bought"


def test_a_white_price_allows_one_share_a_turn() -> None:
    game = _game(131)
    game.corporation("PRR").shares.move("PRR_8", POOL)
    _do(game, _buy(P2, "PRR_1"))
    assert _refused(game, _buy(P2, "PRR_8")) == "already_bought"


# -- §5.7 limits by zone -------------------------------------------------------------------


def _p3_with_60_percent_prr(cell: Cell) -> Game:
    game = _game(131)
    prr = game.corporation("PRR")
    for cert in ("PRR_2", "PRR_5"):  # 40 % + 20 % given to Player 3, the president
        prr.shares.move(cert, P3)
    _move(game, "PRR", cell)
    _do(game, Pass(P2, "player"))
    assert game.waiting_for()["entity"] == P3 and prr.shares.percent_of(P3) == 60
    return game


def test_the_60_percent_limit_holds_in_the_white_zone() -> None:
    game = _p3_with_60_percent_prr(WHITE)
    assert _refused(game, _buy(P3, "PRR_1")) == "over_holding_limit"


@pytest.mark.parametrize("cell", [ORANGE, BROWN])
def test_the_60_percent_limit_is_lifted_in_the_orange_and_brown_zones(cell: Cell) -> None:
    game = _p3_with_60_percent_prr(cell)
    _do(game, _buy(P3, "PRR_1"))
    assert game.corporation("PRR").shares.percent_of(P3) == 70


@pytest.mark.parametrize("cell, counts", [(WHITE, True), (YELLOW, False), (ORANGE, False), (BROWN, False)])
def test_certificates_in_coloured_zones_do_not_count(cell: Cell, counts: bool) -> None:
    game = _game(131)
    player = game.player(P4)  # NYNH president: 5 NYNH certificates, 1 PRR, 1 B&O
    assert game.num_certs(player) == 7
    _move(game, "NYNH", cell)
    assert game.num_certs(player) == (7 if counts else 2)


@pytest.mark.parametrize("cell, allowed", [(WHITE, False), (YELLOW, True), (ORANGE, True), (BROWN, True)])
def test_at_the_certificate_limit_only_shares_in_coloured_zones_may_be_bought(
    cell: Cell, allowed: bool
) -> None:
    game = _game(131)
    game.cert_limit = game.num_certs(game.player(P2))  # Player 2 is at the limit
    _move(game, "PRR", cell)
    if allowed:
        _do(game, _buy(P2, "PRR_1"))
    else:
        assert _refused(game, _buy(P2, "PRR_1")) == "over_cert_limit"


# -- §5.9 privates between players ---------------------------------------------------------


def test_from_sr2_a_player_buys_another_players_private_at_an_agreed_price() -> None:
    game = _game(60)
    assert game.turn == 2 and game.phase.name == "3" and game.waiting_for()["entity"] == P1
    assert "buy_company" in game.waiting_for()["actions"]
    cash1, cash3 = game.player(P1).cash, game.player(P3).cash
    _do(game, BuyCompany(P1, "player", company="MH", price=50))
    assert game.company("MH").owner == P1
    assert (game.player(P1).cash, game.player(P3).cash) == (cash1 - 50, cash3 + 50)
    # the turn's one purchase is made: no share, no second private; selling is still open
    waiting = game.waiting_for()
    assert waiting["entity"] == P1 and "buy_shares" not in waiting["actions"]
    assert "buy_company" not in waiting["actions"] and "sell_shares" in waiting["actions"]
    assert _refused(game, BuyCompany(P1, "player", company="SV", price=1)) == "already_bought"


def test_a_private_sale_does_not_move_the_priority_deal() -> None:
    """The next stock round's priority goes to the player after the last one who bought
    or sold shares (§5.12); 18xx.games records a private purchase without
    ``track_action``, so it is not such an act."""
    game = _game(60)
    rnd = game.round
    assert getattr(rnd, "last_to_act") is None  # SR 2 has just begun
    _do(game, BuyCompany(P1, "player", company="MH", price=50), Pass(P1, "player"))
    assert getattr(rnd, "last_to_act") is None
    _do(game, _buy(P2, "PRR_5"))  # a share bought from the IPO is such an act
    assert getattr(rnd, "last_to_act") == P2


def test_a_private_costs_no_more_than_the_buyer_has_and_never_ones_own() -> None:
    game = _game(60)
    assert _refused(game, BuyCompany(P1, "player", company="MH", price=51)) == "wrong_price"
    assert _refused(game, BuyCompany(P1, "player", company="DH", price=1)) == "not_for_sale"


def test_no_private_sales_from_phase_5() -> None:
    game = _game(60)
    assert [c.sym for c in privates_for_sale_to(game, P1)] == ["SV", "MH"]
    # phase 5 (its discard step aside): the phase's status no longer allows it
    game.state.phase_index = next(i for i, p in enumerate(game.data.phases) if p.name == "5")
    assert privates_for_sale_to(game, P1) == []
    with pytest.raises(IllegalAction) as refused:
        check_player_buys_private(game, P1, game.company("MH"), 50)
    assert refused.value.code == "no_private_sales"


def test_a_turn_that_could_only_buy_a_private_waits_for_a_pass() -> None:
    """Player 1 with $5 can buy no share and, once its shares are gone, sell none:
    18xx.games still offers ``buy_company`` (``purchasable_companies``), so the turn
    is not skipped — the log holds that player's ``pass``."""
    game = _game(60)
    p1 = game.player(P1)
    for corp in game.corporations.values():
        for cert in corp.shares.certs_of(P1):
            corp.shares.move(cert, P2 if cert.endswith("_0") else POOL)
            if cert.endswith("_0"):
                corp.president = P2
    game.transfer(p1, game.player(P2), p1.cash - 5)
    assert game.waiting_for() == {"step": "buy/sell/par shares", "entity": P1,
                                  "actions": ["buy_company", "pass"]}
