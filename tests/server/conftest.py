"""A real RouteService on 127.0.0.1, port 0, started in-process for the server tests."""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.server.rpc.app import RouteServer, ServerConfig
from route18xx.server.commands.client import RouteClient
from route18xx.server.core.errors import field_violations
from tests.conftest import load_json, state_files
from tests.route_server import started_server

#: A small early state: LYR with two 2-trains (prototype rule set, phase 3).
BASE_STATE_NAME = "129026-138"


def real_state(name: str) -> dict[str, Any]:
    """The decoded state file ``name`` (with its ``reference``)."""
    path = next(p for p in state_files() if p.stem == name)
    return load_json(path)


@pytest.fixture()
def base_state() -> dict[str, Any]:
    """A fresh copy of a small valid state (without the reference)."""
    return copy.deepcopy(real_state(BASE_STATE_NAME)["state"])


@pytest.fixture(scope="session")
def server() -> Iterator[RouteServer]:
    with started_server(ServerConfig(host="127.0.0.1", port=0, workers=2)) as srv:
        yield srv


@pytest.fixture(scope="module")
def http_server() -> Iterator[RouteServer]:
    """A server of one engine worker with its HTTP front end (Connect, gRPC-Web), per module."""
    with started_server(ServerConfig(port=0, workers=1, http_port=0)) as srv:
        yield srv


@pytest.fixture(scope="session")
def channel(server: RouteServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.target) as ch:
        yield ch


@pytest.fixture(scope="session")
def stub(channel: grpc.Channel) -> pb_grpc.RouteServiceStub:
    return pb_grpc.RouteServiceStub(channel)


@pytest.fixture(scope="session")
def client(server: RouteServer) -> Iterator[RouteClient]:
    with RouteClient(server.target) as c:
        yield c


def health_status(channel: grpc.Channel, service: str = "") -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def assert_invalid(call: Callable[[], Any], channel: grpc.Channel, field: str, reason: str) -> None:
    """``call`` fails with INVALID_ARGUMENT naming ``field`` (also as a BadRequest
    detail) and ``reason``, with no traceback; the server keeps serving."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert field in error.details() and reason in error.details(), error.details()
    violations = field_violations(error)
    assert violations and violations[0][0] == field and reason in violations[0][1]
    assert "Traceback" not in error.details()
    assert health_status(channel) == SERVING
