"""1830's Delaware & Hudson teleport (1830 RULES.md §7.3; 18xx.games ``SpecialTrack``,
``SpecialToken``; g_1830 entities: ``teleport``, tiles ['57'], hexes ['F16']).

"Owned by a corporation: lay tile 57 on the empty F16 as the corporation's **normal**
tile lay (teleport; paying the $120 mountain), then place a station token there
**free**, no connection needed." The position is the real one of log 29133 before
action 101: PRR (phase 3) is about to lay track; Player 1 owns the DH.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import BuyCompany, LayTile, Pass, PlaceToken
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.summary import summary
from route18xx.engine.replay.replay import replay
from tests.game.test_replay_1830 import _log


@cache
def _prr_to_lay() -> Game:
    game = replay(_log("29133"), stop_before=101).game
    assert game.waiting_for()["entity"] == "PRR" and game.phase.name == "3"
    assert game.company("DH").owner == 4836  # Player 1
    return game


def _with_dh() -> tuple[Game, int]:
    """PRR buys the DH from its owner for $70 (face value), then has this much cash."""
    game = copy.deepcopy(_prr_to_lay())
    game.process(BuyCompany("PRR", "corporation", company="DH", price=70))
    return game, game.corporation("PRR").cash


def _free_57(game: Game) -> str:
    used = set(game.state.tile_at.values())
    return next(f"57-{i}" for i in range(20) if f"57-{i}" not in used)


def test_the_dh_lays_57_on_f16_and_tokens_it_free_as_prrs_lay() -> None:
    game, cash = _with_dh()
    prr = game.corporation("PRR")
    tokens = prr.tokens_used
    tile = _free_57(game)
    lay = LayTile("DH", "company", hex="F16", tile=tile, rotation=1)
    game.process(lay)
    assert check_after(game, lay) == []
    assert prr.cash == cash - 120  # the mountain, nothing for the connection-free lay
    assert game.state.tile_at["F16"] == tile
    assert game.waiting_for()["entity"] == "DH"  # the token comes next
    assert summary(game)["round"]["teleported"] == "DH"  # the round's summary says so
    token = PlaceToken("DH", "company", city=f"{tile}-0")
    game.process(token)
    assert check_after(game, token) == []
    assert prr.cash == cash - 120 and prr.tokens_used == tokens + 1  # the token is free
    assert "PRR" in game.board.tokens_in("F16", 0)
    assert summary(game)["round"]["teleported"] is None
    # the teleport was PRR's one tile lay of the turn, and the DH's ability is used up
    with pytest.raises(IllegalAction) as refused:
        game.process(LayTile("PRR", "corporation", hex="H16", tile=_free_57(game), rotation=0))
    assert refused.value.code == "track_done"
    assert game.company("DH").tile_lay is None


def test_the_token_may_be_declined() -> None:
    game, cash = _with_dh()
    tokens = game.corporation("PRR").tokens_used
    game.process(LayTile("DH", "company", hex="F16", tile=_free_57(game), rotation=1))
    game.process(Pass("DH", "company"))
    assert game.corporation("PRR").tokens_used == tokens and game.board.tokens_in("F16", 0) == ()


def test_without_the_dh_f16_is_blocked_and_out_of_reach() -> None:
    game = copy.deepcopy(_prr_to_lay())
    with pytest.raises(IllegalAction) as refused:  # Player 1's DH blocks F16
        game.process(LayTile("PRR", "corporation", hex="F16", tile=_free_57(game), rotation=1))
    assert refused.value.code == "hex_blocked"
    game, _ = _with_dh()
    with pytest.raises(IllegalAction) as refused:  # PRR's own lay needs a connection
        game.process(LayTile("PRR", "corporation", hex="F16", tile=_free_57(game), rotation=1))
    assert refused.value.code == "not_connected"


def test_only_57_and_only_f16() -> None:
    game, _ = _with_dh()
    with pytest.raises(IllegalAction):
        game.process(LayTile("DH", "company", hex="F16", tile="7-0", rotation=1))
    with pytest.raises(IllegalAction):
        game.process(LayTile("DH", "company", hex="E15", tile=_free_57(game), rotation=1))
