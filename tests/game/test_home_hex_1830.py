"""ERIE's home reserved on the whole OO hex E11 (1830 RULES.md §2.5, §6.4).

"ERIE's home is the OO hex E11 as a whole: the reservation sits on the tile, not on a
city. ``TILE_RESERVATION_BLOCKS_OTHERS = :always``: a reserved-but-empty home slot
cannot be taken by another corporation's token." And §6.4: "If a tile with track is
already on E11 when ERIE first operates, it chooses the city at once."

The position is the real one of log 29133 before action 372, the last pass of the
stock round after which ERIE operates first (#373: its tile on E11). Here a green 59
is put on E11 before that, as if another corporation had laid it earlier (the log's
own tile, ``59-1``, rotation 4, #377).
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from route18xx.engine.board.board import PlacedTile
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import PlaceToken, parse_action
from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.summary import summary
from route18xx.engine.game.tokens import lay_on_board
from route18xx.engine.replay.replay import replay
from route18xx.engine.board.token_place import check_token
from tests.game.test_replay_1830 import _log


@cache
def _before_last_pass() -> Game:
    game = replay(_log("29133"), stop_before=372).game
    assert game.corporation("ERIE").floated and game.corporation("ERIE").tokens_used == 0
    return game


def _raw(action_id: int) -> dict[str, object]:
    return next(a for a in _log("29133")["actions"] if a["id"] == action_id)


def _with_59_on_e11() -> Game:
    game = copy.deepcopy(_before_last_pass())
    lay_on_board(game, "E11", PlacedTile(game.data.tiles["59"], 4), "59-1")
    return game


def test_erie_chooses_its_home_city_when_e11_already_has_track() -> None:
    game = _with_59_on_e11()
    # no other corporation may token either city of E11 while ERIE's home is pending
    for city in (0, 1):
        with pytest.raises(IllegalAction) as refused:
            check_token(game.board, "NYC", "E11", city, token_price=0)
        assert refused.value.code == "hex_reserved"
    game.process(parse_action(_raw(372)))  # the SR ends; ERIE operates first
    erie = game.corporation("ERIE")
    cash = erie.cash
    assert game.waiting_for() == {"step": "home token", "entity": "ERIE", "actions": ["place_token"]}
    assert erie.tokens_used == 1 and game.board.tokens_in("E11", 0) == () == game.board.tokens_in("E11", 1)
    assert summary(game)["round"]["pending_tokens"] == [("ERIE", "E11")]  # the token in hand
    token = PlaceToken("ERIE", "corporation", city="59-1-1")  # its choice: city 1
    game.process(token)
    assert check_after(game, token) == []
    assert game.board.tokens_in("E11", 1) == ("ERIE",) and game.board.tokens_in("E11", 0) == ()
    assert erie.cash == cash and erie.tokens_used == 1  # the home token is free
    assert game.waiting_for()["step"] == "track"
    assert summary(game)["round"]["pending_tokens"] == []
    # the reservation has ended: the other city is no longer refused as reserved
    with pytest.raises(IllegalAction) as refused:
        check_token(game.board, "NYC", "E11", 0, token_price=0)
    assert refused.value.code == "not_reachable"


def test_the_home_choice_must_be_a_city_of_e11() -> None:
    game = _with_59_on_e11()
    game.process(parse_action(_raw(372)))
    elsewhere = game.state.tile_at.get("H12", game.data.hexes["H12"].preprinted_tile_id)
    with pytest.raises(IllegalAction) as refused:
        game.process(PlaceToken("ERIE", "corporation", city=f"{elsewhere}-0"))
    assert refused.value.code == "wrong_hex"


def test_on_a_bare_e11_the_home_token_goes_to_city_0_as_recorded() -> None:
    """Without track on E11 the token goes on city 0 at once (the log's own course:
    ERIE's #373 lays its tile after the token is down, which lifts it)."""
    game = copy.deepcopy(_before_last_pass())
    game.process(parse_action(_raw(372)))
    assert game.board.tokens_in("E11", 0) == ("ERIE",)
    assert game.waiting_for()["step"] == "track"
