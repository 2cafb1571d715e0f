"""Malformed requests get INVALID_ARGUMENT naming the field; the server keeps serving."""

from __future__ import annotations

import copy
from typing import Any, Callable

import grpc
import pytest

from route18xx.v1 import route_service_pb2 as pb
from route18xx.server.convert import converters
from tests.server.conftest import (
    BASE_STATE_NAME, SERVING, assert_invalid, health_status, real_state,
)

Mutation = Callable[[dict[str, Any]], None]


def _set(key: str, value: Any) -> Mutation:
    def mutate(state: dict[str, Any]) -> None:
        state[key] = value

    return mutate


def _tile(hex_id: str, tile: str, rotation: int = 0) -> Mutation:
    def mutate(state: dict[str, Any]) -> None:
        state["tiles"].append({"hex": hex_id, "tile": tile, "rotation": rotation})

    return mutate


def _token(hex_id: str, city: int, corp: str) -> Mutation:
    def mutate(state: dict[str, Any]) -> None:
        state["tokens"].append({"hex": hex_id, "city": city, "corporation": corp})

    return mutate


def _first_tile(key: str, value: Any) -> Mutation:
    def mutate(state: dict[str, Any]) -> None:
        state["tiles"][0][key] = value

    return mutate


# (id, mutation of the base state, expected field, words expected in the reason)
STATE_CASES: list[tuple[str, Mutation, str, str]] = [
    ("unknown_title", _set("title", "1867"), "title", "unknown title"),
    ("unknown_rule_set", _set("rule_set", "south"), "rule_set", "unknown rule set"),
    ("unknown_phase", _set("phase", "9"), "phase", "unknown phase"),
    ("unknown_company", _set("corporation", "XYZ"), "corporation", "unknown company"),
    ("unknown_train", _set("trains", ["2", "9"]), "trains[1]", "unknown train"),
    ("no_trains", _set("trains", []), "trains", "the company has no trains"),
    ("unknown_hex", _first_tile("hex", "Z99"), "tiles[0].hex", "unknown hex"),
    ("unknown_tile", _first_tile("tile", "999"), "tiles[0].tile", "unknown tile"),
    ("rotation_7", _first_tile("rotation", 7), "tiles[0].rotation", "outside 0-5"),
    ("two_tiles_one_hex", _tile("F14", "9", 1), "tiles[8].hex", "listed twice"),
    ("tile_on_red_hex", _tile("A1", "57"), "tiles[8]", "cannot stand on A1"),
    ("city_tile_on_plain_hex", _tile("E9", "57"), "tiles[8]", "cannot stand on E9"),
    ("token_unknown_city", _token("H14", 3, "ZDR"), "tokens[5].city", "has no city 3"),
    ("token_full_city", _token("G11", 0, "LYR"), "tokens[5].city", "is full"),
    ("token_unknown_company", _token("H14", 0, "XYZ"), "tokens[5].corporation", "unknown company"),
    ("token_unknown_hex", _token("Z99", 0, "LYR"), "tokens[5].hex", "unknown hex"),
]


@pytest.mark.parametrize(
    "mutate,field,reason", [c[1:] for c in STATE_CASES], ids=[c[0] for c in STATE_CASES]
)
def test_malformed_state_is_invalid_argument(
    stub: Any, channel: grpc.Channel, base_state: dict[str, Any], mutate: Mutation,
    field: str, reason: str,
) -> None:
    mutate(base_state)
    solve = pb.SolveRoutesRequest(state=converters.state_to_proto(base_state))
    assert_invalid(lambda: stub.SolveRoutes(solve, timeout=10), channel, field, reason)
    validate = pb.ValidateRoutesRequest(state=converters.state_to_proto(base_state))
    assert_invalid(lambda: stub.ValidateRoutes(validate, timeout=10), channel, field, reason)


def test_empty_requests(stub: Any, channel: grpc.Channel) -> None:
    assert_invalid(lambda: stub.SolveRoutes(pb.SolveRoutesRequest(), timeout=10),
                    channel, "state", "is missing")
    assert_invalid(lambda: stub.ValidateRoutes(pb.ValidateRoutesRequest(), timeout=10),
                    channel, "state", "is missing")


def test_negative_time_limit(stub: Any, channel: grpc.Channel, base_state: dict[str, Any]) -> None:
    request = converters.solve_request_to_proto(base_state)
    request.time_limit_s = -1
    assert_invalid(lambda: stub.SolveRoutes(request, timeout=10), channel, "time_limit_s", "-1")


def _recorded() -> list[dict[str, Any]]:
    return copy.deepcopy(real_state(BASE_STATE_NAME)["reference"]["recorded_routes"])


ROUTE_CASES: list[tuple[str, str, Any, str, str]] = [
    ("node_too_long", "nodes", ["F16-0", "H" * 65], "routes[0].nodes[1]", "a node id"),
    ("connection_unknown_hex", "connections", [["F16", "Q1", "H14"]],
     "routes[0].connections[0].hexes[1]", "unknown hex"),
    ("no_connections", "connections", [], "routes[0].connections", "non-empty"),
    ("no_train", "train", "", "routes[0].train", "is missing"),
]


@pytest.mark.parametrize(
    "key,value,field,reason", [c[1:] for c in ROUTE_CASES], ids=[c[0] for c in ROUTE_CASES]
)
def test_malformed_routes_are_invalid_argument(
    stub: Any, channel: grpc.Channel, base_state: dict[str, Any], key: str, value: Any,
    field: str, reason: str,
) -> None:
    routes = _recorded()
    routes[0][key] = value
    request = converters.validate_request_to_proto(base_state, routes)
    assert_invalid(lambda: stub.ValidateRoutes(request, timeout=10), channel, field, reason)


@pytest.mark.parametrize(
    "nodes", [["Z99-0", "H14-7"], ["F16", "?"], ["F16-F16-0", "H14-57-0"], []],
    ids=["stale", "unreadable", "tile-name-form", "none"],
)
def test_any_node_hint_is_answered_like_the_recorded_one(
    stub: Any, base_state: dict[str, Any], nodes: list[str]
) -> None:
    """Issue 19: nodes are a hint (HISTORY.md §1.1); a stale one is never INVALID_ARGUMENT."""
    routes = _recorded()
    expected = stub.ValidateRoutes(converters.validate_request_to_proto(base_state, routes), timeout=10)
    routes[0]["nodes"] = nodes
    answer = stub.ValidateRoutes(converters.validate_request_to_proto(base_state, routes), timeout=10)
    assert answer.legal and expected.legal
    assert (answer.revenue, answer.subsidy) == (expected.revenue, expected.subsidy)


def test_oversized_message_is_refused_and_the_server_keeps_serving(
    stub: Any, channel: grpc.Channel, base_state: dict[str, Any]
) -> None:
    """gRPC refuses a message over the 4 MiB receive limit with RESOURCE_EXHAUSTED."""
    request = converters.solve_request_to_proto(base_state)
    request.state.trains.extend(["2" * 1024] * 5000)  # ~5 MiB
    assert request.ByteSize() > 4 * 1024 * 1024
    with pytest.raises(grpc.RpcError) as info:
        stub.SolveRoutes(request, timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert health_status(channel) == SERVING
    ok = stub.SolveRoutes(converters.solve_request_to_proto(base_state), timeout=10)
    assert ok.proven_optimal


def test_cli_call_prints_the_status_code(server: Any, tmp_path: Any, base_state: dict[str, Any],
                                         capsys: Any) -> None:
    import json

    from route18xx.server.cli import main

    base_state["phase"] = "9"
    path = tmp_path / "state.json"
    path.write_text(json.dumps(base_state))
    status = main(["call", "solve", str(path), "--target", server.target])
    err = capsys.readouterr().err
    assert status != 0
    assert err.startswith("INVALID_ARGUMENT: phase: unknown phase '9'")
