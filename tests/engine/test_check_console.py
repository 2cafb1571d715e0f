"""The real ``route18xx check`` console script on all 123 real decisions and bad input.

Each decision is judged in its own process, as a client would run it, and the
printed JSON must price the recorded routes exactly.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import load_json, state_files

SCRIPT = Path(sys.executable).parent / "route18xx"


def _check(state_path: Path, routes_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "check", str(state_path), str(routes_path), "--json"],
        capture_output=True, text=True, timeout=60,
    )


@pytest.fixture(scope="module")
def console() -> Path:
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT} (run `make test`)")
    return SCRIPT


def test_all_real_decisions_through_the_console_script(console: Path, tmp_path: Path) -> None:
    jobs = []
    for path in state_files():
        routes_path = tmp_path / f"{path.stem}.routes.json"
        routes_path.write_text(json.dumps(load_json(path)["reference"]["recorded_routes"]))
        jobs.append((path, routes_path))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: _check(*job), jobs))
    assert len(results) == 123
    for (path, _), result in zip(jobs, results):
        ref = load_json(path)["reference"]
        assert result.returncode == 0, (path.stem, result.stderr)
        report = json.loads(result.stdout)
        assert report["legal"] is True, (path.stem, report["violations"])
        assert (report["revenue"], report["subsidy"]) == (
            ref["recorded_revenue"], ref["recorded_subsidy"]
        ), path.stem


def test_bad_state_through_the_console_script(console: Path, tmp_path: Path) -> None:
    state = {"title": "1888", "rule_set": "north", "phase": "2", "corporation": "LYR",
             "trains": ["2"], "tiles": [{"hex": "G15", "tile": "9", "rotation": 7}], "tokens": []}
    state_path, routes_path = tmp_path / "s.json", tmp_path / "r.json"
    state_path.write_text(json.dumps(state))
    routes_path.write_text("[]")
    result = _check(state_path, routes_path)
    assert result.returncode != 0
    assert result.stdout == ""
    assert "tiles[0].rotation: 7 is outside 0-5" in result.stderr
