"""Audit of the private auction's turn order (RULES.md §4), moves as log JSON.

The engineer's open question was the turn order after everyone passed. The
18xx.games waterfall auction processes the pass that completes the round of
passes (KT cheaper, or the fake OR), un-passes everybody and then moves to the
next player as after any pass; a forced free Kaiping Tramway goes to the player
after the last passer, and the turn then moves on once more (RULES.md §4.6).
"""

from __future__ import annotations

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.invariants import check
from tests.game.audit import P1, P2, P3, P4, act, buy_privates_in_seat_order, new_game


def test_everyone_passing_lowers_kaiping_tramway_and_the_next_seat_starts_again() -> None:
    """§4.6: a round of passes starting anywhere costs KT ¥5; the turn moves on after the last passer."""
    game = new_game()
    act(game, P1, "bid", company="TA", price=55)  # a bid, not a pass
    for pid in (P2, P3, P4):
        act(game, pid, "pass")
    assert game.company("KT").price == 25  # P1 has not passed since his bid
    act(game, P1, "pass")
    assert game.company("KT").price == 20
    assert game.waiting_for()["entity"] == P2
    # the new round of passes starts from scratch: three passes are not enough
    for pid in (P2, P3, P4):
        act(game, pid, "pass")
    assert game.company("KT").price == 20
    act(game, P1, "bid", company="KT", price=20)  # buys KT at the lowered price
    assert game.company("KT").owner == P1
    # TA's single bid (P1's 55) is resolved at once (§4.4)
    assert game.company("TA").owner == P1 and game.player(P1).cash == 600 - 20 - 55
    assert game.waiting_for()["entity"] == P2
    assert check(game) == []


def test_free_kaiping_tramway_goes_to_the_player_after_the_last_passer() -> None:
    """§4.6: at price 0 the next player must take KT; the one after him acts next."""
    game = new_game()
    act(game, P1, "bid", company="HS", price=80)  # the passing rounds start with P2
    order = [P2, P3, P4, P1]
    for _ in range(5):
        for pid in order:
            act(game, pid, "pass")
    assert game.company("KT").owner == P2  # P1 passed last; P2 is forced
    assert game.player(P2).cash == 600
    assert game.bank.cash == 9000 - 2400
    assert game.waiting_for()["entity"] == P3


def test_everyone_passing_after_kt_is_sold_pays_income_and_exports_a_two() -> None:
    """§4.6, §9.7: the fake OR pays every owner its income and exports the next 2-train."""
    game = new_game()
    act(game, P1, "bid", company="KT", price=25)
    act(game, P2, "bid", company="TA", price=50)
    for pid in (P3, P4, P1, P2):
        act(game, pid, "pass")
    assert game.player(P1).cash == 600 - 25 + 5
    assert game.player(P2).cash == 600 - 50 + 10
    assert game.depot.upcoming[:2] == ["2-1", "2-2"]
    assert game.depot.removed == ["2-0"]
    assert game.phase.name == "2"
    assert game.waiting_for()["entity"] == P3
    assert game.bank.cash == 9000 - 2400 + 75 - 15
    assert check(game) == []


def test_a_running_auction_does_not_move_the_priority_turn() -> None:
    """§4.4, §4.5, §4.7: the lowest bidder acts in an auction; normal turns resume after the buyer
    who started it, and priority goes to the seat after the last normal-turn actor."""
    game = new_game()
    act(game, P1, "bid", company="TA", price=55)
    act(game, P2, "bid", company="TA", price=60)
    act(game, P3, "bid", company="KT", price=25)  # buys KT; TA has two bids → auction
    assert game.waiting_for()["entity"] == P1  # the lowest bid acts
    with pytest.raises(IllegalAction) as info:
        act(game, P2, "bid", company="TA", price=70)
    assert info.value.code == "not_your_turn"
    act(game, P1, "bid", company="TA", price=65)
    assert game.waiting_for()["entity"] == P2
    act(game, P2, "pass")  # withdraws: P1 buys TA at 65
    assert game.company("TA").owner == P1
    assert game.waiting_for()["entity"] == P4  # normal turns resume after P3
    act(game, P4, "bid", company="HS", price=75)
    act(game, P1, "bid", company="CW", price=100)
    act(game, P2, "bid", company="YRF", price=125)
    act(game, P3, "bid", company="FC", price=150)
    assert game.round.kind == "stock"
    assert [p.id for p in game.players] == [P4, P1, P2, P3]
    assert [p.cash for p in sorted(game.players, key=lambda p: p.id)] == [435, 475, 425, 525]
    assert game.bank.cash == 9000 - 2400 + 25 + 65 + 75 + 100 + 125 + 150


def test_buying_every_private_in_turn_gives_the_next_seat_priority() -> None:
    """§4.7: six purchases by P1 P2 P3 P4 P1 P2 → P3 has priority in stock round 1."""
    game = new_game()
    buy_privates_in_seat_order(game)
    assert game.round.kind == "stock"
    assert [p.id for p in game.players] == [P3, P4, P1, P2]
    assert game.waiting_for()["entity"] == P3
    assert {c.sym: c.owner for c in game.companies.values()} == {
        "KT": P1, "TA": P2, "HS": P3, "CW": P4, "YRF": P1, "FC": P2,
    }
