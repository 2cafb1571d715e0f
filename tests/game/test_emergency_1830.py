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
from route18xx.engine.game.actions import BuyTrain
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.replay import replay
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
