"""``route18xx audit`` (issue 15): the figures of ``route18xx replay --json``, the same
file from the local pool and from a Dask cluster, broken logs reported, resumable."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.audit.runner import read_done
from route18xx.server.cli import main
from tests.audit.conftest import BROKEN, LOGS, ROOT, STOPPED
from tests.stopped_logs import RUNS_BEFORE, STOPS_AT, run_ids_before, write_stopped_log
from tests.browser import NO_CHROMIUM, chromium_driver, screenshot  # noqa: F401 (fixture)

pytest.importorskip("ortools")


def without_timing(path: Path) -> list[dict[str, Any]]:
    """The results file's lines, less the wall-clock fields (``timing``)."""
    lines = [json.loads(raw) for raw in path.read_text("utf-8").splitlines()]
    for line in lines:
        line.pop("timing")
    return lines


def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(args))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def audited(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus audited on the local pool (2 workers), with summary, report and states."""
    work = tmp_path_factory.mktemp("audit")
    status, _ = run_cli(
        "audit", str(corpus), "--out", str(work / "results.jsonl"), "--jobs", "2",
        "--summary", str(work / "summary.json"), "--report", str(work / "report.html"),
        "--export-states", str(work / "states"),
    )
    assert status == 1  # issue 20: the corpus's broken logs failed, the others were audited
    return work


def test_every_run_has_the_figures_of_replay_json(corpus: Path, audited: Path) -> None:
    lines = without_timing(audited / "results.jsonl")
    games = {g["log"]: g for g in lines if g["kind"] == "game"}
    assert sorted(Path(p).name for p in games) == sorted(p.name for p in corpus.iterdir())
    good = [log for log in games if not Path(log).name.startswith("broken-")]
    for log in good:
        reports = {}
        for objective in ("total", "revenue"):
            status, text = run_cli("replay", log, "--json", "--objective", objective)
            assert status == 0, log
            reports[objective] = json.loads(text)
        game = games[log]
        assert game["ok"] and game["completed"] and game["errors"] == reports["total"]["errors"]
        assert game["scores_match"] is True == reports["total"]["scores_match"]
        assert game["final_scores"] == reports["total"]["final_scores"]
        assert game["rule_set"] == reports["total"]["rule_set"]
        runs = [r for r in lines if r["kind"] == "run" and r["log"] == log]
        assert [r["action_id"] for r in runs] == [r["action_id"] for r in reports["total"]["run_routes"]]
        assert game["runs"] == len(runs) > 0
        for objective, report in reports.items():
            for mine, theirs in zip(runs, report["run_routes"]):
                for key in ("corporation", "trains", "recorded_revenue", "recorded_subsidy",
                            "recorded_legal", "engine_revenue", "engine_subsidy"):
                    assert mine[key] == theirs[key], (log, mine["action_id"], key)
                assert mine["optimal"][objective] == {
                    "revenue": theirs["optimal_revenue"],
                    "subsidy": theirs["optimal_subsidy"],
                    "proven_optimal": theirs["proven_optimal"],
                }, (log, mine["action_id"], objective)


def test_runs_name_round_president_and_gap(audited: Path) -> None:
    runs = [r for r in without_timing(audited / "results.jsonl") if r["kind"] == "run"]
    run = next(r for r in runs if r["game"] == "129026" and r["action_id"] == 97)
    assert (run["round"], run["corporation"], run["president_name"]) == ("OR 3.1", "HJR", "Player 3")
    for r in runs:
        opt = r["optimal"]["total"]
        assert r["gap"]["total"] == opt["revenue"] + opt["subsidy"] - r["recorded_revenue"] \
            - r["recorded_subsidy"] >= 0
        assert r["gap"]["revenue"] == r["optimal"]["revenue"]["revenue"] - r["recorded_revenue"]


def test_broken_logs_get_an_error_line_and_the_rest_completes(audited: Path) -> None:
    games = [g for g in without_timing(audited / "results.jsonl") if g["kind"] == "game"]
    for game in games:
        name = Path(game["log"]).name
        if name in BROKEN:
            assert not game["ok"] and game["errors"], name
            assert BROKEN[name] in game["errors"][0], game["errors"]
        else:
            assert game["ok"] and game["scores_match"], name
    summary = json.loads((audited / "summary.json").read_text())
    assert sorted(Path(f["log"]).name for f in summary["failed_logs"]) == sorted(
        set(BROKEN) - set(STOPPED))
    assert sorted(Path(f["log"]).name for f in summary["stopped_logs"]) == sorted(STOPPED)
    assert summary["logs"] == len(games)
    assert summary["logs"] == summary["logs_ok"] + summary["logs_stopped"] + summary["logs_failed"]


def test_a_stopped_replay_reports_where_and_counts_the_runs_it_reached(audited: Path) -> None:
    """Issue 19: the game line says where the replay stopped and how many runs it reached;
    those runs are audited (the good log's very figures) and counted in the summary."""
    lines = without_timing(audited / "results.jsonl")
    games = {Path(g["log"]).name: g for g in lines if g["kind"] == "game"}
    for name, action in STOPPED.items():
        game = games[name]
        assert not game["ok"] and not game["completed"] and game["stopped_at"] == action
        assert f"action {action}" in game["errors"][0]
    for name, game in games.items():
        if name not in STOPPED:
            assert game["stopped_at"] is None, name
    stops = games["broken-stops.json"]
    assert stops["runs"] == RUNS_BEFORE
    mine = [r for r in lines if r["kind"] == "run" and Path(r["log"]).name == "broken-stops.json"]
    good = [r for r in lines if r["kind"] == "run" and Path(r["log"]).name == "129026.json"]
    assert [r["action_id"] for r in mine] == run_ids_before(STOPS_AT)
    assert [r | {"log": ""} for r in mine] == [r | {"log": ""} for r in good[:RUNS_BEFORE]]

    summary = json.loads((audited / "summary.json").read_text())
    assert summary["logs_stopped"] == len(STOPPED)
    assert summary["runs_in_stopped_logs"] == RUNS_BEFORE  # broken-diverging stops before any
    assert summary["runs"] == sum(g["runs"] for g in games.values())
    (entry,) = [f for f in summary["stopped_logs"] if Path(f["log"]).name == "broken-stops.json"]
    assert (entry["stopped_at"], entry["runs"]) == (STOPS_AT, RUNS_BEFORE)
    report = (audited / "report.html").read_text()
    assert "Logs whose replay stopped partway" in report and "broken-stops.json" in report


def test_the_audit_command_says_how_many_logs_stopped(tmp_path: Path) -> None:
    path = write_stopped_log(tmp_path / "stops.json")
    status, out = run_cli("audit", str(path), "--out", str(tmp_path / "r.jsonl"), "--jobs", "1",
                          "--no-progress")
    assert status == 0  # as before: the audit went through its logs
    assert f"1 logs (0 already done), 0 failed, 1 stopped partway ({RUNS_BEFORE} runs reached, " \
        f"counted); {RUNS_BEFORE} runs" in out


def test_the_results_are_sorted_by_log_then_action(audited: Path) -> None:
    lines = without_timing(audited / "results.jsonl")
    keys = [(x["log"], x["kind"] == "game", x.get("action_id", 0)) for x in lines]
    assert keys == sorted(keys)


def test_exported_states_are_the_shared_benchmark_cases(audited: Path) -> None:
    states = audited / "states"
    shared = sorted((ROOT / "tests" / "data" / "states").glob("129026-*.json"))
    assert shared
    for path in shared:
        mine = json.loads((states / path.name).read_text())
        ref = json.loads(path.read_text())["reference"]
        for key in ("action_id", "recorded_revenue", "recorded_subsidy", "recorded_routes",
                    "optimal_total", "optimal_revenue", "optimal_revenue_best_subsidy"):
            assert mine["reference"][key] == ref[key], (path.name, key)
        assert set(mine["state"]) >= {"phase", "corporation", "trains", "tiles", "tokens"}


def test_a_dask_cluster_gives_the_local_pools_file(
    corpus: Path, audited: Path, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra: make test installs it")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        status, _ = run_cli("audit", str(corpus), "--out", str(tmp_path / "cluster.jsonl"),
                            "--cluster", cluster.scheduler_address)
    assert status == 1  # the broken logs failed
    assert (tmp_path / "cluster.jsonl").read_text() != ""
    assert without_timing(tmp_path / "cluster.jsonl") == without_timing(audited / "results.jsonl")


def test_an_interrupted_audit_resumes_without_repeating_or_losing_a_game(
    corpus: Path, audited: Path, tmp_path: Path
) -> None:
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "route18xx.server.cli", "audit", str(corpus), "--out",
               str(out), "--jobs", "1"]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count('"kind":"game"') >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "resume" in err and "Traceback" not in err
    partial = out.read_text()
    assert partial.endswith("\n")
    done = read_done(out)
    assert 2 <= len(done) < len(list(corpus.iterdir()))
    for raw in partial.splitlines():
        json.loads(raw)  # every line whole
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 1, finished.stderr  # the broken logs failed
    assert f"({len(done)} already done)" in finished.stdout
    assert without_timing(out) == without_timing(audited / "results.jsonl")


def test_a_torn_tail_is_cut_before_resuming(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    status, _ = run_cli("audit", str(LOGS / "1888_game_end_bankrupt.json"), "--out", str(out),
                        "--jobs", "1")
    assert status == 0
    whole = out.read_text()
    with out.open("a") as f:  # what a kill mid-write of the next game could leave
        f.write(whole.splitlines()[0].replace("1888_game_end_bankrupt", "other") + "\n")
        f.write('{"kind":"run","log":"oth')
    assert read_done(out) == {str(LOGS / "1888_game_end_bankrupt.json")}
    assert out.read_text() == whole


@NO_CHROMIUM
def test_the_report_opens_in_headless_chromium(audited: Path, chromium_driver: Any) -> None:
    from selenium.webdriver.common.by import By

    report = audited / "report.html"
    text = report.read_text()
    assert text.count("<svg") >= 4 and "route18xx draw --game" in text
    browser = chromium_driver
    try:
        browser.get(report.as_uri())
        assert browser.title == "route18xx audit"
        body = browser.find_element(By.TAG_NAME, "body").text
        assert "Income left on the table, per player" in body and "Worst runs" in body
        plots = browser.find_elements(By.TAG_NAME, "svg")
        assert len(plots) >= 4
        assert all(p.size["width"] > 100 and p.size["height"] > 50 for p in plots)
        height = browser.execute_script("return document.body.scrollHeight")
        assert height > 1000
    finally:
        screenshot(browser, "audit-report")


def test_the_audit_names_the_version_that_made_it(audited: Path) -> None:
    """Issue 23: the summary and the report say which route18xx made the figures."""
    from tests.server.test_ops import pyproject_version

    summary = json.loads((audited / "summary.json").read_text())
    made = summary["route18xx"]
    assert made["version"] == pyproject_version() and made["git_revision"]
    report = (audited / "report.html").read_text()
    assert f"Made by route18xx {made['version']} (git {made['git_revision']})" in report
