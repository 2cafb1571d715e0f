"""1830 emergency money: the president's cash buys a train from another corporation too,
for up to its face value (1830 RULES.md §6.11; 18xx.games ``EBUY_FROM_OTHERS = :value``;
1888 ``:never``, only the corporation's own cash).

The position is the real one of log 29133 before action 450: NYNH has no train and a
route, $181, and the depot sells only a D at $1,100; its president Player 4 has $354.
On the site he declared bankruptcy; the rules also let him buy NYC's 5-train (face
value $450) or PRR's 6-train (face value $630) with his own money added.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import cache

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import BuyTrain, SellShares
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _log


@cache
def _before_bankruptcy() -> Game:
    game = replay(_log("29133"), stop_before=450).game
    assert game.waiting_for()["entity"] == "NYNH" and game.waiting_for()["step"] == "buy trains"
    nynh = game.corporation("NYNH")
    assert (nynh.cash, nynh.trains, game.player(nynh.president).cash) == (181, [], 354)
    return game


def _fresh() -> Game:
    return copy.deepcopy(_before_bankruptcy())


def test_the_president_adds_what_the_corporation_lacks_up_to_face_value() -> None:
    game = _fresh()
    nynh, nyc = game.corporation("NYNH"), game.corporation("NYC")
    president = game.player(nynh.president)
    action = BuyTrain("NYNH", "corporation", train="5-1", price=450)
    game.process(action)
    assert check_after(game, action) == []
    # $450 = NYNH's $181 + the president's $269; NYC receives the whole price
    assert (nynh.cash, president.cash, nyc.cash) == (0, 354 - 269, 129 + 450)
    assert nynh.trains == ["5-1"] and "5-1" not in nyc.trains


@pytest.mark.parametrize(
    "train, price, why",
    [
        ("5-1", 451, "above the 5-train's face value $450"),
        ("6-1", 536, "above NYNH's $181 + the president's $354"),
        ("5-1", 0, "less than $1"),
    ],
)
def test_more_than_face_value_or_than_they_have_is_refused(train: str, price: int, why: str) -> None:
    game = _fresh()
    with pytest.raises(IllegalAction) as refused:
        game.process(BuyTrain("NYNH", "corporation", train=train, price=price))
    assert refused.value.code == "wrong_price", why
    assert game.corporation("NYNH").cash == 181 and game.player(1668).cash == 354


def test_all_they_have_buys_a_dearer_train_below_its_face_value() -> None:
    game = _fresh()
    game.process(BuyTrain("NYNH", "corporation", train="6-1", price=535))  # face value $630
    assert game.corporation("NYNH").trains == ["6-1"] and game.player(1668).cash == 0


def test_without_the_rule_only_the_corporations_cash_buys_from_another() -> None:
    """The control: the same position under a title without ``ebuy_from_others`` (1888)."""
    game = _fresh()
    game.title = dataclasses.replace(game.title, ebuy_from_others=False)
    with pytest.raises(IllegalAction):
        game.process(BuyTrain("NYNH", "corporation", train="5-1", price=450))
    game.process(BuyTrain("NYNH", "corporation", train="5-1", price=181))
    assert game.player(1668).cash == 354


# -- the presidency in emergency sales (RULES.md §6.11; 18xx.games ``EmergencyMoney``:
# ``EBUY_PRES_SWAP = true`` and ``president_swap_concern?`` only for the buying
# corporation): Player 4 may sell shares that hand another corporation's presidency away,
# never NYNH's. Here Player 2 gets a second holder's 20-30 % and the pools are emptied into
# the IPO so that the 50 % pool limit does not decide first.


def _with_rivals() -> Game:
    game = _fresh()
    nyc, nynh = game.corporation("NYC"), game.corporation("NYNH")
    nyc.shares.move("NYC_5", 4631)  # Player 2: 20 % of NYC
    for cert in ("NYC_6", "NYC_8"):
        nyc.shares.move(cert, "ipo")
    for cert in ("NYNH_2", "NYNH_7"):  # Player 2: 30 % of NYNH (with NYNH_1)
        nynh.shares.move(cert, 4631)
    return game


def test_an_emergency_sale_may_hand_another_corporations_presidency_away() -> None:
    game = _with_rivals()
    nyc = game.corporation("NYC")
    # all his NYC and half the president's certificate (a partial bundle, RULES.md §5.10):
    # $410 of the $565 NYNH still lacks, not more than needed
    sale = SellShares(1668, "player", shares=("NYC_1", "NYC_2", "NYC_3", "NYC_4", "NYC_0"), percent=50)
    game.process(sale)
    assert check_after(game, sale) == []
    assert nyc.president == 4631 and nyc.shares.percent_of(1668) == 10


def test_an_emergency_sale_may_not_hand_the_buying_corporations_presidency_away() -> None:
    game = _with_rivals()
    with pytest.raises(IllegalAction) as refused:  # 20 % left against Player 2's 30 %
        game.process(SellShares(1668, "player", shares=("NYNH_4", "NYNH_3", "NYNH_6", "NYNH_5"),
                                percent=40))
    assert refused.value.code == "keeps_presidency"
    sale = SellShares(1668, "player", shares=("NYNH_4", "NYNH_3", "NYNH_6"), percent=30)
    game.process(sale)  # 30 % left, equal to Player 2's: he stays president
    assert game.corporation("NYNH").president == 1668
