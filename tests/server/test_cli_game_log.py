"""``route18xx solve|check|suggest`` and ``call solve|validate|suggest`` with ``--game --action``.

A log and an action id stand in for STATE.json: the local commands replay the
log, the ``call`` commands send it as ``game_log``/``action_id``; both print
what the state-file forms print for that moment.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LOGS_DIR, STATES_DIR

GAME = str(LOGS_DIR / "129026.json")
RUN = 728  # a run_routes action with a state file (SSL, a D-train)
LAY = 91  # LYR lays F14


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", *args], capture_output=True, text=True, timeout=120
    )


def _without(value: Any, keys: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [_without(v, keys) for v in value]
    return value


TIMING = {"solve_ms", "reduce_ms", "build_ms", "solver_ms", "search_ms", "elapsed_ms"}


@pytest.fixture()
def routes_file(tmp_path: Path) -> Path:
    action = next(a for a in json.loads(Path(GAME).read_text("utf-8"))["actions"] if a["id"] == RUN)
    path = tmp_path / "routes.json"
    path.write_text(json.dumps(action["routes"]))
    return path


def test_solve_with_game_equals_solve_with_the_state_file(server: Any) -> None:
    state = str(STATES_DIR / f"129026-{RUN}.json")
    from_state = _cli("solve", state, "--json")
    from_log = _cli("solve", "--game", GAME, "--action", str(RUN), "--json")
    remote = _cli("call", "solve", "--game", GAME, "--action", str(RUN), "--json",
                  "--target", server.target)
    assert from_state.returncode == from_log.returncode == remote.returncode == 0, (
        from_log.stderr, remote.stderr
    )
    want = _without(json.loads(from_state.stdout), TIMING)
    assert _without(json.loads(from_log.stdout), TIMING) == want
    assert _without(json.loads(remote.stdout), TIMING) == want
    reference = json.loads(Path(state).read_text("utf-8"))["reference"]
    assert want["revenue"] + want["subsidy"] == reference["optimal_total"]


def test_check_with_game_equals_call_validate(server: Any, routes_file: Path) -> None:
    local = _cli("check", "--game", GAME, "--action", str(RUN), str(routes_file), "--json")
    remote = _cli("call", "validate", "--game", GAME, "--action", str(RUN), str(routes_file),
                  "--json", "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    assert local.stdout == remote.stdout
    report = json.loads(local.stdout)
    reference = json.loads((STATES_DIR / f"129026-{RUN}.json").read_text("utf-8"))["reference"]
    assert report["legal"] and report["revenue"] == reference["recorded_revenue"]
    readable = _cli("check", str(routes_file), "--game", GAME, "--action", str(RUN))
    assert readable.returncode == 0 and readable.stdout.startswith("legal")


def test_suggest_with_game_equals_call_suggest(server: Any) -> None:
    args = ("--game", GAME, "--action", str(LAY), "--top", "5", "--json")
    local = _cli("suggest", *args)
    remote = _cli("call", "suggest", *args, "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    local_json, remote_json = json.loads(local.stdout), json.loads(remote.stdout)
    assert _without(local_json, TIMING) == _without(remote_json, TIMING)
    assert local_json["corporation"] == "LYR"
    assert ("F14", "8", 4) in {(s["hex"], s["tile"], s["rotation"]) for s in local_json["suggestions"]}
    readable = _cli("suggest", "--game", GAME, "--action", str(LAY), "--top", "2")
    assert readable.returncode == 0 and readable.stdout.startswith("LYR: income without a move")


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve",), "a board is needed"),
        (("solve", str(STATES_DIR / "129026-728.json"), "--game", GAME, "--action", "728"), "not both"),
        (("solve", "--game", GAME), "--game needs --action"),
        (("solve", str(STATES_DIR / "129026-728.json"), "--action", "728"), "--action goes with --game"),
        (("suggest", "--action", "91"), "a board is needed"),
        (("check", "--game", GAME, "routes.json"), "--game needs --action"),
        (("call", "solve", "--game", GAME), "--game needs --action"),
        (("call", "validate", "routes.json"), "a board is needed"),
        (("solve", "--game", GAME, "--action", "x"), "invalid int value"),
    ],
)
def test_board_arguments_are_checked(args: tuple[str, ...], message: str) -> None:
    result = _cli(*args)
    assert result.returncode == 2
    assert message in result.stderr and "usage:" in result.stderr


def test_a_bad_action_names_the_field_locally_and_remotely(server: Any, tmp_path: Path) -> None:
    local = _cli("solve", "--game", GAME, "--action", "316")
    assert local.returncode == 2 and "action_id: action 316 was undone" in local.stderr
    remote = _cli("call", "solve", "--game", GAME, "--action", "99999", "--target", server.target)
    assert remote.returncode == 1
    assert remote.stderr.startswith("INVALID_ARGUMENT: action_id: the log has no action 99999")
    not_a_log = tmp_path / "not_a_log.json"
    not_a_log.write_text(json.dumps({"title": "1888"}))
    local = _cli("solve", "--game", str(not_a_log), "--action", "1")
    assert local.returncode == 2 and "no 'actions' list" in local.stderr
    remote = _cli("call", "solve", "--game", str(not_a_log), "--action", "1",
                  "--target", server.target)
    assert remote.returncode == 1 and remote.stderr.startswith("INVALID_ARGUMENT: game_log:")
    missing = _cli("call", "solve", "--game", str(tmp_path / "nope.json"), "--action", "1",
                   "--target", server.target)
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_state_with_turn_facts() -> None:
    result = _cli("state", GAME, "--action", str(LAY), "--json", "--turn-facts")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["corporation"] == "LYR" and state["cash"] == 720 and state["tiles_laid"] == []
    plain = json.loads(_cli("state", GAME, "--action", str(LAY), "--json").stdout)
    assert "cash" not in plain


def test_check_with_game_does_not_load_grpc_or_ortools(routes_file: Path) -> None:
    code = (
        "import sys; from server.cli import main; status = main(sys.argv[1:]); "
        "heavy = [m for m in ('grpc', 'ortools', 'route18xx.v1') if m in sys.modules]; "
        "assert not heavy, heavy; sys.exit(status)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "check", "--game", GAME, "--action", str(RUN),
         str(routes_file), "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["legal"]
