"""Rules as of the game's date at every door (issue 19, DESIGN.md §9): ``replay --json``,
``ReplayGame``, ``audit`` say which rule version they used; ``rules_as_of`` is read
from states, requests and ``--rules-as-of``, and a malformed one names the field.

Version names and dates come from reference/1888/HISTORY.md §2: the market changed on
2023-08-25, the D's availability on 2023-08-09, MUST_BUY_TRAIN on 2022-04-27.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest

from route18xx.server.audit.records import audit_bytes
from route18xx.v1 import route_service_pb2 as pb
from tests.conftest import LOGS_DIR, STATES_DIR, load_json
from tests.server.conftest import BASE_STATE_NAME, assert_invalid

#: 2023-08-20 in seconds since the epoch (noon UTC): after the D change, before the market's.
AUG_20_2023 = 1692532800


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", *args], capture_output=True, text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def dated_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared 2024 log 1888_game_end_bankrupt, re-dated 2023-08-20 (its own created_at)."""
    log = load_json(LOGS_DIR / "1888_game_end_bankrupt.json")
    log["created_at"] = AUG_20_2023
    path = tmp_path_factory.mktemp("logs") / "dated.json"
    path.write_text(json.dumps(log))
    return path


def test_a_log_dated_before_the_market_change_replays_with_the_old_grid(dated_log: Path) -> None:
    done = _cli("replay", str(dated_log), "--json", "--no-solve")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["rules_version"] == "1888@2023-08-09"  # the old grid, the new D rule
    assert report["rules_as_of"] == "2023-08-20"
    assert report["scores_match"] is True


def test_the_shared_logs_report_their_own_dates() -> None:
    """129026 was played from 2023-07-17 (its created_at): before both 2023-08 changes."""
    for name, version, day in [
        ("129026", "1888@2022-04-27", "2023-07-17"),
        ("1888_game_end_bankrupt", "1888@2023-08-25", "2024-11-18"),
    ]:
        done = _cli("replay", str(LOGS_DIR / f"{name}.json"), "--json", "--no-solve")
        report = json.loads(done.stdout)
        assert (report["rules_version"], report["rules_as_of"]) == (version, day)
        assert report["scores_match"] is True


def test_rules_as_of_overrides_the_log_date(dated_log: Path) -> None:
    done = _cli("replay", str(dated_log), "--json", "--no-solve", "--rules-as-of", "2026-06-01")
    report = json.loads(done.stdout)
    assert (report["rules_version"], report["rules_as_of"]) == ("1888@2026-05-13", "2026-06-01")


def test_replay_game_reports_the_version(stub: Any, dated_log: Path) -> None:
    text = dated_log.read_text()
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=120)
    assert (response.rules_version, response.rules_as_of) == ("1888@2023-08-09", "2023-08-20")
    assert response.scores_match
    response = stub.ReplayGame(
        pb.ReplayGameRequest(game_log=text, skip_solve=True, rules_as_of="2022-04-26"), timeout=120)
    assert (response.rules_version, response.rules_as_of) == ("1888@2021-06-07", "2022-04-26")


def test_audit_names_the_rules_version_per_game(dated_log: Path) -> None:
    audit = audit_bytes(str(dated_log), dated_log.read_bytes(), time_limit_s=5.0)
    (game,) = [line for line in audit.lines if line["kind"] == "game"]
    assert (game["rules_version"], game["rules_as_of"]) == ("1888@2023-08-09", "2023-08-20")
    audit = audit_bytes(str(dated_log), dated_log.read_bytes(), 5.0, False, "2026-06-01")
    (game,) = [line for line in audit.lines if line["kind"] == "game"]
    assert (game["rules_version"], game["rules_as_of"]) == ("1888@2026-05-13", "2026-06-01")
    assert game["scores_match"] is True


def test_audit_bad_rules_as_of_exits_2(tmp_path: Path) -> None:
    done = _cli("audit", str(LOGS_DIR / "129026.json"), "--out", str(tmp_path / "r.jsonl"),
                "--rules-as-of", "2021-7-1")
    assert done.returncode == 2 and "rules_as_of: must be a date YYYY-MM-DD" in done.stderr


def test_state_command_writes_the_date_of_its_rules() -> None:
    done = _cli("state", str(LOGS_DIR / "129026.json"), "--action", "138", "--json")
    assert json.loads(done.stdout)["rules_as_of"] == "2023-07-17"


# ---- malformed dates name the field --------------------------------------------------


def test_replay_game_bad_rules_as_of_is_invalid_argument(stub: Any, channel: grpc.Channel) -> None:
    text = (LOGS_DIR / "129026.json").read_text()
    assert_invalid(
        lambda: stub.ReplayGame(
            pb.ReplayGameRequest(game_log=text, skip_solve=True, rules_as_of="2023-8-1"), timeout=30),
        channel, "rules_as_of", "must be a date YYYY-MM-DD")


def test_solve_bad_rules_as_of_is_invalid_argument(
    stub: Any, channel: grpc.Channel, base_state: dict[str, Any]
) -> None:
    request = pb.SolveRoutesRequest(rules_as_of="2023-02-30")
    request.state.CopyFrom(_state_proto(base_state))
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=30), channel, "rules_as_of",
                   "must be a date YYYY-MM-DD")
    request = pb.SolveRoutesRequest()
    request.state.CopyFrom(_state_proto({**base_state, "rules_as_of": "soon"}))
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=30), channel, "rules_as_of",
                   "must be a date YYYY-MM-DD")


def test_solve_with_a_date_answers_as_without(stub: Any, base_state: dict[str, Any]) -> None:
    """No dated change moves a route's income (HISTORY.md §2): same optimum either way."""
    plain = stub.SolveRoutes(pb.SolveRoutesRequest(state=_state_proto(base_state)), timeout=30)
    dated = stub.SolveRoutes(
        pb.SolveRoutesRequest(state=_state_proto(base_state), rules_as_of="2022-01-01"), timeout=30)
    assert (dated.revenue, dated.subsidy) == (plain.revenue, plain.subsidy)


def test_cli_bad_rules_as_of_exits_2_naming_the_field() -> None:
    state = str(STATES_DIR / f"{BASE_STATE_NAME}.json")
    for args in (
        ("solve", state, "--rules-as-of", "bad"),
        ("replay", str(LOGS_DIR / "129026.json"), "--no-solve", "--rules-as-of", "2023-13-01"),
        ("state", str(LOGS_DIR / "129026.json"), "--action", "138", "--rules-as-of", "x"),
    ):
        done = _cli(*args)
        assert done.returncode == 2, args
        assert "rules_as_of: must be a date YYYY-MM-DD" in done.stderr, done.stderr


def _state_proto(raw: dict[str, Any]) -> pb.State:
    from route18xx.server.convert.converters import state_to_proto

    return state_to_proto(raw)
