"""``route18xx replay --json`` on both shared logs, as issue 5's "Done when" states it:
scores match, no errors, every run_routes legal and priced as recorded, an optimum at
least the recorded total, proven optimal, and equal to the reference optimum."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LOGS_DIR, STATES_DIR, load_json

SCRIPT = Path(sys.executable).parent / "route18xx"


@pytest.mark.parametrize("log", ["129026", "1888_game_end_bankrupt"])
def test_replay_json_meets_the_done_when(log: str) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT} (run `make test`)")
    result = subprocess.run([str(SCRIPT), "replay", str(LOGS_DIR / f"{log}.json"), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["title"] == "1888"
    assert report["rule_set"] == ("prototype" if log == "129026" else "north")
    assert report["scores_match"] is True
    assert report["final_scores"] == report["recorded_result"]
    assert report["errors"] == []
    runs = report["run_routes"]
    assert len(runs) == (95 if log == "129026" else 28)
    for run in runs:
        assert run["recorded_legal"] is True, run
        assert (run["engine_revenue"], run["engine_subsidy"]) == (
            run["recorded_revenue"], run["recorded_subsidy"])
        assert run["proven_optimal"] is True
        total = run["optimal_revenue"] + run["optimal_subsidy"]
        assert total >= run["recorded_revenue"] + run["recorded_subsidy"]
        state_file = STATES_DIR / f"{log}-{run['action_id']}.json"
        if state_file.exists():  # the reference optimum of the cut decision
            assert total == load_json(state_file)["reference"]["optimal_total"]
