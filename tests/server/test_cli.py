"""``route18xx call …`` prints what the local commands print; ``check`` stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BASE_STATE_NAME
from tests.conftest import STATES_DIR

TIMING_KEYS = {"solve_ms", "reduce_ms", "build_ms", "solver_ms", "search_ms"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", *args], capture_output=True, text=True, timeout=60
    )


def _without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


@pytest.fixture()
def routes_file(tmp_path: Path) -> Path:
    data = json.loads((STATES_DIR / f"{BASE_STATE_NAME}.json").read_text("utf-8"))
    path = tmp_path / "routes.json"
    path.write_text(json.dumps(data["reference"]["recorded_routes"]))
    return path


@pytest.mark.parametrize("objective", ["total", "revenue"])
def test_call_solve_json_equals_solve_json(server: Any, objective: str) -> None:
    state = str(STATES_DIR / "129026-209.json")
    local = _cli("solve", state, "--json", "--objective", objective)
    remote = _cli("call", "solve", state, "--json", "--objective", objective,
                  "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    local_json, remote_json = json.loads(local.stdout), json.loads(remote.stdout)
    assert list(local_json) == list(remote_json)
    assert _without_timing(local_json) == _without_timing(remote_json)
    # Same text too, once timing figures are masked.
    mask = lambda s: [l for l in s.splitlines() if not any(k in l for k in TIMING_KEYS)]  # noqa: E731
    assert mask(local.stdout) == mask(remote.stdout)


def test_call_validate_json_equals_check_json(server: Any, routes_file: Path) -> None:
    state = str(STATES_DIR / f"{BASE_STATE_NAME}.json")
    local = _cli("check", state, str(routes_file), "--json")
    remote = _cli("call", "validate", state, str(routes_file), "--json", "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    assert local.stdout == remote.stdout


def test_call_readable_output(server: Any, routes_file: Path) -> None:
    state = str(STATES_DIR / f"{BASE_STATE_NAME}.json")
    solve = _cli("call", "solve", state, "--target", server.target)
    assert solve.returncode == 0 and "proven optimal" in solve.stdout
    check = _cli("call", "validate", state, str(routes_file), "--target", server.target)
    assert check.returncode == 0 and check.stdout.startswith("legal")


def test_call_with_a_malformed_file_names_the_field(server: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rule_set": "north", "tiles": [{"hex": "F16", "rotation": "x"}]}))
    result = _cli("call", "solve", str(bad), "--target", server.target)
    assert result.returncode != 0
    assert "tiles[0].rotation" in result.stderr
    missing = _cli("call", "solve", str(tmp_path / "nope.json"), "--target", server.target)
    assert missing.returncode != 0 and "does not exist" in missing.stderr


def test_call_without_a_server_is_unavailable(tmp_path: Path) -> None:
    state = str(STATES_DIR / f"{BASE_STATE_NAME}.json")
    result = _cli("call", "solve", state, "--target", "127.0.0.1:1", "--timeout", "2")
    assert result.returncode != 0
    assert result.stderr.split(":")[0] in {"UNAVAILABLE", "DEADLINE_EXCEEDED"}


def test_check_does_not_load_grpc_or_ortools(routes_file: Path) -> None:
    state = str(STATES_DIR / f"{BASE_STATE_NAME}.json")
    code = (
        "import sys; from server.cli import main; status = main(sys.argv[1:]); "
        "heavy = [m for m in ('grpc', 'ortools', 'route18xx.v1') if m in sys.modules]; "
        "assert not heavy, heavy; sys.exit(status)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "check", state, str(routes_file), "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["legal"]


def test_serve_refuses_a_port_in_use(server: Any) -> None:
    result = _cli("serve", "--port", str(server.port))
    assert result.returncode != 0 and "cannot listen" in result.stderr
