"""Audit of the log formats the held-back log has and the shared logs lack (ACTIONS.md §2, §4).

A real log is cut just before the bankrupt fixture's #194 (JHR, owner of the
Yanda ferry, is to lay track in OR 4.1) and continued with entries in the
18xx.games format: a ``program_disable`` carrying an auto-action, the two ferry
lays by the private (``"entity": "YRF", "entity_type": "company"``), a plain
``undo`` taken back by a ``redo``, and an ``undo`` with ``action_id``. The whole
thing goes through ``engine.replay.replay`` exactly as a log file would.
"""

from __future__ import annotations

import copy
from typing import Any

from route18xx.engine.game.actions import BuyCompany, Program, parse_action
from route18xx.engine.replay.replay import kept_actions, replay
from tests.game.conftest import load

BANKRUPT = "1888_game_end_bankrupt"
B1 = 9152


def _continued(extra: list[dict[str, Any]]) -> dict[str, Any]:
    log = copy.deepcopy(load(BANKRUPT))
    cut = next(i for i, a in enumerate(log["actions"]) if a.get("id") == 194)
    log["actions"] = log["actions"][:cut] + extra
    log["status"] = "active"
    log.pop("result", None)
    return log


def _lay(entity: str, entity_type: str, aid: int, hex_id: str, tile: str, rotation: int) -> dict[str, Any]:
    return {
        "type": "lay_tile",
        "entity": entity,
        "entity_type": entity_type,
        "id": aid,
        "created_at": 1732066000 + aid,
        "hex": hex_id,
        "tile": tile,
        "rotation": rotation,
    }


EXTRA: list[dict[str, Any]] = [
    {
        "type": "program_disable",
        "entity": B1,
        "entity_type": "player",
        "id": 901,
        "created_at": 1732066901,
        "reason": "user",
        "original_type": "program_share_pass",
    },
    _lay("YRF", "company", 902, "E17", "L40a-0", 0)
    | {"auto_actions": [{"type": "program_disable", "entity": B1, "entity_type": "player",
                         "created_at": 1732066902, "reason": "YRF laid"}]},
    {"type": "undo", "entity": B1, "entity_type": "player", "id": 903, "created_at": 1732066903},
    {"type": "redo", "entity": B1, "entity_type": "player", "id": 904, "created_at": 1732066904},
    _lay("YRF", "company", 905, "F16", "L40b-0", 0),
    _lay("JHR", "corporation", 906, "C13", "9-0", 1),
    {"type": "undo", "entity": B1, "entity_type": "player", "id": 907, "created_at": 1732066907,
     "action_id": 905},
    _lay("JHR", "corporation", 908, "C13", "14-0", 0),
]


def test_undo_redo_and_undo_to_an_id_leave_the_intended_actions() -> None:
    """ACTIONS.md §2.2: #903 undoes #902, #904 puts it back, #907 goes back to just after #905."""
    ids = [a["id"] for a in kept_actions(_continued(EXTRA))]
    assert ids[-4:] == [901, 902, 905, 908]
    assert not {903, 904, 906, 907} & set(ids)


def test_a_log_with_ferry_lays_program_actions_and_redo_replays() -> None:
    result = replay(_continued(EXTRA))
    assert result.errors == [], result.errors
    game = result.game
    assert (game.state.tile_at["E17"], game.state.tile_at["F16"], game.state.tile_at["C13"]) == (
        "L40a-0",
        "L40b-0",
        "14-0",
    )
    assert game.company("YRF").lay_uses == 0 and game.company("YRF").owner == "JHR"
    assert game.waiting_for()["entity"] == "JHR"
    assert game.waiting_for()["step"] != "track"  # the normal lay is done


def test_buy_company_and_program_entries_parse_with_their_fields() -> None:
    """ACTIONS.md §4.11, §4.15: ``buy_company`` keeps ``company`` and ``price``; ``program_*``
    entries are actions without effect whose auto-actions are kept."""
    entry = next(a for a in load(BANKRUPT)["actions"] if a.get("id") == 175)
    action = parse_action(entry)
    assert isinstance(action, BuyCompany)
    assert (action.entity, action.company, action.price) == ("JHR", "YRF", 187)
    program = parse_action(EXTRA[0] | {"auto_actions": [{"type": "pass", "entity": B1}]})
    assert isinstance(program, Program) and program.kind == "program_disable"
    assert [a.type for a in program.auto_actions] == ["pass"]
