"""A game its players end early (18xx.games ``end_game``): scores are the values then.

Real logs of every era include abandoned games ended by a player's
``end_game`` action (game end reason ``manually_ended``). The expected scores
are the site's own player values at a round end, from the round checkpoints
(tests/data/reference), not the engine's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from route18xx.engine.errors import IllegalAction
from route18xx.engine.replay.replay import kept_actions, replay
from tests.game.conftest import LOG_NAMES, checkpoints_path, load


def _checkpoints(name: str) -> dict[str, Any]:
    return json.loads(checkpoints_path().read_text("utf-8"))[name]  # type: ignore[no-any-return]


def _ended_after(name: str, snapshot: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    log = copy.deepcopy(load(name))
    kept = [a for a in kept_actions(log) if a.get("id", 0) <= snapshot["after_action_id"]]
    player = next(iter(ids))
    last = max(a["id"] for a in log["actions"])
    log["actions"] = kept + [
        {"type": "end_game", "entity": int(player), "entity_type": "player", "id": last + 1}
    ]
    log["result"] = {pid: snapshot["players"][name_]["value"] for pid, name_ in ids.items()}
    log["status"] = "finished"
    return log


@pytest.mark.parametrize("name", LOG_NAMES)
def test_a_game_ended_at_a_round_end_scores_the_sites_values_then(name: str) -> None:
    reference = _checkpoints(name)
    ids = reference["player_ids"]
    snapshots = reference["snapshots"]
    for snapshot in (snapshots[len(snapshots) // 3], snapshots[2 * len(snapshots) // 3]):
        result = replay(_ended_after(name, snapshot, ids))
        assert result.errors == [], snapshot["label"]
        assert result.completed and result.game.finished
        assert result.game.state.end_reason == "manually_ended"
        assert result.final_scores == result.recorded_result, snapshot["label"]


def test_nothing_follows_an_ended_game() -> None:
    name = LOG_NAMES[0]
    reference = _checkpoints(name)
    log = _ended_after(name, reference["snapshots"][3], reference["player_ids"])
    log["actions"].append({**log["actions"][-1], "id": log["actions"][-1]["id"] + 1})
    result = replay(log)
    assert not result.completed or result.errors
    assert isinstance(result.failure, IllegalAction) or any("goes on" in e for e in result.errors)
