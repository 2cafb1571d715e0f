"""Issue 22 (f): the audit report of the shared logs holds the five worst boards, drawn.

The boards are ``route18xx draw --game LOG --action ID --routes both``'s own SVG
(compared byte for byte for the worst run), each worst run links to its view on
the web page (``#log=<game>&action=<id>&objective=total``), and the games table
names every game's players as the logs list them.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from route18xx.server.cli import main
from tests.audit.conftest import LOGS

pytest.importorskip("ortools")
pytest.importorskip("matplotlib")


def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(args))
    return status, out.getvalue()


def test_the_report_of_the_shared_logs_holds_the_five_worst_boards(tmp_path: Path) -> None:
    logs = [LOGS / "129026.json", LOGS / "1888_game_end_bankrupt.json"]
    status, _ = run_cli("audit", *map(str, logs), "--out", str(tmp_path / "r.jsonl"),
                        "--jobs", "1", "--no-progress", "--summary", str(tmp_path / "s.json"),
                        "--report", str(tmp_path / "report.html"),
                        "--page-url", "http://page.example/")
    assert status == 0
    report = (tmp_path / "report.html").read_text("utf-8")
    boards = re.findall(r'<div class="board">(<svg.*?</svg>)\s*</div>', report, re.S)
    assert len(boards) == 5
    worst = json.loads((tmp_path / "s.json").read_text())["worst_runs"]
    assert len(worst) >= 5
    status, svg = run_cli("draw", "--game", worst[0]["log"], "--action",
                          str(worst[0]["action_id"]), "--routes", "both", "-o", "-")
    assert status == 0 and boards[0] == svg[svg.index("<svg"):].strip()
    for w in worst:
        link = f'http://page.example/#log={w["game"]}&amp;action={w["action_id"]}&amp;objective=total'
        assert f'<a href="{link}">{w["action_id"]}</a>' in report
    for log in logs:
        data = json.loads(log.read_text())
        names = [p["name"] for p in data["players"]]
        row = re.search(rf"<tr><td>{data['id']}</td><td>([^<]*)</td>", report)
        assert row is not None and all(n in row.group(1) for n in names)
