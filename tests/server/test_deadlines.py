"""Deadlines, partial answers, unexpected errors and graceful shutdown.

The real engine solves these boards in milliseconds, so the slow paths use a
stand-in solve function that searches until its time limit or a cancel.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from route18xx.engine.errors import IllegalAction
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.server.convert import converters
from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server
from route18xx.server.core.runner import Limits
from tests.route_server import started_server
from tests.server.conftest import NOT_SERVING, SERVING, health_status

PARTIAL_ROUTE = {
    "train": "2-0", "revenue": 40, "subsidy": 0, "hexes": ["H14", "H16"],
    "nodes": ["H14-0", "H16-0"], "connections": [["H14", "H16"]], "revenue_str": "H14-H16",
}


class SlowSolver:
    """Searches until the time limit or a cancel; then returns ``status``."""

    def __init__(self) -> None:
        self.limits: list[float] = []
        self.status = "FEASIBLE"
        self.raise_: Exception | None = None

    def __call__(self, state: Any, *, objective: str, time_limit_s: float, cancel: Any) -> dict[str, Any]:
        self.limits.append(time_limit_s)
        if self.raise_ is not None:
            raise self.raise_
        end = time.monotonic() + time_limit_s
        while time.monotonic() < end and not cancel.cancelled:
            time.sleep(0.005)
        found = self.status == "FEASIBLE"
        return {
            "corporation": state["corporation"], "objective": objective,
            "revenue": 40 if found else 0, "subsidy": 0, "proven_optimal": False,
            "status": self.status, "bound": 130, "solve_ms": time_limit_s * 1000,
            "routes": [PARTIAL_ROUTE] if found else [], "stats": {},
        }


@pytest.fixture()
def slow() -> SlowSolver:
    return SlowSolver()


@pytest.fixture()
def slow_server(slow: SlowSolver) -> Iterator[RouteServer]:
    config = ServerConfig(port=0, workers=2, limits=Limits(default_time_limit_s=0.3))
    with started_server(config, solve_fn=slow) as srv:
        yield srv


@pytest.fixture()
def slow_stub(slow_server: RouteServer) -> Iterator[Any]:
    with grpc.insecure_channel(slow_server.target) as ch:
        yield pb_grpc.RouteServiceStub(ch)


def _request(base_state: dict[str, Any], **kw: Any) -> pb.SolveRoutesRequest:
    return converters.solve_request_to_proto(base_state, **kw)


def test_short_deadline_on_the_real_engine(stub: Any, channel: grpc.Channel,
                                           base_state: dict[str, Any]) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.SolveRoutes(_request(base_state), timeout=0.001)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert health_status(channel) == SERVING
    assert stub.SolveRoutes(_request(base_state), timeout=10).proven_optimal


def test_tiny_time_limit_with_allow_partial_on_the_real_engine(
    stub: Any, base_state: dict[str, Any]
) -> None:
    request = _request(base_state, time_limit_s=1e-9, allow_partial=True)
    try:
        response = stub.SolveRoutes(request, timeout=10)
    except grpc.RpcError as error:  # nothing found in time
        assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        return
    assert response.proven_optimal == (response.status == pb.SOLVE_STATUS_OPTIMAL)


def test_deadline_becomes_the_time_limit(slow_stub: Any, slow: SlowSolver,
                                         base_state: dict[str, Any]) -> None:
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        slow_stub.SolveRoutes(_request(base_state, time_limit_s=30), timeout=0.4)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 1.0
    assert len(slow.limits) == 1 and 0.2 < slow.limits[0] < 0.4


def test_not_proven_in_time_is_deadline_exceeded(slow_stub: Any, base_state: dict[str, Any]) -> None:
    with pytest.raises(grpc.RpcError) as info:
        slow_stub.SolveRoutes(_request(base_state, time_limit_s=0.05), timeout=5)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "allow_partial" in info.value.details()


def test_allow_partial_returns_the_best_routes_not_proven(
    slow_stub: Any, base_state: dict[str, Any]
) -> None:
    response = slow_stub.SolveRoutes(
        _request(base_state, time_limit_s=0.05, allow_partial=True), timeout=5
    )
    assert not response.proven_optimal
    assert response.status == pb.SOLVE_STATUS_FEASIBLE
    assert response.revenue == 40 and response.bound == 130
    assert [r.train for r in response.routes] == ["2-0"]


def test_nothing_found_is_deadline_exceeded_even_when_partial_allowed(
    slow_stub: Any, slow: SlowSolver, base_state: dict[str, Any]
) -> None:
    slow.status = "UNKNOWN"
    with pytest.raises(grpc.RpcError) as info:
        slow_stub.SolveRoutes(_request(base_state, time_limit_s=0.05, allow_partial=True), timeout=5)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_unexpected_error_is_internal_without_details(
    slow_stub: Any, slow: SlowSolver, base_state: dict[str, Any]
) -> None:
    slow.raise_ = KeyError("/secret/path.py line 12")
    with pytest.raises(grpc.RpcError) as info:
        slow_stub.SolveRoutes(_request(base_state), timeout=5)
    assert info.value.code() == grpc.StatusCode.INTERNAL
    assert "secret" not in info.value.details() and "Traceback" not in info.value.details()


def test_illegal_action_is_failed_precondition(
    slow_stub: Any, slow: SlowSolver, base_state: dict[str, Any]
) -> None:
    slow.raise_ = IllegalAction("NO_ROUTE", "the company cannot run a route")
    with pytest.raises(grpc.RpcError) as info:
        slow_stub.SolveRoutes(_request(base_state), timeout=5)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details() == "the company cannot run a route"


def test_client_cancel_stops_the_search(slow_stub: Any, slow: SlowSolver,
                                        base_state: dict[str, Any]) -> None:
    future = slow_stub.SolveRoutes.future(_request(base_state, time_limit_s=30), timeout=30)
    time.sleep(0.2)
    started = time.monotonic()
    future.cancel()
    # The worker is freed: a second call with a short limit is served at once.
    response = slow_stub.SolveRoutes(
        _request(base_state, time_limit_s=0.05, allow_partial=True), timeout=5
    )
    assert response.status == pb.SOLVE_STATUS_FEASIBLE
    assert time.monotonic() - started < 2.0


def test_graceful_shutdown(slow: SlowSolver, base_state: dict[str, Any]) -> None:
    srv = create_server(ServerConfig(port=0, workers=1), solve_fn=slow)
    srv.start()
    with grpc.insecure_channel(srv.target) as ch:
        assert health_status(ch) == SERVING
        watch = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(service=""))
        assert next(watch).status == SERVING
        stub = pb_grpc.RouteServiceStub(ch)
        in_flight = stub.SolveRoutes.future(
            _request(base_state, time_limit_s=0.3, allow_partial=True), timeout=5
        )
        time.sleep(0.1)
        done = srv.stop(grace_s=3)
        assert next(watch).status == NOT_SERVING
        watch.cancel()
        assert in_flight.result().revenue == 40  # the call in flight finished
        assert done.wait(5)
        with pytest.raises(grpc.RpcError):
            stub.SolveRoutes(_request(base_state), timeout=2)
