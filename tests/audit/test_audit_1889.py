"""Issue 36 item 3: ``route18xx audit`` of a 1889 log — the report is complete, every run's
optimum is proven and at least the revenue the site's engine gave the recorded run, and
money is in yen.

The fixture 962 (``standard``, 48 runs kept after undo). Witnesses: the log itself (its
``result``), the revenue the 18xx.games engine gave each run (the golden verdicts,
``tests/data/golden/1889/``: 962's routes record none) and 18xx.games' ``CURRENCY_FORMAT_STR`` for 1889 (``'¥%s'``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from route18xx.server.audit.summary import money_of
from tests.audit.conftest import ROOT
from tests.audit.test_audit import run_cli, without_timing

pytest.importorskip("ortools")

DATA = ROOT / "tests" / "data" / "1889"
LOG = DATA / "962.json"
RUNS = 48


@pytest.fixture(scope="module")
def audited_1889(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("audit1889")
    status, _ = run_cli(
        "audit", str(LOG), "--out", str(work / "results.jsonl"), "--jobs", "1", "--no-progress",
        "--summary", str(work / "summary.json"), "--report", str(work / "report.html"))
    assert status == 0
    return work


def test_the_1889_audit_is_complete_and_every_optimum_at_least_the_recorded(audited_1889: Path) -> None:
    lines = without_timing(audited_1889 / "results.jsonl")
    (game,) = [g for g in lines if g["kind"] == "game"]
    runs = [r for r in lines if r["kind"] == "run"]
    log = json.loads(LOG.read_text("utf-8"))
    assert game["title"] == "1889" and game["rule_set"] == "standard"
    assert game["ok"] and game["completed"] and game["scores_match"] and not game["errors"]
    assert game["final_scores"] == {str(k): v for k, v in log["result"].items()}
    assert game["runs"] == len(runs) == RUNS
    golden = json.loads(gzip.decompress((DATA.parent / "golden" / "1889" / "verdicts.json.gz").read_bytes()))
    engine = {r["action_id"]: r["recorded"]["revenue"] for f in golden["fixtures"] if f["fixture"] == "962"
              for r in f["runs"]}
    for run in runs:
        assert run["recorded_legal"] and run["engine_revenue"] == engine[run["action_id"]], run["action_id"]
        for objective in ("total", "revenue"):
            optimum = run["optimal"][objective]
            assert optimum["proven_optimal"], (run["action_id"], objective)
            assert optimum["revenue"] + optimum["subsidy"] >= run["engine_revenue"]


def test_the_1889_report_writes_money_in_yen(audited_1889: Path) -> None:
    summary = json.loads((audited_1889 / "summary.json").read_text("utf-8"))
    assert summary["titles"] == ["1889"] and summary["currency_format"] == "¥%s"
    assert summary["runs"] == summary["runs_proven"] == RUNS
    report = (audited_1889 / "report.html").read_text("utf-8")
    assert f"<td>¥{summary['recorded_income']}</td>" in report
    assert "income left on the table in one run (¥)" in report  # the gap plot's axis
    assert money_of([{"title": "1889"}, {"title": "1888"}]) == (["1888", "1889"], "¥%s")
