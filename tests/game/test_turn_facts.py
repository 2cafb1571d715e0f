"""Turn facts from a log (``state_before(..., turn_facts=True)``, ``engine.api.state_from_log``).

The expected figures are worked out by hand from the logs and the reference
checkpoints (``tests/data/reference/1888/fixture_checkpoints.json``, the
18xx.games engine's own figures at the end of each round), not from our engine.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from route18xx.engine.api import state_from_log, suggest_moves
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.replay.replay import state_before, states_before
from tests.game.conftest import checkpoints_path, load

TURN_KEYS = ("cash", "privates", "heng_shan_player_owned", "tiles_laid")


def _checkpoint(log_name: str, after_action_id: int) -> dict[str, Any]:
    data = json.loads(checkpoints_path().read_text("utf-8"))[log_name]
    return next(s for s in data["snapshots"] if s["after_action_id"] == after_action_id)


def _action(log_name: str, action_id: int) -> dict[str, Any]:
    return next(a for a in load(log_name)["actions"] if a.get("id") == action_id)


def _terrain(hex_id: str) -> int:
    return game_data("1888").hexes[hex_id].terrain_cost


def _token_price(corp: str, index: int) -> int:
    return game_data("1888").corporations[corp].token_prices[index]


def test_turn_facts_are_off_by_default() -> None:
    state = state_before(load("129026"), 138)
    assert not set(TURN_KEYS) & set(state)
    assert set(TURN_KEYS) <= set(state_before(load("129026"), 138, turn_facts=True))


def test_lyr_second_turn_cash_token_and_lay() -> None:
    """129026, OR 2.1: LYR (no privates) lays tile 5 on H14 (66), places its second token (67).

    Its treasury at the end of OR 1.1 (checkpoint after 59) is unchanged by stock
    round 2.1; H14 has no terrain; the token costs the second printed price.
    """
    log = load("129026")
    start = _checkpoint("129026", 59)["corporations"]["LYR"]["cash"]
    assert _action("129026", 66)["hex"] == "H14" and _terrain("H14") == 0
    got = states_before(log, [66, 67, 68], turn_facts=True)
    assert {k: got[66][k] for k in TURN_KEYS} == {
        "cash": start,
        "privates": [],
        "heng_shan_player_owned": True,  # Player 3 still owns Heng Shan
        "tiles_laid": [],
    }
    assert got[67]["cash"] == start and got[67]["tiles_laid"] == [{"hex": "H14"}]
    assert got[68]["cash"] == start - _token_price("LYR", 1)
    assert got[68]["tiles_laid"] == [{"hex": "H14"}]


def test_great_wall_then_normal_lay_bankrupt_log() -> None:
    """1888_game_end_bankrupt, OR 4.1: TJL buys the Great Wall (143), lays D4 and C3
    with it (152, 153), then E3 itself (154) and a token (155).

    TJL's cash at the end of stock round 4.1 (checkpoint after 124) less the
    price paid for CW; the Great Wall lays are free, E3 costs its terrain. The
    end-of-round checkpoint (202) closes the account: token and two 3-trains.
    """
    log = load("1888_game_end_bankrupt")
    start = _checkpoint("1888_game_end_bankrupt", 124)["corporations"]["TJL"]["cash"]
    cw_price = _action("1888_game_end_bankrupt", 143)["price"]
    got = states_before(log, [143, 152, 153, 154, 155], turn_facts=True)
    assert got[143]["cash"] == start and got[143]["privates"] == []
    assert got[152]["cash"] == start - cw_price
    assert got[152]["privates"] == ["CW"] and got[152]["tiles_laid"] == []
    assert got[153]["tiles_laid"] == [{"hex": "D4", "private": "CW"}]
    assert got[153]["privates"] == ["CW"]  # one Great Wall tile is left
    # both Great Wall tiles laid: its lay is spent, so it is no longer offered
    assert got[154]["privates"] == []
    assert got[154]["tiles_laid"] == [{"hex": "D4", "private": "CW"}, {"hex": "C3", "private": "CW"}]
    assert got[154]["cash"] == start - cw_price
    assert got[155]["cash"] == start - cw_price - _terrain("E3")
    assert got[155]["tiles_laid"][-1] == {"hex": "E3"}
    trains = sum(_action("1888_game_end_bankrupt", i)["price"] for i in (156, 157))
    end = _checkpoint("1888_game_end_bankrupt", 202)["corporations"]["TJL"]["cash"]
    assert got[155]["cash"] - _token_price("TJL", 1) - trains == end
    assert all(s["heng_shan_player_owned"] is False for s in got.values())  # JZR owns HS


def test_terracotta_army_after_a_normal_lay() -> None:
    """HJR buys TA (160), lays G3 (161, mountain), then TA's L39 on H2 (162)."""
    log = load("1888_game_end_bankrupt")
    start = _checkpoint("1888_game_end_bankrupt", 124)["corporations"]["HJR"]["cash"]
    ta_price = _action("1888_game_end_bankrupt", 160)["price"]
    got = states_before(log, [161, 162, 163], turn_facts=True)
    assert {k: got[162][k] for k in TURN_KEYS} == {
        "cash": start - ta_price - _terrain("G3"),
        "privates": ["TA"],
        "heng_shan_player_owned": False,
        "tiles_laid": [{"hex": "G3"}],
    }
    assert got[161]["cash"] == start - ta_price and got[161]["tiles_laid"] == []
    assert got[163]["privates"] == [] and got[163]["tiles_laid"][-1] == {"hex": "H2", "private": "TA"}


def test_heng_shan_owned_by_the_corporation() -> None:
    """129026: HJR bought HS (169) from its player; before its L41 lay (248) C5 is not blocked."""
    got = state_before(load("129026"), 248, turn_facts=True)
    assert got["corporation"] == "HJR"
    assert got["privates"] == ["HS"] and got["heng_shan_player_owned"] is False


def test_state_from_log_matches_the_state_file_and_reads_back() -> None:
    log = load("129026")
    state = state_from_log(log, 728)
    raw = state_before(log, 728, turn_facts=True)
    assert state.corporation.sym == raw["corporation"]
    assert state.cash == raw["cash"]
    assert state.privates == tuple(raw["privates"])
    # the 1888 alias read as the general field (issue 25): Heng Shan, or none
    assert state.player_owned_blockers == (("HS",) if raw["heng_shan_player_owned"] else ())
    bare = state_from_log(log, 728, turn_facts=False)
    assert bare.cash is None and bare.player_owned_blockers is None
    assert bare.board.placed == state.board.placed and bare.board.tokens == state.board.tokens


def test_suggestions_from_a_log_offer_the_private_lay_left() -> None:
    """Before 162 HJR has laid its normal tile: only Terracotta Army's L39 on H2 is left."""
    state = state_from_log(load("1888_game_end_bankrupt"), 162)
    report = suggest_moves(state, top=50, time_limit_s=30.0).to_json()
    moves = {(s["hex"], s["tile"], s["private"]) for s in report["suggestions"]}
    assert report["candidates"] == len(report["suggestions"])
    assert moves and all(p == "TA" for _, _, p in moves)
    assert ("H2", "L39", "TA") in moves


@pytest.mark.parametrize(
    "log_raw, action_id, field, reason",
    [
        ({}, 1, "game_log", "no 'actions' list"),
        ({"actions": [1]}, 1, "game_log.actions[0]", "must be an object"),
        (None, 99999, "action_id", "no action 99999"),
        (None, 316, "action_id", "undone"),
        (None, 44, "action_id", "not taken while a corporation operates"),
        (None, "728", "action_id", "whole number"),
    ],
)
def test_state_from_log_errors_name_the_field(
    log_raw: Any, action_id: Any, field: str, reason: str
) -> None:
    log = load("129026") if log_raw is None else log_raw
    with pytest.raises(MalformedInput) as info:
        state_from_log(log, action_id)
    assert info.value.field == field and reason in info.value.reason


def test_state_from_log_a_damaged_log_is_malformed_game_log() -> None:
    log = copy.deepcopy(load("129026"))
    log["players"] = []
    with pytest.raises(MalformedInput) as info:
        state_from_log(log, 728)
    assert info.value.field == "game_log.players"
    log = copy.deepcopy(load("129026"))
    lay = next(a for a in log["actions"] if a.get("id") == 66)
    lay["hex"] = "A1"  # off the map: the replay stops there
    with pytest.raises(MalformedInput) as info:
        state_from_log(log, 728)
    assert info.value.field == "game_log" and "action 66" in info.value.reason
