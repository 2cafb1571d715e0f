"""Where an operating turn begins (``engine.turns.turn_starts``), read from the logs' own actions.

A private's action belongs to the turn of the corporation that bought it
(RULES.md §7), so a turn may begin with a private's lay: 129026's run 251
(HJR) begins at the Heng Shan lay at 248 — HS was bought by HJR at action 169,
and the kept action before 248 is JHR's pass at 240.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from route18xx.engine.replay.replay import kept_actions
from route18xx.engine.turn.turn_record import turn_moves
from route18xx.engine.replay.turns import turn_starts
from tests.conftest import LOGS_DIR


def _log(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOGS_DIR / f"{name}.json").read_text("utf-8"))
    return data


def test_a_turn_begins_at_a_privates_lay() -> None:
    log = _log("129026")
    by_id = {a["id"]: a for a in log["actions"] if isinstance(a.get("id"), int)}
    assert (by_id[248]["entity"], by_id[248]["type"]) == ("HS", "lay_tile")
    assert [a["entity"] for a in log["actions"]
            if a.get("type") == "buy_company" and a.get("company") == "HS"] == ["HJR"]
    assert by_id[251]["type"] == "run_routes" and by_id[251]["entity"] == "HJR"
    assert turn_starts(log)[251] == 248
    # what the player did in that turn: the Heng Shan lay first, then HJR's own lay
    moves = turn_moves(log, 248)
    assert [(m.hex, m.private) for m in moves] == [("C5", "HS"), ("D6", None)]


@pytest.mark.parametrize("name", ["129026", "1888_game_end_bankrupt"])
def test_every_turn_starts_after_another_entitys_action(name: str) -> None:
    """Walking back from each run over the kept actions: the start is the earliest action
    by the corporation or a private it had bought, with no other entity's action between."""
    log = _log(name)
    kept = [a for a in kept_actions(log) if isinstance(a.get("id"), int)
            and a.get("type") != "message" and not str(a.get("type")).startswith("program_")]
    starts = turn_starts(log)
    runs = [i for i, a in enumerate(kept) if a["type"] == "run_routes"]
    assert len(starts) == len(runs) > 20
    for i in runs:
        corp = kept[i]["entity"]
        j = i
        while j > 0:
            prev = kept[j - 1]
            if prev["entity_type"] == "company":
                bought = [a["entity"] for a in kept[:j - 1]
                          if a["type"] == "buy_company" and a.get("company") == prev["entity"]]
                mine = bool(bought) and bought[-1] == corp
            else:
                mine = prev["entity"] == corp
            if not mine:
                break
            j -= 1
        assert starts[kept[i]["id"]] == kept[j]["id"], (name, kept[i]["id"])
