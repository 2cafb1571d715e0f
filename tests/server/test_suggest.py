"""SuggestMoves (issue 6): the server's ranking is the engine's, bad input names the field,
a deadline cuts the ranking short without harming the server, and ``route18xx call
suggest --json`` prints what ``route18xx suggest --json`` prints.

The engine ranks with a small thread pool, so which equal-graph boards share a
solve (``solved``/``reused``) and how many bounds prune (``pruned``) may differ
from run to run; the ranking itself does not. Comparisons leave those counts
out (and ``elapsed_ms``) and check that the counts add up instead.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from typing import Any, Callable, Iterator

import grpc
import msgspec
import pytest

from route18xx.engine.api import (
    MoveLayReport, MoveReport, SuggestReport, Suggestion, suggest_moves,
)
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.server.convert import converters, suggest_converters
from route18xx.server.rpc.app import ServerConfig
from route18xx.server.commands.client import RouteClient
from route18xx.server.core.runner import Limits
from tests.conftest import STATES_DIR
from tests.route_server import started_server
from tests.server.conftest import SERVING, assert_invalid, health_status, real_state

#: Counts that depend on thread timing, and the clock.
VOLATILE = ("solved", "reused", "pruned", "elapsed_ms")
LATE = "129026-728"  # phase D, the fullest board: 74 legal lays


def _state(name: str, **extra: Any) -> dict[str, Any]:
    return {**copy.deepcopy(real_state(name)["state"]), **extra}


def _stable(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in VOLATILE}


def _counts_add_up(report: dict[str, Any]) -> None:
    done = report["solved"] + report["reused"] + report["pruned"] + len(report["not_evaluated"])
    assert done == report["candidates"]


# (id, state name, turn facts, options)
PARITY_CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("early-mid", "129026-251", {}, {}),
    ("mid", "129026-399", {}, {"top": 5}),
    ("bankrupt-log", "1888_game_end_bankrupt-507", {}, {"objective": "revenue"}),
    ("late-tokens-cost", LATE, {}, {"top": 5, "include_tokens": True, "subtract_cost": True}),
    ("turn-facts", "129026-251", {"privates": ["TA"], "cash": 100, "heng_shan_player_owned": True},
     {"top": 40, "include_tokens": True}),
    ("normal-lay-made", "129026-399", {"tiles_laid": [{"hex": "H12"}]}, {}),
]


@pytest.mark.parametrize(
    "name,facts,options", [c[1:] for c in PARITY_CASES], ids=[c[0] for c in PARITY_CASES]
)
def test_suggest_matches_the_engine(
    client: RouteClient, name: str, facts: dict[str, Any], options: dict[str, Any]
) -> None:
    state = _state(name, **facts)
    remote = client.suggest(state, timeout_s=60, **options).to_json()
    local = suggest_moves(state, **options).to_json()
    assert list(remote) == list(local)
    assert _stable(remote) == _stable(local)
    assert [(s["hex"], s["tile"], s["rotation"], s["city"], s["income"])
            for s in remote["suggestions"]] == [
        (s["hex"], s["tile"], s["rotation"], s["city"], s["income"]) for s in local["suggestions"]
    ]
    assert remote["not_evaluated"] == [] and remote["base_proven_optimal"]
    assert all(s["proven_optimal"] for s in remote["suggestions"])
    _counts_add_up(remote)


def test_turn_facts_reach_the_engine(client: RouteClient) -> None:
    """A private's special lay, a token and terrain under the cash all come back."""
    plain = client.suggest(_state("129026-251"), top=100, include_tokens=True).to_json()
    facts = client.suggest(
        _state("129026-251", privates=["TA"], cash=0), top=100, include_tokens=True
    ).to_json()
    kinds = {(s["kind"], s["private"]) for s in plain["suggestions"]}
    assert ("token", None) in kinds and all(p is None for _, p in kinds)
    ta = [s for s in facts["suggestions"] if s["private"] == "TA"]
    assert [(s["hex"], s["tile"], s["cost"]) for s in ta] == [("H2", "L39", 0)]
    assert all(s["cost"] == 0 for s in facts["suggestions"])  # cash 0: free moves only
    token = next(s for s in plain["suggestions"] if s["kind"] == "token")
    assert token["tile"] is None and token["rotation"] is None and token["lays"] == []
    assert isinstance(token["city"], int)
    made = client.suggest(_state("129026-399", tiles_laid=[{"hex": "H12"}])).to_json()
    assert made["candidates"] == 0 and made["suggestions"] == []


def test_report_round_trips_through_the_messages() -> None:
    """Engine report → SuggestMovesResponse → report is the identity, its JSON keys in order."""
    ranked = suggest_moves(_state("129026-251", privates=["TA"]), top=100, include_tokens=True)
    ranked = msgspec.structs.replace(
        ranked, not_evaluated=tuple(s.move for s in ranked.suggestions[-2:])
    )
    report = ranked.to_json()
    back_report = suggest_converters.suggest_report_from_proto(
        suggest_converters.suggest_report_to_proto(ranked)
    )
    assert back_report == ranked
    back = back_report.to_json()
    assert back == report
    assert json.dumps(back) == json.dumps(report)


def test_solve_accepts_the_turn_facts(client: RouteClient) -> None:
    state = _state("129026-251")
    plain = client.solve(state)
    with_facts = client.solve(
        {**state, "cash": 10, "privates": ["TA"], "tiles_laid": [{"hex": "E5"}]}
    )
    assert (with_facts["revenue"], with_facts["subsidy"]) == (plain["revenue"], plain["subsidy"])


def test_request_json_reads_like_a_state_file_plus_options() -> None:
    from google.protobuf import json_format

    state = _state("129026-251", privates=["TA"], cash=300, tiles_laid=[{"hex": "E5"}])
    request = suggest_converters.suggest_request_to_proto(state, top=3, include_tokens=True)
    as_json = json_format.MessageToDict(
        request, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    # repeated fields have no presence: each prints as [] when not given.
    for field in pb.State.DESCRIPTOR.fields:
        if field.label == field.LABEL_REPEATED and field.name not in state:
            assert as_json["state"].pop(field.name) == [], field.name
    assert as_json["state"] == state
    assert (as_json["top"], as_json["include_tokens"]) == (3, True)
    assert "top" not in json_format.MessageToDict(pb.SuggestMovesRequest())


def test_top_defaults_to_ten_when_absent(stub: Any) -> None:
    request = pb.SuggestMovesRequest(state=converters.state_to_proto(_state("129026-399")))
    assert not request.HasField("top")
    response = stub.SuggestMoves(request, timeout=60)
    assert len(response.suggestions) == 10 and response.candidates > 10


# -- bad input ---------------------------------------------------------------------------

Request = Callable[[], pb.SuggestMovesRequest]


def _request(facts: dict[str, Any] | None = None, **options: Any) -> pb.SuggestMovesRequest:
    return suggest_converters.suggest_request_to_proto(_state("129026-138", **(facts or {})),
                                                       **options)


def _with(**fields: Any) -> pb.SuggestMovesRequest:
    request = _request()
    for key, value in fields.items():
        setattr(request, key, value)
    return request


# (id, request, expected field, words expected in the reason)
BAD_CASES: list[tuple[str, Request, str, str]] = [
    ("top_0", lambda: _request(top=0), "top", "must be a whole number >= 1"),
    ("top_negative", lambda: _request(top=-3), "top", "must be a whole number >= 1"),
    ("unknown_private", lambda: _request({"privates": ["TA", "XX"]}), "privates[1]",
     "unknown private company 'XX'"),
    ("tiles_laid_unknown_hex", lambda: _request({"tiles_laid": [{"hex": "Z99"}]}),
     "tiles_laid[0].hex", "unknown hex 'Z99'"),
    ("tiles_laid_unknown_private", lambda: _request({"tiles_laid": [{"hex": "E5", "private": "QQ"}]}),
     "tiles_laid[0].private", "unknown private company 'QQ'"),
    ("negative_cash", lambda: _request({"cash": -5}), "cash", ">= 0"),
    ("negative_time_limit", lambda: _with(time_limit_s=-1.0), "time_limit_s", "-1"),
    ("unknown_objective", lambda: _with(objective=7), "objective", "unknown objective value 7"),
    ("missing_state", lambda: pb.SuggestMovesRequest(top=3), "state", "is missing"),
    ("unknown_phase", lambda: _request({"phase": "9"}), "phase", "unknown phase"),
    ("no_trains", lambda: _request({"trains": []}), "trains", "the company has no trains"),
    ("tile_rotation", lambda: _request({"tiles": [{"hex": "F14", "tile": "8", "rotation": 7}]}),
     "tiles[0].rotation", "outside 0-5"),
]


@pytest.mark.parametrize(
    "make,field,reason", [c[1:] for c in BAD_CASES], ids=[c[0] for c in BAD_CASES]
)
def test_bad_input_is_invalid_argument(
    stub: Any, channel: grpc.Channel, make: Request, field: str, reason: str
) -> None:
    request = make()
    assert_invalid(lambda: stub.SuggestMoves(request, timeout=30), channel, field, reason)
    assert stub.SuggestMoves(_request(top=1), timeout=30).suggestions  # still serving


def test_unknown_private_in_a_solve_is_invalid_too(stub: Any, channel: grpc.Channel) -> None:
    request = converters.solve_request_to_proto(_state("129026-138", privates=["XX"]))
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=30), channel, "privates[0]",
                   "unknown private company")


# -- deadlines ---------------------------------------------------------------------------


def test_short_deadline_on_the_late_game(stub: Any, channel: grpc.Channel) -> None:
    """0.1 s for 74 late-game candidates: a partial ranking naming the rest, or nothing
    (the engine's own test, tests/engine/test_suggest.py, holds a 50 ms budget to a partial
    ranking); on a fast machine the whole ranking may fit, and is then whole."""
    request = suggest_converters.suggest_request_to_proto(
        _state(LATE), top=5, include_tokens=True
    )
    started = time.monotonic()
    try:
        response = stub.SuggestMoves(request, timeout=0.1)
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED, error.details()
    else:
        report = suggest_converters.suggest_report_from_proto(response).to_json()
        assert report["suggestions"]
        if not report["not_evaluated"]:  # every candidate evaluated within the 0.1 s
            assert report["candidates"] == report["solved"] + report["reused"] + report["pruned"]
        ranked = {(s["hex"], s["tile"], s["rotation"], s["city"]) for s in report["suggestions"]}
        rest = {(m["hex"], m["tile"], m["rotation"], m["city"]) for m in report["not_evaluated"]}
        assert not ranked & rest
        assert len(report["suggestions"]) <= 5
    assert time.monotonic() - started < 2.0
    assert health_status(channel) == SERVING
    full = stub.SuggestMoves(
        suggest_converters.suggest_request_to_proto(_state("129026-251"), top=3), timeout=60
    )
    assert len(full.suggestions) == 3 and not full.not_evaluated


MOVE = {"kind": "tile", "hex": "E5", "tile": "14", "rotation": 2, "city": None, "private": None,
        "lays": [{"hex": "E5", "tile": "14", "rotation": 2, "cost": 0}], "cost": 0}


class StandIn:
    """A suggest function that records its arguments and ranks ``ranked`` of ``moves`` moves."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.moves = 3
        self.ranked = 1

    def __call__(self, state: Any, **kw: Any) -> SuggestReport:
        self.calls.append(kw)
        lay = MOVE["lays"][0]
        moves = [
            MoveReport("tile", MOVE["hex"], MOVE["tile"], r, None, None,
                       (MoveLayReport(lay["hex"], lay["tile"], lay["rotation"], lay["cost"]),),
                       MOVE["cost"])
            for r in range(self.moves)
        ]
        return SuggestReport(
            corporation=state["corporation"], objective=kw["objective"],
            subtract_cost=kw["subtract_cost"], base_income=100,
            base_proven_optimal=True,
            suggestions=tuple(
                Suggestion.of(m, income=110, gain=10, score=110, proven_optimal=True, routes=())
                for m in moves[: self.ranked]
            ),
            candidates=self.moves, solved=min(self.ranked, self.moves), reused=0, pruned=0,
            not_evaluated=tuple(moves[self.ranked:]), elapsed_ms=1.0,
        )


@pytest.fixture()
def stand_in() -> StandIn:
    return StandIn()


@pytest.fixture()
def stand_in_stub(stand_in: StandIn) -> Iterator[pb_grpc.RouteServiceStub]:
    config = ServerConfig(port=0, workers=1, suggest_workers=2,
                          limits=Limits(max_time_limit_s=60, max_call_s=100))
    with started_server(config, suggest_fn=stand_in) as srv, \
            grpc.insecure_channel(srv.target) as ch:
        yield pb_grpc.RouteServiceStub(ch)


def test_deadline_caps_the_ranking_time(stand_in_stub: Any, stand_in: StandIn) -> None:
    stand_in_stub.SuggestMoves(_request(time_limit_s=30), timeout=1.0)
    stand_in_stub.SuggestMoves(_request(), timeout=None)
    stand_in_stub.SuggestMoves(_request(time_limit_s=90))
    first, no_deadline, too_long = (c["time_limit_s"] for c in stand_in.calls)
    # What is left (about 1 s) less the margin, less the share kept for the report.
    assert 0.8 < first <= 0.9
    assert no_deadline == Limits().default_suggest_time_limit_s == 30.0
    assert too_long == 60  # capped by max_time_limit_s, within the call maximum (100 s)
    assert all(c["workers"] == 2 for c in stand_in.calls)


def test_the_server_maximum_bounds_a_call_without_deadline(stand_in: StandIn) -> None:
    """A call without a client deadline gets the server's maximum per call (issue 9)."""
    config = ServerConfig(port=0, workers=1, limits=Limits(max_call_s=2.0))
    with started_server(config, suggest_fn=stand_in) as srv, \
            grpc.insecure_channel(srv.target) as ch:
        pb_grpc.RouteServiceStub(ch).SuggestMoves(_request(time_limit_s=30), timeout=None)
    (limit,) = (c["time_limit_s"] for c in stand_in.calls)
    # 2 s less the 0.05 s margin, less the 10 % kept for the report.
    assert 1.6 < limit <= (2.0 - 0.05) * 0.9
    assert all(c["workers"] == 2 for c in stand_in.calls)


def test_partial_ranking_lists_what_was_not_evaluated(stand_in_stub: Any) -> None:
    response = stand_in_stub.SuggestMoves(_request(top=3), timeout=5)
    assert [s.rotation for s in response.suggestions] == [0]
    assert [m.rotation for m in response.not_evaluated] == [1, 2]
    assert response.not_evaluated[0].kind == pb.MOVE_KIND_TILE
    assert not response.not_evaluated[0].HasField("city")


def test_nothing_ranked_is_deadline_exceeded(stand_in_stub: Any, stand_in: StandIn) -> None:
    stand_in.ranked = 0
    with pytest.raises(grpc.RpcError) as info:
        stand_in_stub.SuggestMoves(_request(), timeout=5)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "3 of 3 not evaluated" in info.value.details()


def test_no_legal_move_is_an_empty_answer(stand_in_stub: Any, stand_in: StandIn) -> None:
    """No candidates at all is an answer (nothing to rank), not a deadline."""
    stand_in.moves = 0
    response = stand_in_stub.SuggestMoves(_request(), timeout=5)
    assert response.candidates == 0 and not response.suggestions and not response.not_evaluated


# -- command line ------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "name,flags",
    [("129026-399", ["--top", "5", "--tokens"]), ("129026-251", ["--subtract-cost", "--top", "4"])],
)
def test_call_suggest_json_equals_suggest_json(server: Any, name: str, flags: list[str]) -> None:
    state = str(STATES_DIR / f"{name}.json")
    local = _cli("suggest", state, "--json", *flags)
    remote = _cli("call", "suggest", state, "--json", *flags, "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    local_json, remote_json = json.loads(local.stdout), json.loads(remote.stdout)
    assert list(local_json) == list(remote_json)
    assert _stable(local_json) == _stable(remote_json)
    _counts_add_up(remote_json)
    # Same text too, once the volatile figures are masked.
    mask = lambda s: [l for l in s.splitlines() if not any(f'"{k}"' in l for k in VOLATILE)]  # noqa: E731
    assert mask(local.stdout) == mask(remote.stdout)


def test_call_suggest_readable_and_errors(server: Any, tmp_path: Any) -> None:
    state = str(STATES_DIR / "129026-399.json")
    local = _cli("suggest", state, "--top", "3")
    remote = _cli("call", "suggest", state, "--top", "3", "--target", server.target)
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout.splitlines()[1:] == local.stdout.splitlines()[1:]
    assert remote.stdout.startswith("LYR: income without a move 270; 88 legal moves")
    bad = _cli("call", "suggest", state, "--top", "0", "--target", server.target)
    assert bad.returncode == 1
    assert bad.stderr.startswith("INVALID_ARGUMENT: top: must be a whole number >= 1")
