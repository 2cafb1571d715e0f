"""ReplayGame (issue 13's web page reads it): the replay of `route18xx replay --json`, over gRPC."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from route18xx.engine import api
from route18xx.v1 import route_service_pb2 as pb
from tests.conftest import LOGS_DIR, load_json
from tests.server.http_calls import JSON, SERVICE, post
from tests.stopped_logs import (
    BAD_HEX, RUNS_BEFORE, STOPS_AT, STOPS_AT_ONCE, run_ids_before, stopped_log,
)


@pytest.mark.parametrize("name", ["129026", "1888_game_end_bankrupt"])
def test_replay_game_equals_the_engine_replay(stub: Any, name: str) -> None:
    text = (LOGS_DIR / f"{name}.json").read_text()
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text), timeout=120)
    local = api.replay_game(json.loads(text)).to_json()
    assert response.scores_match and local["scores_match"]
    assert len(response.runs) == len(local["run_routes"])
    for run, ref in zip(response.runs, local["run_routes"]):
        assert run.action_id == ref["action_id"] and run.corporation == ref["corporation"]
        assert (run.recorded_revenue, run.recorded_subsidy) == (
            ref["recorded_revenue"], ref["recorded_subsidy"])
        assert (run.optimal_revenue, run.optimal_subsidy) == (
            ref["optimal_revenue"], ref["optimal_subsidy"])
        assert run.turn_start_action_id <= run.action_id


def test_action_728_of_129026(stub: Any) -> None:
    text = (LOGS_DIR / "129026.json").read_text()
    runs = stub.ReplayGame(pb.ReplayGameRequest(game_log=text), timeout=120).runs
    (run,) = [r for r in runs if r.action_id == 728]
    assert (run.recorded_revenue, run.optimal_revenue, run.optimal_subsidy) == (570, 550, 40)
    assert run.corporation == "SSL" and list(run.trains) == ["D"] and run.proven_optimal


def test_turn_start_is_the_turns_first_action() -> None:
    """The turn of run 728 begins at the first SSL action after another entity acted."""
    log = load_json(LOGS_DIR / "129026.json")
    kept = [a for a in api.replay_game(log, solve=False).to_json()["run_routes"] if a["action_id"] == 728]
    start = kept[0]["turn_start_action_id"]
    by_id = {a["id"]: a for a in log["actions"]}
    assert by_id[start]["entity"] == "SSL"
    before = max(i for i in by_id if i < start and by_id[i]["type"] != "message")
    assert by_id[before]["entity"] != "SSL"


def test_skip_solve_leaves_the_optimum_unset(stub: Any) -> None:
    text = (LOGS_DIR / "1888_game_end_bankrupt.json").read_text()
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=60)
    assert response.runs and not any(r.HasField("optimal_revenue") for r in response.runs)


def test_not_a_log_is_invalid_argument(stub: Any) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.ReplayGame(pb.ReplayGameRequest(game_log='{"title": "1830"}'), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "game_log" in info.value.details()


@pytest.mark.parametrize("settings", ['"x"', "5"])
def test_a_log_whose_settings_are_not_an_object_is_invalid_argument_naming_them(
    stub: Any, http_server: Any, settings: str
) -> None:
    """Issue 34: ``"settings": "x"`` or ``5`` answered INTERNAL (500 over HTTP)."""
    log = load_json(LOGS_DIR / "1888_game_end_bankrupt.json")
    text = json.dumps(log)[:-1] + f', "settings": {settings}}}'  # the last key wins
    with pytest.raises(grpc.RpcError) as info:
        stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=30)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith("game_log.settings: must be an object")
    body = json.dumps({"gameLog": text, "skipSolve": True}).encode()
    answer = post(http_server.http_url, f"{SERVICE}/ReplayGame", body, {"Content-Type": JSON})
    assert answer.status == 400 and answer.json["code"] == "invalid_argument", answer.body[:200]
    assert answer.json["message"].startswith("game_log.settings: must be an object")


def test_an_illegal_recorded_route_comes_with_its_violation_codes(stub: Any) -> None:
    """Issue 19: a run the rules refuse says why (recorded_violations); the replay goes on."""
    log = load_json(LOGS_DIR / "129026.json")
    run_action = next(
        a for a in log["actions"]
        if a["type"] == "run_routes" and len(a["routes"]) == 1 and len(a["routes"][0]["connections"]) == 1
    )
    conns = run_action["routes"][0]["connections"]
    conns.append(list(reversed(conns[0])))
    response = stub.ReplayGame(
        pb.ReplayGameRequest(game_log=json.dumps(log), skip_solve=True), timeout=120)
    (run,) = [r for r in response.runs if r.action_id == run_action["id"]]
    codes = {pb.ViolationCode.Name(c) for c in run.recorded_violations}
    assert not run.recorded_legal
    assert {"VIOLATION_CODE_STOP_TWICE", "VIOLATION_CODE_SIDE_USED_TWICE"} <= codes
    assert response.scores_match
    assert all(not r.recorded_violations for r in response.runs if r.recorded_legal)


def test_a_complete_replay_says_so(stub: Any) -> None:
    text = (LOGS_DIR / "1888_game_end_bankrupt.json").read_text()
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=60)
    assert response.completed and not response.HasField("stopped_at_action")
    assert list(response.errors) == []


def test_a_replay_that_stops_returns_the_runs_before_it_and_where_it_stopped(stub: Any) -> None:
    """Issue 19: a stop partway is an answer: the runs reached, the action, the reason."""
    text = json.dumps(stopped_log(STOPS_AT))
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text), timeout=120)
    assert not response.completed
    assert response.HasField("stopped_at_action") and response.stopped_at_action == STOPS_AT
    assert [r.action_id for r in response.runs] == run_ids_before(STOPS_AT)
    assert len(response.runs) == RUNS_BEFORE
    assert all(r.HasField("optimal_revenue") for r in response.runs)  # solved all the same
    (error,) = response.errors
    assert f"action {STOPS_AT}" in error and BAD_HEX in error
    # the runs reached are the good log's own figures
    good = stub.ReplayGame(pb.ReplayGameRequest(
        game_log=(LOGS_DIR / "129026.json").read_text()), timeout=120)
    for run in [*response.runs, *good.runs]:
        run.ClearField("solve_ms")  # wall-clock: the one figure that differs
    assert list(response.runs) == list(good.runs)[:RUNS_BEFORE]


def test_a_replay_that_stops_at_once_has_no_runs(stub: Any) -> None:
    text = json.dumps(stopped_log(STOPS_AT_ONCE))
    response = stub.ReplayGame(pb.ReplayGameRequest(game_log=text, skip_solve=True), timeout=60)
    assert not response.completed and response.stopped_at_action == STOPS_AT_ONCE
    assert list(response.runs) == [] and f"action {STOPS_AT_ONCE}" in response.errors[0]


def test_a_log_that_ends_before_the_game_is_incomplete_without_a_stop_action(stub: Any) -> None:
    log = load_json(LOGS_DIR / "1888_game_end_bankrupt.json")
    log["actions"] = log["actions"][:200]  # still "finished", with its result
    response = stub.ReplayGame(pb.ReplayGameRequest(
        game_log=json.dumps(log), skip_solve=True), timeout=60)
    assert not response.completed and not response.HasField("stopped_at_action")
    assert response.runs and "ends before the game does" in response.errors[0]
