"""``route18xx replay`` on a log whose replay stops partway (issue 19): the runs reached,
``completed`` false, ``stopped_at`` the action, the reason in ``errors``; exit status 1."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from route18xx.server.cli import main
from tests.conftest import LOGS_DIR
from tests.stopped_logs import BAD_HEX, STOPS_AT, run_ids_before, write_stopped_log


def _replay(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", *args])
    return status, out.getvalue(), err.getvalue()


def test_replay_json_of_a_stopped_log_has_the_runs_reached_and_the_stop(tmp_path: Path) -> None:
    path = write_stopped_log(tmp_path / "stops.json")
    status, out, err = _replay(str(path), "--json", "--no-solve")
    assert status == 1  # as before: an action could not be replayed
    report = json.loads(out)
    assert report["completed"] is False and report["stopped_at"] == STOPS_AT
    assert [r["action_id"] for r in report["run_routes"]] == run_ids_before(STOPS_AT)
    assert len(report["errors"]) == 1 and f"action {STOPS_AT}" in report["errors"][0]
    assert BAD_HEX in err


def test_replay_json_of_a_whole_log_is_completed() -> None:
    status, out, _ = _replay(str(LOGS_DIR / "1888_game_end_bankrupt.json"), "--json", "--no-solve")
    assert status == 0
    report = json.loads(out)
    assert report["completed"] is True and report["stopped_at"] is None


def test_the_summary_says_where_it_stopped(tmp_path: Path) -> None:
    path = write_stopped_log(tmp_path / "stops.json")
    status, out, _ = _replay(str(path), "--no-solve")
    assert status == 1
    assert f"stopped:         at action {STOPS_AT}" in out
    assert f"run_routes:      {len(run_ids_before(STOPS_AT))} checked" in out
