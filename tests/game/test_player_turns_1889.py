"""1889's stock turn and its players' private lays, each case put to the 18xx.games engine
first (issue 36 item 3). Every case starts from a real log stopped before a kept action
and tries a few actions there; the verdicts (which action, if any, is refused) are the
site's own, taken with its engine (tobymao/18xx 111f7f69: ``Game.load`` of the log up to
the action, then ``process_action`` of each; a development-time Ruby probe, not our code).

* Stock turn (``engine.game.sell_order``; base ``SELL_BUY_ORDER = :sell_buy_or_buy_sell``,
  g_1889 ``MUST_SELL_IN_BLOCKS``): sell then buy, or buy then sell, never sell-buy-sell;
  one purchase; a corporation's shares sold once a turn, as one block, in an emergency too.
* The Mitsubishi Ferry's port (``engine.game.privates.player_lay_ability``): its owner lays
  it in a stock round, out of turn too; between operating turns, before the operating
  corporation acts; in the track step of a corporation he presides over; not once another
  player's corporation has acted.
* The Ehime Railway's lay at its sale (``engine.game.owner_track``): the seller's, or
  given up by a pass.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import replay

DATA = Path(__file__).resolve().parent.parent / "data" / "1889"


@cache
def _log(name: str) -> Any:
    path = DATA / f"{name}.json"
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return json.loads(path.read_text("utf-8"))


def _before(name: str, action_id: int) -> Game:
    result = replay(_log(name), stop_before=action_id, safe=True)
    assert [e for e in result.errors if "illegal routes" not in e] == []  # 314 #367 (test_replay_1889)
    return result.game


def _refused_at(game: Game, actions: list[dict[str, Any]]) -> int | None:
    """The index of the first action the game refuses, None when it takes them all."""
    for i, raw in enumerate(actions):
        try:
            game.process_raw(raw)
        except IllegalAction:
            return i
    return None


def _sell(player: int, *certs: str) -> dict[str, Any]:
    return {"type": "sell_shares", "entity": player, "entity_type": "player",
            "shares": list(certs), "percent": 10 * len(certs)}


def _buy(player: int, cert: str) -> dict[str, Any]:
    return {"type": "buy_shares", "entity": player, "entity_type": "player", "shares": [cert], "percent": 10}


# 962 before #151: player 147's turn in stock round 4 (holds KO_4, IR_5, TR_4).
@pytest.mark.parametrize("actions, refused", [
    ([_buy(147, "TR_6"), _sell(147, "KO_4")], None),                        # buy, then sell
    ([_buy(147, "TR_6"), _sell(147, "KO_4"), _sell(147, "IR_5")], None),    # buy, then two sales
    ([_buy(147, "TR_6"), _sell(147, "KO_4"), _buy(147, "TR_7")], 2),        # one purchase
    ([_sell(147, "KO_4"), _buy(147, "TR_6"), _sell(147, "IR_5")], 2),       # never sell-buy-sell
    ([_sell(147, "KO_4"), _sell(147, "IR_5"), _buy(147, "TR_6")], None),    # sell, sell, then buy
])
def test_a_stock_turn_sells_before_or_after_its_purchase(actions: list[dict[str, Any]],
                                                         refused: int | None) -> None:
    assert _refused_at(_before("962", 151), actions) == refused


def test_a_turn_sells_a_corporation_in_one_block() -> None:
    """314 before #55: player 90 sells KO_2, then may not sell KO_4 in the same turn."""
    assert _refused_at(_before("314", 55), [_sell(90, "KO_2"), _sell(90, "KO_4")]) == 1
    assert _refused_at(_before("314", 55), [_sell(90, "KO_2", "KO_4")]) is None


PORT = {"type": "lay_tile", "entity": "MF", "entity_type": "company", "tile": "437-0", "hex": "B11",
        "rotation": 2}


# 962: player 253 owns MF and presides over TR (F9).
@pytest.mark.parametrize("before, refused", [
    (13, None),   # stock round 1, player 1230's turn: out of turn, in a stock round
    (27, None),   # KO's turn before it acts (or_between_turns; the site's probe: before #25, undone)
    (30, None),   # IR's turn before it acts
    (33, 0),      # IR has laid its tile: another president's corporation has acted
    (28, 0),      # KO has laid its tile
    (39, None),   # TR's track step: his own corporation's (the log lays G10 here)
])
def test_the_ferrys_owner_lays_the_port_at_the_times_it_names(before: int, refused: int | None) -> None:
    game = _before("962", before)
    assert _refused_at(game, [PORT]) == refused
    if refused is None:
        assert game.board.tile_on("B11").tile.name == "437"
        assert game.company("MF").tile_lay is None  # used up


def test_the_port_goes_on_a_coastal_town_only_turned_as_the_town_allows() -> None:
    assert _refused_at(_before("962", 13), [dict(PORT, rotation=0)]) == 0
    assert _refused_at(_before("962", 13), [dict(PORT, hex="F9")]) == 0


def test_a_corporation_whose_president_owns_the_ferry_waits_for_his_pass() -> None:
    """962 before #39: TR lays its own tile first (7 on F7); its track step then stays open
    for its president's pass or his ferry (18xx.games ``tile_lay_abilities_should_block?``:
    the site then still shows Track), takes no second lay, and is over with the port."""
    game = _before("962", 39)
    game.process_raw({"type": "lay_tile", "entity": "TR", "entity_type": "corporation", "tile": "7-0",
                      "hex": "F7", "rotation": 0})
    assert game.waiting_for()["step"] == "track"
    second = {"type": "lay_tile", "entity": "TR", "entity_type": "corporation", "tile": "8-0",
              "hex": "E8", "rotation": 3}
    assert _refused_at(game, [second]) == 0
    game.process_raw(PORT)
    assert game.waiting_for()["step"] == "buy trains"


def test_the_ehime_railways_seller_lays_its_green_tile_at_the_sale() -> None:
    """962 #61-#64: TR buys ER from player 253, who lays 14 on C4 (the log's own), free."""
    game = _before("962", 64)
    assert game.waiting_for() == {"step": "special track", "entity": "ER", "actions": ["lay_tile", "pass"]}
    cash = game.player(253).cash
    game.process_raw({"type": "lay_tile", "entity": "ER", "entity_type": "company", "tile": "14-0",
                      "hex": "C4", "rotation": 1})
    assert game.board.tile_on("C4").tile.name == "14" and game.player(253).cash == cash


def test_a_pass_gives_the_ehime_railways_lay_up() -> None:
    """314 #89-#90: SR buys ER; its seller passes, and the lay is gone."""
    game = _before("314", 90)
    assert game.waiting_for()["entity"] == "ER"
    game.process_raw({"type": "pass", "entity": "ER", "entity_type": "company"})
    assert game.company("ER").tile_lay is None and game.waiting_for()["entity"] == "SR"


def test_an_emergency_sells_a_corporation_in_one_block() -> None:
    """314 before #450: player 639 raises cash for a train (the log sells KU_1-KU_3 at
    once); KU_1 then KU_2 is refused at the second sale (18xx.games ``Step::BuyTrain``
    ``@corporations_sold`` under ``MUST_SELL_IN_BLOCKS``), the block and another
    corporation after it are taken."""
    assert _refused_at(_before("314", 450), [_sell(639, "KU_1"), _sell(639, "KU_2")]) == 1
    assert _refused_at(_before("314", 450), [_sell(639, "KU_1", "KU_2", "KU_3"), _sell(639, "IR_4")]) is None
