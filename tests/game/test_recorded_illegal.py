"""A recorded route the rules refuse is reported on its run, and the replay goes on (issue 19).

18xx.games pays the revenue a log recorded and never re-checks a recorded route
(HISTORY.md §1.2). The engine keeps judging every recorded route by the rules:
one they refuse has ``recorded_legal: false`` and its violation codes on its
run, while the replay pays what was recorded, as the site does.
"""

from __future__ import annotations

import copy
from typing import Any

from route18xx.engine.replay.replay import replay, replay_report
from tests.game.conftest import load


def _with_a_doubled_route() -> tuple[dict[str, Any], int]:
    """129026 with its first one-connection run driven out and back (same revenue recorded)."""
    log = copy.deepcopy(load("129026"))
    for action in log["actions"]:
        if action.get("type") == "run_routes" and len(action["routes"]) == 1:
            route = action["routes"][0]
            if len(route["connections"]) == 1:
                route["connections"].append(list(reversed(route["connections"][0])))
                return log, action["id"]
    raise AssertionError("129026 has a one-connection run")


def test_an_illegal_recorded_route_is_reported_and_paid_as_recorded() -> None:
    log, action_id = _with_a_doubled_route()
    report = replay_report(replay(log)).to_json()
    run = next(r for r in report["run_routes"] if r["action_id"] == action_id)
    assert run["recorded_legal"] is False
    # out and back: the first stop again (ROUTES.md §3.5), each hex side twice (§3.7)
    assert {"STOP_TWICE", "SIDE_USED_TWICE"} <= set(run["recorded_violations"])
    assert run["engine_revenue"] == 0
    original = replay_report(replay(copy.deepcopy(load("129026")))).to_json()
    before = next(r for r in original["run_routes"] if r["action_id"] == action_id)
    assert run["recorded_revenue"] == before["recorded_revenue"] > 0
    assert before["recorded_legal"] and before["recorded_violations"] == []
    # the replay paid what was recorded and went on to the recorded end
    assert len(report["run_routes"]) == len(original["run_routes"])
    assert report["final_scores"] == original["final_scores"]
    assert report["scores_match"]
    assert any(str(action_id) in e and "illegal routes" in e for e in report["errors"])
