"""Issue 25: ``route18xx audit`` of an 1830 log — the report is complete, every run's
optimum is proven and at least what the player recorded, and money is in dollars.

One shared 1830 log keeps it cheap: 29133 (``standard``, 24 runs kept after undo,
1830 ACTIONS.md §4). Witnesses: the log itself (its ``result``, each run_routes'
recorded revenues) and 18xx.games' ``CURRENCY_FORMAT_STR`` for 1830 (``'$%s'``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.audit.summary import money_of
from tests.audit.conftest import ROOT
from tests.audit.test_audit import run_cli, without_timing

pytest.importorskip("ortools")

LOG = ROOT / "tests" / "data" / "1830" / "29133.json"
RUNS = 24


@pytest.fixture(scope="module")
def audited_1830(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("audit1830")
    status, _ = run_cli(
        "audit", str(LOG), "--out", str(work / "results.jsonl"), "--jobs", "1", "--no-progress",
        "--summary", str(work / "summary.json"), "--report", str(work / "report.html"))
    assert status == 0
    return work


def _log() -> dict[str, Any]:
    return dict(json.loads(LOG.read_text("utf-8")))


def test_the_1830_audit_is_complete_and_every_optimum_at_least_the_recorded(audited_1830: Path) -> None:
    lines = without_timing(audited_1830 / "results.jsonl")
    (game,) = [g for g in lines if g["kind"] == "game"]
    runs = [r for r in lines if r["kind"] == "run"]
    log = _log()
    assert game["title"] == "1830" and game["rule_set"] == "standard"
    assert game["ok"] and game["completed"] and game["scores_match"] and not game["errors"]
    assert game["final_scores"] == {str(k): v for k, v in log["result"].items()}
    assert game["runs"] == len(runs) == RUNS
    recorded = {a["id"]: sum(r["revenue"] for r in a["routes"])
                for a in log["actions"] if a["type"] == "run_routes"}
    for run in runs:
        assert run["recorded_revenue"] == recorded[run["action_id"]], run["action_id"]
        assert run["recorded_legal"] and run["engine_revenue"] == run["recorded_revenue"]
        assert run["recorded_subsidy"] == run["engine_subsidy"] == 0  # 1830 has no mine
        for objective in ("total", "revenue"):
            optimum = run["optimal"][objective]
            assert optimum["proven_optimal"], (run["action_id"], objective)
            assert optimum["revenue"] + optimum["subsidy"] >= run["recorded_revenue"]
            assert run["gap"][objective] >= 0


def test_the_1830_report_writes_money_in_dollars(audited_1830: Path) -> None:
    summary = json.loads((audited_1830 / "summary.json").read_text("utf-8"))
    assert summary["titles"] == ["1830"] and summary["currency_format"] == "$%s"
    assert summary["runs"] == summary["runs_proven"] == RUNS
    report = (audited_1830 / "report.html").read_text("utf-8")
    assert f"<td>${summary['recorded_income']}</td>" in report
    assert "income left on the table in one run ($)" in report  # the gap plot's axis
    assert "¥" not in report and "yuan" not in report


def test_a_corpus_of_two_titles_mixes_no_currencies() -> None:
    """Sums over 1888 and 1830 logs add yuan to dollars: the report then writes plain
    numbers and names both titles instead of one sign."""
    assert money_of([{"title": "1830"}, {"title": "1888"}]) == (["1830", "1888"], None)
    assert money_of([{"title": "1888N"}, {"title": "1888"}]) == (["1888"], "¥%s")
