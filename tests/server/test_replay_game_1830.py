"""ReplayGame and ``route18xx replay`` take 1830 logs: the title comes from the log's
``title`` field (issue 25 item 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from route18xx.v1 import route_service_pb2 as pb

DATA = Path(__file__).resolve().parent.parent / "data" / "1830"


def _text(name: str) -> str:
    path = DATA / f"{name}.json"
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return path.read_text("utf-8")


def test_replay_game_solves_every_1830_run_to_a_proven_optimum(stub: Any) -> None:
    """29133: the recorded result, 24 runs, each solved to a proven optimum at least
    the recorded revenue (the players' own routes are a lower bound)."""
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=_text("29133")), timeout=120)
    assert response.scores_match
    assert len(response.runs) == 24
    for run in response.runs:
        assert run.recorded_legal and run.proven_optimal, run.action_id
        assert run.optimal_revenue >= run.recorded_revenue, run.action_id


def test_replay_game_replays_the_other_1830_rule_set(stub: Any) -> None:
    text = _text("26855")
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=60)
    assert response.scores_match and len(response.runs) == 43
    recorded = {k: int(v) for k, v in json.loads(text)["result"].items()}
    assert recorded == {"330": 2212, "82": 2127, "1627": 1831, "117": 310}


def test_the_cli_replays_an_1830_log(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", "replay", str(DATA / "26855.json"), "--json",
         "--no-solve"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["title"] == "1830" and report["rule_set"] == "multiple_brown_from_ipo"
    assert report["scores_match"] is True and report["completed"] is True
    assert all(r["recorded_legal"] for r in report["run_routes"])
