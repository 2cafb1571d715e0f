"""Audit of the Forbidden City exchange in both rule sets (RULES.md §7.6, ACTIONS.md §4.4).

The exchange is a ``buy_shares`` whose entity is the private ``FC`` (entity
type ``company``): its owner takes one 10 % share of a corporation with a token
in Beijing for free and FC closes.

* north: on the owner's own stock-round turn, from the IPO or the pool, not
  after selling in that turn; it is the turn's purchase, so the turn ends;
* prototype: at any moment of a stock round, from the IPO only, and the owner
  keeps his purchase.

No shared log uses it; the scenario is ``open_jzr_game`` (P2 owns FC, JZR has
its home token in Beijing, LYR has none).
"""

from __future__ import annotations

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check
from route18xx.engine.game.scoring import player_value
from route18xx.engine.game.shares import IPO, POOL
from route18xx.engine.game.stock_round import StockRound
from tests.game.audit import P1, P2, P3, P4, act, certs, open_jzr_game


def _to_p2(game: Game) -> None:
    for pid in (P3, P4, P1):
        act(game, pid, "pass")


def test_north_exchange_from_the_ipo_is_the_turns_purchase() -> None:
    game = open_jzr_game("north")
    _to_p2(game)
    value = player_value(game, game.player(P2))
    act(game, "FC", "buy_shares", shares=["JZR_5"], percent=10)
    fc = game.company("FC")
    assert fc.closed
    assert certs(game, "JZR", P2) == ["JZR_5"]
    assert game.corporation("JZR").shares.percent_of(IPO) == 30
    assert game.player(P2).cash == 230  # free
    # FC's face value (150) is replaced by a JZR share at 85
    assert player_value(game, game.player(P2)) == value - 150 + 85
    assert game.waiting_for()["entity"] == P3  # the exchange ended P2's turn
    rnd = game.round
    assert isinstance(rnd, StockRound) and rnd.last_to_act == P2
    assert check(game) == []


def test_north_exchange_may_take_a_pool_share() -> None:
    game = open_jzr_game("north")
    act(game, P3, "sell_shares", shares=["JZR_0"], percent=20)  # pool: JZR_1, JZR_3
    act(game, P3, "pass")
    act(game, P4, "pass")
    act(game, P1, "pass")
    act(game, "FC", "buy_shares", shares=["JZR_3"], percent=10)
    assert certs(game, "JZR", P2) == ["JZR_3"]
    assert certs(game, "JZR", POOL) == ["JZR_1"]
    assert game.company("FC").closed


@pytest.mark.parametrize(
    "before, shares, code",
    [
        ("nothing", ["LYR_2"], "no_beijing_token"),
        ("sold", ["JZR_5"], "exchange_timing"),
        ("not_my_turn", ["JZR_5"], "exchange_timing"),
        ("nothing", ["JZR_0"], "exchange_source"),  # a player's certificate
        ("nothing", ["JZR_2"], "exchange_source"),
    ],
)
def test_north_exchange_refusals(before: str, shares: list[str], code: str) -> None:
    game = open_jzr_game("north")
    if before == "not_my_turn":
        pass  # P3 is to act, P2 owns FC
    else:
        _to_p2(game)
    if before == "sold":
        act(game, P2, "sell_shares", shares=["LYR_1"], percent=10)
    with pytest.raises(IllegalAction) as info:
        act(game, "FC", "buy_shares", shares=shares, percent=10)
    assert info.value.code == code
    assert not game.company("FC").closed


def test_prototype_exchange_at_any_moment_keeps_the_owners_purchase() -> None:
    game = open_jzr_game("prototype")
    assert game.waiting_for()["entity"] == P3
    act(game, "FC", "buy_shares", shares=["JZR_5"], percent=10)  # during P3's turn
    assert certs(game, "JZR", P2) == ["JZR_5"]
    assert game.company("FC").closed
    assert game.waiting_for()["entity"] == P3  # still P3's turn
    act(game, P3, "pass")
    act(game, P4, "pass")
    act(game, P1, "pass")
    act(game, P2, "buy_shares", shares=["JZR_6"], percent=10)  # P2's own purchase is intact
    assert certs(game, "JZR", P2) == ["JZR_5", "JZR_6"]
    assert game.player(P2).cash == 230 - 90
    assert check(game) == []


def test_prototype_exchange_takes_ipo_shares_only() -> None:
    game = open_jzr_game("prototype")
    act(game, P3, "sell_shares", shares=["JZR_0"], percent=20)  # pool: JZR_1, JZR_3
    with pytest.raises(IllegalAction) as info:
        act(game, "FC", "buy_shares", shares=["JZR_3"], percent=10)
    assert info.value.code == "exchange_source"
    act(game, "FC", "buy_shares", shares=["JZR_5"], percent=10)
    assert certs(game, "JZR", P2) == ["JZR_5"]


def test_the_exchange_names_the_pool_share_18xx_games_put_there() -> None:
    """No relabelling: after the presidency swap the pool holds exactly P4's two earliest shares
    (``stock.update_president``, as 18xx.games' ``change_president``), and only they can be taken."""
    game = open_jzr_game("north")
    act(game, P3, "sell_shares", shares=["JZR_0"], percent=20)  # pool: JZR_1, JZR_3
    for pid in (P3, P4, P1):
        act(game, pid, "pass")
    with pytest.raises(IllegalAction) as info:
        act(game, "FC", "buy_shares", shares=["JZR_2"], percent=10)  # P1's, not the pool's
    assert info.value.code == "exchange_source"
    assert certs(game, "JZR", P1) == ["JZR_2", "JZR_4"]
    act(game, "FC", "buy_shares", shares=["JZR_3"], percent=10)
    assert certs(game, "JZR", P2) == ["JZR_3"]
    assert certs(game, "JZR", POOL) == ["JZR_1"]
    assert check(game) == []
