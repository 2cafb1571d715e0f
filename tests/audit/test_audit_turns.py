"""``route18xx audit --turns`` (issue 24): per run, what the turn's lay/token choices left
beside what its routes left (``engine.api.compare_turns``, objective total), summed on
the game line and in the summary per player and per company."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.server.cli import main
from tests.audit.conftest import LOGS

pytest.importorskip("ortools")


def test_audit_turns(tmp_path: Path) -> None:
    log: dict[str, Any] = json.loads((LOGS / "1888_game_end_bankrupt.json").read_text("utf-8"))
    log["actions"] = [a for a in log["actions"] if a.get("id", 0) <= 240]  # OR 2.1 to OR 5.1
    log.pop("result", None)
    log["status"] = "active"
    path = tmp_path / "short.json"
    path.write_text(json.dumps(log), "utf-8")
    out, summary = tmp_path / "results.jsonl", tmp_path / "summary.json"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["audit", str(path), "--turns", "--jobs", "1", "--no-progress",
                       "--out", str(out), "--summary", str(summary)])
    assert status == 0
    lines = [json.loads(raw) for raw in out.read_text("utf-8").splitlines()]
    runs = [l for l in lines if l["kind"] == "run"]
    (game,) = [l for l in lines if l["kind"] == "game"]
    expected = {t.action_id: t for t in api.compare_turns(log).turns}
    assert [r["action_id"] for r in runs] == sorted(expected) and len(runs) == 10
    for run in runs:
        turn = expected[run["action_id"]]
        assert run["turn"]["left_by_lay_token"] == turn.left_by_lay_token
        assert run["turn"]["best"]["income"] == turn.best_income
        # the run's own figures agree: the optimum on the player's board is the audit's
        optimal = run["optimal"]["total"]
        assert run["turn"]["player"]["board_income"] == optimal["revenue"] + optimal["subsidy"]
        assert run["turn"]["left_by_routes"] == run["gap"]["total"]
    left = sum(r["turn"]["left_by_lay_token"] for r in runs)
    assert left > 0  # some turns here left income by their lays (the engine's tests say which)
    assert game["turns"]["left_by_lay_token"] == left
    assert game["turns"]["left_by_routes"] == sum(r["gap"]["total"] for r in runs)
    figures = json.loads(summary.read_text("utf-8"))["turns"]
    assert figures["compared"] == 10 and figures["left_by_lay_token"] == left
    assert figures["turns_below_best_plan"] == sum(
        1 for t in expected.values() if (t.left_by_lay_token or 0) > 0)
    by_company: dict[str, int] = {}
    for t in expected.values():
        by_company[t.corporation] = by_company.get(t.corporation, 0) + (t.left_by_lay_token or 0)
    assert {r["corporation"]: r["left_by_lay_token"] for r in figures["by_company"]} == by_company
    assert sum(r["left_by_lay_token"] for r in figures["by_player"]) == left
