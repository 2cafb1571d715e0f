"""Audit of presidency changes and president's-certificate sales (RULES.md §5.5-§5.8).

The open questions were which two shares a new president hands over when a
purchase or a sale makes him president, and how a partial sale of the
president's certificate is booked. 18xx.games (``ShareHolder`` keeps each
owner's certificates in acquisition order; ``change_president`` takes the new
president's first two shares): the new president receives the 20 %
certificate and gives his two earliest 10 % shares to the old president, or to
the pool when the old president no longer holds 20 %; a partial sale then takes
the pool's first share back to the seller. Every move here is log JSON.
"""

from __future__ import annotations

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.invariants import check
from route18xx.engine.game.shares import IPO, POOL
from tests.game.audit import (
    P1,
    P2,
    P3,
    P4,
    act,
    buy_privates_in_seat_order,
    certs,
    new_game,
    open_jzr_game,
    share_price_id,
)


def test_a_purchase_that_creates_a_new_president_hands_his_first_two_shares_over() -> None:
    """§5.8: only a strictly larger holding takes the presidency; the swap is the 20 % certificate
    against the new president's two earliest shares; no money moves."""
    game = new_game()
    buy_privates_in_seat_order(game)  # SR 1 order P3 P4 P1 P2; cash P3 525, P4 500, P1 450, P2 400
    act(game, P3, "par", corporation="JZR", share_price=share_price_id(game, 90))
    act(game, P4, "buy_shares", shares=["JZR_1"], percent=10)
    for pid in (P1, P2, P3):
        act(game, pid, "pass")
    act(game, P4, "buy_shares", shares=["JZR_2"], percent=10)
    jzr = game.corporation("JZR")
    assert jzr.president == P3  # 20 % against 20 %: the president keeps it
    for pid in (P1, P2, P3):
        act(game, pid, "pass")
    act(game, P4, "buy_shares", shares=["JZR_3"], percent=10)
    assert jzr.president == P4
    assert certs(game, "JZR", P4) == ["JZR_3", "JZR_0"]
    assert certs(game, "JZR", P3) == ["JZR_1", "JZR_2"]
    assert (jzr.shares.percent_of(P4), jzr.shares.percent_of(P3)) == (30, 20)
    assert (game.player(P3).cash, game.player(P4).cash) == (525 - 180, 500 - 3 * 90)
    assert not jzr.floated  # north floats at 60 % sold (§5.7)
    act(game, P1, "buy_shares", shares=["JZR_4"], percent=10)
    assert jzr.floated and jzr.cash == 900
    assert jzr.president == P4  # P1's 10 % changes nothing
    assert check(game) == []


def test_selling_the_presidency_to_two_equal_holders_goes_to_the_next_seat() -> None:
    """§5.8: P3 sells his 20 % certificate; P4 and P1 hold 20 % each and P4 sits next after P3.
    P3 holds nothing now, so P4's two shares go to the pool. Two rows down from 85."""
    game = open_jzr_game()
    act(game, P3, "sell_shares", shares=["JZR_0"], percent=20)
    jzr = game.corporation("JZR")
    assert jzr.president == P4
    assert certs(game, "JZR", P4) == ["JZR_0"]
    assert certs(game, "JZR", POOL) == ["JZR_1", "JZR_3"]
    assert certs(game, "JZR", P1) == ["JZR_2", "JZR_4"]
    assert certs(game, "JZR", P3) == []
    assert game.player(P3).cash == 360 + 2 * 85
    assert jzr.share_price == (4, 2) and game.price(jzr) == 75
    with pytest.raises(IllegalAction) as info:
        act(game, P3, "buy_shares", shares=["JZR_5"], percent=10)
    assert info.value.code == "sold_this_round"
    assert check(game) == []


def test_a_partial_sale_of_the_presidents_certificate_takes_the_pools_first_share_back() -> None:
    """§5.8, ACTIONS.md §4.5: ``percent`` 10 with the 20 % certificate listed sells half of it."""
    game = open_jzr_game()
    act(game, P3, "sell_shares", shares=["JZR_0"], percent=10)
    jzr = game.corporation("JZR")
    assert jzr.president == P4
    assert certs(game, "JZR", P3) == ["JZR_1"]
    assert certs(game, "JZR", POOL) == ["JZR_3"]
    assert certs(game, "JZR", P4) == ["JZR_0"]
    assert game.player(P3).cash == 360 + 85
    assert jzr.share_price == (3, 2) and game.price(jzr) == 80
    assert jzr.shares.percent_of(IPO) == 40
    assert check(game) == []


def test_the_presidents_certificate_cannot_go_when_nobody_can_take_it() -> None:
    """§5.8: the 20 % certificate goes to the pool only if another player holds 20 %."""
    game = open_jzr_game()
    act(game, P3, "pass")
    act(game, P4, "pass")
    act(game, P1, "pass")
    with pytest.raises(IllegalAction) as info:  # P2 is LYR's only holder
        act(game, P2, "sell_shares", shares=["LYR_1", "LYR_0"], percent=30)
    assert info.value.code == "cannot_dump"
    act(game, P2, "sell_shares", shares=["LYR_1"], percent=10)  # plain shares may go
    lyr = game.corporation("LYR")
    assert certs(game, "LYR", POOL) == ["LYR_1"] and lyr.president == P2
    assert game.player(P2).cash == 230 + 70
    assert lyr.share_price == (7, 3) and game.price(lyr) == 65  # par 70, one row down
