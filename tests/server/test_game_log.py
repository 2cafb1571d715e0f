"""A game log plus an action id in place of a state (issues 5 and 6), on a real server.

SolveRoutes, ValidateRoutes and SuggestMoves take ``game_log`` (the 18xx.games
game JSON as a string) and ``action_id``; the answers equal those for the state
file of that moment, and a bad log or action is INVALID_ARGUMENT naming the field.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from route18xx.engine.replay.replay import state_before
from route18xx.v1 import route_service_pb2 as pb
from route18xx.server.convert import converters, suggest_converters
from route18xx.server.commands.client import RouteClient
from route18xx.server.convert.converters import LogSource
from tests.conftest import LOGS_DIR, STATES_DIR, load_json
from tests.server.conftest import assert_invalid

#: run_routes decisions with a state file: early to late, both logs and rule sets.
RUNS = [
    ("129026", 68),
    ("129026", 251),
    ("129026", 454),
    ("129026", 603),
    ("129026", 728),
    ("1888_game_end_bankrupt", 126),
    ("1888_game_end_bankrupt", 300),
    ("1888_game_end_bankrupt", 438),
    ("1888_game_end_bankrupt", 507),
]
#: lay_tile actions by corporations (with trains): LYR early; HJR late; HJR with the
#: Terracotta Army in hand; TJL with 5 yen in its treasury.
LAYS = [
    ("129026", 91),
    ("129026", 686),
    ("1888_game_end_bankrupt", 161),
    ("1888_game_end_bankrupt", 498),
]
ROUTE_KEYS = ("train", "revenue", "subsidy", "hexes", "nodes")

_TEXT: dict[str, str] = {}


def _log_text(name: str) -> str:
    if name not in _TEXT:
        _TEXT[name] = (LOGS_DIR / f"{name}.json").read_text("utf-8")
    return _TEXT[name]


def _log(name: str) -> dict[str, Any]:
    return json.loads(_log_text(name))


def _state_file(name: str, action_id: int) -> dict[str, Any]:
    return load_json(STATES_DIR / f"{name}-{action_id}.json")


def _action(name: str, action_id: int) -> dict[str, Any]:
    return next(a for a in _log(name)["actions"] if a.get("id") == action_id)


def _log_request(kind: type, name: str, action_id: int, **fields: Any) -> Any:
    return kind(game_log=_log_text(name), action_id=action_id, **fields)


def test_the_samples_span_both_logs() -> None:
    assert len(RUNS) >= 5 and {n for n, _ in RUNS} == {"129026", "1888_game_end_bankrupt"}
    for name, action_id in RUNS:
        assert _action(name, action_id)["type"] == "run_routes"
    for name, action_id in LAYS:
        lay = _action(name, action_id)
        assert lay["type"] == "lay_tile" and lay["entity_type"] == "corporation"


def test_a_real_log_is_far_under_the_message_limit() -> None:
    for name in ("129026", "1888_game_end_bankrupt"):
        request = _log_request(pb.SolveRoutesRequest, name, 1)
        assert 50_000 < request.ByteSize() < 4 * 1024 * 1024 // 10


def test_request_json_has_game_log_and_action_id() -> None:
    request = converters.solve_request_to_proto(LogSource(_log("129026"), 728))
    as_json = json_format.MessageToDict(request, preserving_proto_field_name=True)
    assert as_json["action_id"] == 728 and json.loads(as_json["game_log"]) == _log("129026")
    assert "state" not in as_json


@pytest.mark.parametrize("objective", ["total", "revenue"])
@pytest.mark.parametrize("name, action_id", RUNS)
def test_solve_from_the_log_equals_the_state_file_and_the_reference(
    client: RouteClient, name: str, action_id: int, objective: str
) -> None:
    data = _state_file(name, action_id)
    from_log = client.solve(LogSource(_log(name), action_id), objective=objective, timeout_s=30)
    from_state = client.solve(data["state"], objective=objective, timeout_s=30)
    assert from_log["proven_optimal"] and from_log["status"] == "OPTIMAL"
    assert from_log["corporation"] == data["state"]["corporation"]
    assert (from_log["revenue"], from_log["subsidy"]) == (from_state["revenue"], from_state["subsidy"])
    # the same routes; from a log the trains keep the log's ids (issue 22: "5-1", where a
    # state file, which names train types only, numbers them "5-0")
    typed = [{k: r[k].rsplit("-", 1)[0] if k == "train" else r[k] for k in ROUTE_KEYS}
             for r in from_log["routes"]]
    assert typed == [{k: r[k].rsplit("-", 1)[0] if k == "train" else r[k] for k in ROUTE_KEYS}
                     for r in from_state["routes"]]
    owned = {t for a in _log(name)["actions"] if a.get("type") == "run_routes"
             and a.get("entity") == data["state"]["corporation"] for t in
             (route["train"] for route in a.get("routes", []))}
    assert {r["train"] for r in from_log["routes"]} <= owned
    ref = data["reference"]
    if objective == "total":
        assert from_log["revenue"] + from_log["subsidy"] == ref["optimal_total"]
    else:
        assert from_log["revenue"] == ref["optimal_revenue"]


@pytest.mark.parametrize("name, action_id", RUNS)
def test_validate_from_the_log_accepts_the_recorded_routes(
    client: RouteClient, name: str, action_id: int
) -> None:
    ref = _state_file(name, action_id)["reference"]
    recorded = _action(name, action_id)["routes"]
    report = client.validate(LogSource(_log(name), action_id), recorded, timeout_s=30)
    assert report["legal"], report["violations"]
    assert (report["revenue"], report["subsidy"]) == (ref["recorded_revenue"], ref["recorded_subsidy"])
    assert report == client.validate(_state_file(name, action_id)["state"], recorded, timeout_s=30)


@pytest.mark.parametrize("name, action_id", LAYS)
def test_suggest_from_the_log_lists_the_lay_the_player_made(
    client: RouteClient, name: str, action_id: int
) -> None:
    lay = _action(name, action_id)
    tile = lay["tile"].rpartition("-")[0]
    # top above the number of legal moves: every candidate is ranked, none pruned
    report = client.suggest(LogSource(_log(name), action_id), top=10_000, timeout_s=60).to_json()
    assert report["corporation"] == lay["entity"]
    assert report["candidates"] == len(report["suggestions"]) > 0
    assert not report["not_evaluated"]
    scores = [s["score"] for s in report["suggestions"]]
    assert scores == sorted(scores, reverse=True)
    made = [
        s for s in report["suggestions"]
        if (s["hex"], s["tile"], s["rotation"]) == (lay["hex"], tile, lay["rotation"])
    ]
    assert made and made[0]["private"] is None, (lay, report["suggestions"][:5])


def test_suggest_from_the_log_uses_the_turn_facts(client: RouteClient) -> None:
    """Before 162 HJR has made its normal lay (G3) and owns TA: only TA's lay is left."""
    report = client.suggest(LogSource(_log("1888_game_end_bankrupt"), 162), top=50, timeout_s=60).to_json()
    assert report["suggestions"]
    assert {(s["hex"], s["tile"], s["private"]) for s in report["suggestions"]} == {
        ("H2", "L39", "TA")
    }
    # the state file alone knows no turn facts: normal lays are offered too
    bare = client.suggest(state_before(_log("1888_game_end_bankrupt"), 162), top=50, timeout_s=60).to_json()
    assert any(s["private"] is None for s in bare["suggestions"])


# -- errors ---------------------------------------------------------------------------

_SOLVE = pb.SolveRoutesRequest
_VALIDATE = pb.ValidateRoutesRequest
_SUGGEST = pb.SuggestMovesRequest


def _damaged(change: Any) -> str:
    log = copy.deepcopy(_log("129026"))
    change(log)
    return json.dumps(log)


ERROR_CASES: list[tuple[str, dict[str, Any], str, str]] = [
    ("not_json", {"game_log": "{not json", "action_id": 728}, "game_log", "is not JSON"),
    ("empty", {"game_log": "", "action_id": 728}, "game_log", "is empty"),
    ("json_list", {"game_log": "[1, 2]", "action_id": 728}, "game_log", "must be a JSON object"),
    ("no_actions", {"game_log": '{"players": []}', "action_id": 728}, "game_log", "no 'actions' list"),
    ("action_not_object", {"game_log": '{"actions": [3]}', "action_id": 1},
     "game_log.actions[0]", "must be an object"),
    ("no_players", {"game_log": _damaged(lambda g: g.update(players=[])), "action_id": 728},
     "game_log.players", "no players"),
    ("other_title", {"game_log": _damaged(lambda g: g.update(title="1867")), "action_id": 728},
     "game_log.title", "unknown title"),
    ("unknown_action", {"action_id": 99999}, "action_id", "the log has no action 99999"),
    ("undone_action", {"action_id": 316}, "action_id", "was undone"),
    ("stock_round_action", {"action_id": 44}, "action_id", "not taken while a corporation operates"),
    ("missing_action_id", {}, "action_id", "is missing"),
]


def _error_request(kind: type, fields: dict[str, Any]) -> Any:
    fields = dict(fields)
    fields.setdefault("game_log", _log_text("129026"))
    return kind(**fields)


@pytest.mark.parametrize("kind", [_SOLVE, _VALIDATE, _SUGGEST], ids=["solve", "validate", "suggest"])
@pytest.mark.parametrize(
    "fields, field, reason", [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_bad_log_or_action_is_invalid_argument(
    stub: Any, channel: grpc.Channel, kind: type, fields: dict[str, Any], field: str, reason: str
) -> None:
    request = _error_request(kind, fields)
    call = {
        _SOLVE: stub.SolveRoutes, _VALIDATE: stub.ValidateRoutes, _SUGGEST: stub.SuggestMoves,
    }[kind]
    assert_invalid(lambda: call(request, timeout=30), channel, field, reason)


def test_a_log_that_cannot_be_replayed_names_the_action(stub: Any, channel: grpc.Channel) -> None:
    def off_the_map(log: dict[str, Any]) -> None:
        next(a for a in log["actions"] if a.get("id") == 66)["hex"] = "A1"

    request = _SOLVE(game_log=_damaged(off_the_map), action_id=728)
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=30), channel, "game_log", "action 66")


def test_action_id_with_a_state_is_invalid_argument(
    stub: Any, channel: grpc.Channel, base_state: dict[str, Any]
) -> None:
    request = converters.solve_request_to_proto(base_state)
    request.action_id = 138
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=10), channel, "action_id",
                   "only read with a game_log")
    suggest = suggest_converters.suggest_request_to_proto(base_state)
    suggest.action_id = 138
    assert_invalid(lambda: stub.SuggestMoves(suggest, timeout=10), channel, "action_id",
                   "only read with a game_log")


def test_a_lay_by_a_company_without_trains_cannot_be_solved(stub: Any, channel: grpc.Channel) -> None:
    """1888_game_end_bankrupt 487: HJR has lost its trains; the board is fine, the request is not."""
    request = _log_request(_SUGGEST, "1888_game_end_bankrupt", 487)
    assert_invalid(lambda: stub.SuggestMoves(request, timeout=30), channel, "trains", "no trains")
