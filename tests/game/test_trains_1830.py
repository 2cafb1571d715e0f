"""1830's trains: the D and its trade-in, rusting, privates closing, the forced train
(1830 RULES.md §6.9, §6.10, §7.7, §8, §9). Real positions of log 29133:

* before #439 (phase 6): ERIE, $804 and one 4-train (4-1), is buying; the depot sells
  only D-0. The log's #439 trades the 4-1 in for the D at $800.
* before #246 (phase 5): no D is for sale yet.
* before #229 (phase 4): B&M buys the first 5-train (5-0).
* before #177: NYC's first turn, no train, no track yet at its home E19.
* before #450 (phase D): NYNH lost its 4-3 to the D and has a route.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import BuyTrain, Pass, parse_action
from route18xx.engine.game.emergency import must_buy_train
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.trains import depot_trains
from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _log


@cache
def _at(action_id: int) -> Game:
    return replay(_log("29133"), stop_before=action_id).game


def _game(action_id: int) -> Game:
    return copy.deepcopy(_at(action_id))


def _refused(game: Game, action: object) -> str:
    with pytest.raises(IllegalAction) as refused:
        game.process(action)  # type: ignore[arg-type]
    return refused.value.code


def _raw(action_id: int) -> dict[str, object]:
    return next(a for a in _log("29133")["actions"] if a["id"] == action_id)


# -- §6.9, §9.3 the D ------------------------------------------------------------------


def test_a_d_for_800_with_a_4_traded_in_rusts_every_4() -> None:
    game = _game(439)
    erie = game.corporation("ERIE")
    assert game.phase.name == "6" and erie.trains == ["4-1"] and erie.cash == 804
    assert depot_trains(game) == ["D-0"]
    buy = BuyTrain("ERIE", "corporation", train="D-0", price=800, exchange="4-1")
    game.process(buy)
    assert check_after(game, buy) == []
    assert erie.trains == ["D-0"] and erie.cash == 4
    assert game.phase.name == "D"  # the first D starts phase D (§8) ...
    # ... and every 4 rusts (§9.2): the others' and the one traded in
    owned = {sym: c.trains for sym, c in game.corporations.items() if c.floated}
    assert not any(t.startswith("4-") for trains in owned.values() for t in trains)
    assert owned["NYNH"] == [] and owned["NYC"] == ["5-1"] and owned["B&O"] == ["6-0"]
    assert "4-1" not in depot_trains(game) and game.train_owner("4-1") is None
    assert depot_trains(game) == ["D-1"]  # D unlimited: the next one


@pytest.mark.parametrize("price", [700, 1100])
def test_the_trade_in_price_is_800(price: int) -> None:
    game = _game(439)
    buy = BuyTrain("ERIE", "corporation", train="D-0", price=price, exchange="4-1")
    assert _refused(game, buy) == "wrong_price"


def test_without_a_trade_in_the_d_costs_1100() -> None:
    game = _game(439)  # $804 and a train: no emergency, the president does not help
    assert _refused(game, BuyTrain("ERIE", "corporation", train="D-0", price=1100)) == "not_enough_cash"
    assert _refused(game, BuyTrain("ERIE", "corporation", train="D-0", price=800)) == "wrong_price"  # the face value from the depot


def test_no_d_before_phase_6() -> None:
    game = _game(246)
    assert game.phase.name == "5" and not any(t.startswith("D-") for t in depot_trains(game))


# -- §7.7 privates close on the first 5 -----------------------------------------------------


def test_the_first_5_closes_every_private() -> None:
    game = _game(229)
    assert game.phase.name == "4"
    assert [c.sym for c in game.companies.values() if not c.closed] == ["SV", "CS", "DH", "MH", "CA"]
    game.process(parse_action(_raw(229)))  # B&M buys 5-0
    assert game.phase.name == "5"
    assert all(c.closed for c in game.companies.values())


# -- §6.10 the forced train: only with a route ----------------------------------------------


def test_a_trainless_corporation_without_a_route_may_pass() -> None:
    game = _game(177)
    nyc = game.corporation("NYC")
    assert nyc.trains == [] and game.waiting_for()["entity"] == "NYC"
    game.process(Pass("NYC", "corporation"))  # no track: E19's city stays alone
    assert game.waiting_for()["step"] == "buy trains" and not must_buy_train(game, nyc)
    game.process(Pass("NYC", "corporation"))
    assert nyc.trains == [] and game.waiting_for()["step"] != "buy trains"  # a private next


def test_a_trainless_corporation_with_a_route_must_buy() -> None:
    game = _game(450)
    nynh = game.corporation("NYNH")
    assert nynh.trains == [] and must_buy_train(game, nynh)
    assert game.waiting_for() == {"step": "buy trains", "entity": "NYNH", "actions": ["buy_train"]}
    assert _refused(game, Pass("NYNH", "corporation")) == "must_buy_train"


# -- §9.4 no export ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["26855", "29133"])
def test_no_train_leaves_the_depot_but_by_purchase(name: str) -> None:
    """1830 exports nothing at the end of an OR set (RULES.md §3.4, §9.4): every train
    that left the game had been a corporation's (rusted, or traded in); the depot's
    next train only changes by purchases."""
    owned: set[str] = set()
    upcoming_at_or_set_end: list[tuple[list[str], list[str]]] = []
    last_upcoming: list[str] = []

    def after(game: Game, action: object) -> None:
        nonlocal last_upcoming
        for corp in game.corporations.values():
            owned.update(corp.trains)
        last_upcoming = list(game.depot.upcoming)

    def on_round(game: Game) -> None:
        if game.state.round is not None and game.state.round.kind == "stock" and last_upcoming:
            upcoming_at_or_set_end.append((last_upcoming, list(game.depot.upcoming)))

    def arm(game: Game, action: object) -> None:
        if on_round not in game.on_new_round:
            game.on_new_round.append(on_round)

    result = replay(_log(name), before_action=arm, after_action=after)
    assert result.game.finished
    assert set(result.game.depot.removed) <= owned
    assert upcoming_at_or_set_end and all(before == now for before, now in upcoming_at_or_set_end)
