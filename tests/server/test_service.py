"""SolveRoutes and ValidateRoutes on a real server agree with the in-process engine."""

from __future__ import annotations

import copy
from typing import Any

import grpc
import pytest
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from route18xx.engine.api import check_routes, solve_routes
from route18xx.v1 import route_service_pb2 as pb
from route18xx.server.rpc.app import SERVICE_NAME
from route18xx.server.commands.client import RouteClient
from tests.conftest import load_json, state_files
from tests.server.conftest import SERVING, health_status

#: Every 11th real decision: 12 states from early to late game.
SAMPLE = [p.stem for p in state_files()][::11]
ROUTE_KEYS = ("train", "revenue", "subsidy", "hexes", "nodes", "connections", "revenue_str")


def _state(name: str) -> dict[str, Any]:
    return load_json(next(p for p in state_files() if p.stem == name))


def test_health_is_serving(channel: grpc.Channel) -> None:
    assert health_status(channel) == SERVING
    assert health_status(channel, SERVICE_NAME) == SERVING


def test_reflection_lists_the_route_service(channel: grpc.Channel) -> None:
    db = ProtoReflectionDescriptorDatabase(channel)
    services = db.get_services()
    assert SERVICE_NAME == "route18xx.v1.RouteService"
    assert SERVICE_NAME in services
    assert "grpc.health.v1.Health" in services
    file = db.FindFileContainingSymbol(SERVICE_NAME)
    assert [m.name for m in file.service[0].method] == [
        "SolveRoutes", "ValidateRoutes", "SuggestMoves", "RenderBoard", "ReplayGame", "GetInfo",
        "SuggestTurn", "FetchGameLog",
    ]


def test_sample_spans_enough_states() -> None:
    assert len(SAMPLE) >= 10


@pytest.mark.parametrize("objective", ["total", "revenue"])
@pytest.mark.parametrize("name", SAMPLE)
def test_solve_matches_engine_and_reference(client: RouteClient, name: str, objective: str) -> None:
    data = _state(name)
    remote = client.solve(data["state"], objective=objective, timeout_s=30)
    local = solve_routes(data["state"], objective=objective, time_limit_s=10.0)
    assert remote["proven_optimal"] and remote["status"] == "OPTIMAL"
    assert (remote["revenue"], remote["subsidy"]) == (local["revenue"], local["subsidy"])
    assert [{k: r[k] for k in ROUTE_KEYS} for r in remote["routes"]] == [
        {k: r[k] for k in ROUTE_KEYS} for r in local["routes"]
    ]
    ref = data["reference"]
    if objective == "total":
        assert remote["revenue"] + remote["subsidy"] == ref["optimal_total"]
    else:
        assert remote["revenue"] == ref["optimal_revenue"]
    assert remote["corporation"] == data["state"]["corporation"]
    assert remote["objective"] == objective


def test_solve_routes_validate_on_the_server(client: RouteClient) -> None:
    """The solver's routes in run_routes form go straight back into ValidateRoutes."""
    data = _state(SAMPLE[-1])
    solved = client.solve(data["state"])
    checked = client.validate(data["state"], solved["routes"])
    assert checked["legal"], checked["violations"]
    assert (checked["revenue"], checked["subsidy"]) == (solved["revenue"], solved["subsidy"])


@pytest.mark.parametrize("name", SAMPLE)
def test_validate_accepts_recorded_routes(client: RouteClient, name: str) -> None:
    data = _state(name)
    ref = data["reference"]
    remote = client.validate(data["state"], ref["recorded_routes"])
    assert remote == check_routes(data["state"], ref["recorded_routes"])
    assert remote["legal"], remote["violations"]
    assert remote["revenue"] == ref["recorded_revenue"]
    assert remote["subsidy"] == ref["recorded_subsidy"]
    assert [r["revenue"] for r in remote["routes"]] == [r["revenue"] for r in ref["recorded_routes"]]


def _broken(routes: list[dict[str, Any]], how: str) -> list[dict[str, Any]]:
    routes = copy.deepcopy(routes)
    if how == "train_twice":
        # one route per train owned: more routes than trains is malformed (issue 9)
        routes[1]["train"] = routes[0]["train"]
    elif how == "no_such_train":
        routes[0]["train"] = "6-0"
    elif how == "no_track":
        conn = routes[0]["connections"][0]
        routes[0]["connections"][0] = [conn[0], "E9"]
        routes[0].pop("nodes")  # the recorded stops no longer match its hexes (issue 9)
    return routes


@pytest.mark.parametrize("how", ["train_twice", "no_such_train", "no_track"])
def test_validate_rejects_broken_routes_with_engine_reasons(client: RouteClient, how: str) -> None:
    data = _state("129026-138")
    routes = _broken(data["reference"]["recorded_routes"], how)
    remote = client.validate(data["state"], routes)
    assert not remote["legal"]
    assert remote["violations"]
    assert remote == check_routes(data["state"], routes)


def test_protobuf_json_of_a_response_reads_like_run_routes(stub: Any) -> None:
    from google.protobuf import json_format

    from route18xx.server.convert import converters

    data = _state("129026-138")
    response = stub.SolveRoutes(converters.solve_request_to_proto(data["state"]), timeout=30)
    as_json = json_format.MessageToDict(
        response, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    assert as_json["status"] == "SOLVE_STATUS_OPTIMAL"
    route = as_json["routes"][0]
    assert set(route) == {"train", "connections", "hexes", "nodes", "revenue", "subsidy", "revenue_str",
                          "breakdown"}  # the breakdown: issue 14
    assert isinstance(route["revenue"], int)  # int32: a number, not an int64 string
    assert isinstance(response, pb.SolveRoutesResponse)


def test_one_log_line_per_call(client: RouteClient, caplog: pytest.LogCaptureFixture) -> None:
    data = _state("129026-138")
    with caplog.at_level("INFO", logger="route18xx.calls"):
        client.validate(data["state"], data["reference"]["recorded_routes"])
        with pytest.raises(grpc.RpcError):
            client.validate({**data["state"], "phase": "9"}, [])
    lines = [r.getMessage() for r in caplog.records if r.name == "route18xx.calls"]
    assert len(lines) == 2
    assert lines[0].startswith("grpc /route18xx.v1.RouteService/ValidateRoutes OK ")
    assert lines[1].startswith("grpc /route18xx.v1.RouteService/ValidateRoutes INVALID_ARGUMENT ")
    assert all(line.endswith(" ms") for line in lines)


def test_a_reflection_client_can_call_with_json(channel: grpc.Channel) -> None:
    """What grpcurl does: descriptors from reflection, a JSON request, a JSON answer."""
    import json

    from google.protobuf import json_format, message_factory
    from google.protobuf.descriptor_pool import DescriptorPool

    pool = DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
    method = pool.FindServiceByName(SERVICE_NAME).FindMethodByName("SolveRoutes")
    request_cls = message_factory.GetMessageClass(method.input_type)
    response_cls = message_factory.GetMessageClass(method.output_type)
    data = _state("129026-138")
    text = json.dumps({"state": data["state"], "objective": "OBJECTIVE_TOTAL"})
    call = channel.unary_unary(
        f"/{SERVICE_NAME}/SolveRoutes",
        request_serializer=request_cls.SerializeToString,
        response_deserializer=response_cls.FromString,
    )
    answer = json_format.MessageToDict(
        call(json_format.Parse(text, request_cls()), timeout=10), preserving_proto_field_name=True
    )
    assert answer["revenue"] == data["reference"]["optimal_total"]
    assert answer["proven_optimal"] is True
    assert sum(r["revenue"] for r in answer["routes"]) == answer["revenue"]
