"""ReplayGame (issue 13's web page reads it): the replay of `route18xx replay --json`, over gRPC."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from route18xx.engine import api
from route18xx.v1 import route_service_pb2 as pb
from tests.conftest import LOGS_DIR, load_json


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
