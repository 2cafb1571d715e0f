"""Real logs whose replay stops partway (issue 19): a shared log with one action spoiled.

The spoiled action is a ``lay_tile`` on a hex the map does not have, so the
engine refuses it and the replay stops there; every ``run_routes`` before it
is still judged. Tests of ``replay --json``, ``ReplayGame``, the audit and the
web page build their broken logs here, from the same shared log.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.conftest import LOGS_DIR, load_json

#: Game 129026: LYR's lay at action 340 comes after 24 runs (the last at 335).
STOPS_AT = 340
RUNS_BEFORE = 24
#: Its lay at action 66 comes before any run.
STOPS_AT_ONCE = 66
#: The spoiled hex and what the error says of it.
BAD_HEX = "Z99"


def stopped_log(action_id: int = STOPS_AT, name: str = "129026") -> dict[str, Any]:
    """The shared log ``name`` with lay_tile ``action_id`` moved to a hex that is not on the map."""
    log = copy.deepcopy(load_json(LOGS_DIR / f"{name}.json"))
    (action,) = [a for a in log["actions"] if a.get("id") == action_id]
    assert action["type"] == "lay_tile", action
    action["hex"] = BAD_HEX
    return dict(log)


def write_stopped_log(path: Path, action_id: int = STOPS_AT, name: str = "129026") -> Path:
    path.write_text(json.dumps(stopped_log(action_id, name)), encoding="utf-8")
    return path


def run_ids_before(action_id: int, name: str = "129026") -> list[int]:
    """The ids of the log's run_routes before ``action_id`` (the good log's own, in order)."""
    from route18xx.engine.replay.replay import kept_actions

    kept = kept_actions(load_json(LOGS_DIR / f"{name}.json"))
    return [a["id"] for a in kept if a.get("type") == "run_routes" and a["id"] < action_id]
