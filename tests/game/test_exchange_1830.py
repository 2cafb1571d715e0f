"""1830's Mohawk & Hudson exchange (1830 RULES.md §7.4; g_1830 entities: MH ``exchange``,
``corporations: ['NYC']``, ``when: 'any'``, ``from: %w[ipo market]``).

"The owning player may close MH and receive one 10 % NYC share from the IPO or the
pool, free, at any time of a stock or operating round, if that keeps them within the
60 % limit (the cert limit does not apply to an exchange)." The site names NYC as it is,
parred or not (``exchange_corporations``; ``available_share`` is the IPO's first 10 %),
as the CA grants PRR's share before PRR's par (§4.2).

Positions are the real ones of log 29133, where Player 3 owns the MH and NYC is not yet
parred: SR 2 before action 60 (Player 1 to act) and OR 2.1 before action 101 (PRR to lay
track).
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import BuyShares, Par, Pass
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.stock import check_sale
from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _log

P1, P2, P3 = 4836, 4631, 4639


@cache
def _at(action_id: int) -> Game:
    game = replay(_log("29133"), stop_before=action_id).game
    assert game.company("MH").owner == P3 and not game.corporation("NYC").ipoed
    return game


def _exchange(game: Game, cert: str) -> None:
    action = BuyShares("MH", "company", shares=(cert,))
    game.process(action)
    assert check_after(game, action) == []


def test_in_another_players_stock_turn_before_nycs_par() -> None:
    game = copy.deepcopy(_at(60))
    waiting = game.waiting_for()
    p3 = game.player(P3)
    cash, value = p3.cash, game.scores()[P3]
    _exchange(game, "NYC_1")
    nyc = game.corporation("NYC")
    assert nyc.shares.owner_of("NYC_1") == P3 and game.company("MH").closed
    assert p3.cash == cash and game.waiting_for() == waiting  # free, and nobody's turn moved
    assert game.scores()[P3] == value - 110  # the MH's face value gone; NYC has no price yet
    assert not nyc.ipoed and not nyc.floated
    with pytest.raises(IllegalAction) as refused:  # no price: the share cannot be sold
        check_sale(game, p3, ["NYC_1"], 10)
    assert refused.value.code == "not_parred"
    # Player 1 passes; Player 2 pars NYC: the president's certificate is his, the
    # exchanged share stays with Player 3
    game.process(Pass(P1, "player"))
    par = Par(P2, "player", corporation="NYC", price=100, row=0, column=6)
    game.process(par)
    assert check_after(game, par) == []
    assert nyc.president == P2 and nyc.shares.owner_of("NYC_1") == P3 and nyc.ipo_percent == 70
    assert game.scores()[P3] == value - 110 + 100


def test_between_turns_of_an_operating_round() -> None:
    game = copy.deepcopy(_at(101))
    assert game.waiting_for()["entity"] == "PRR"
    _exchange(game, "NYC_1")
    assert game.corporation("NYC").shares.owner_of("NYC_1") == P3
    assert game.waiting_for()["entity"] == "PRR" and game.waiting_for()["step"] == "track"


@pytest.mark.parametrize("cert, code", [("NYC_0", "exchange_source"), ("PRR_7", "not_exchangeable")])
def test_only_a_10_percent_nyc_share(cert: str, code: str) -> None:
    game = copy.deepcopy(_at(60))
    with pytest.raises(IllegalAction) as refused:
        game.process(BuyShares("MH", "company", shares=(cert,)))
    assert refused.value.code == code
    assert not game.company("MH").closed


def test_a_corporation_owned_mh_has_no_exchange() -> None:
    """PRR buys the MH at #124; from then on there is no exchange (§7.4 "Lost when a
    corporation owns MH")."""
    game = replay(_log("29133"), stop_before=125).game
    assert game.company("MH").owner == "PRR"
    with pytest.raises(IllegalAction):
        game.process(BuyShares("MH", "company", shares=("NYC_1",)))
