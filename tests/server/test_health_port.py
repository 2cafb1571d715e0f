"""The health port (issue 20): health alone, outside the call cap, with the service's readiness."""

from __future__ import annotations

import socket
import time
from typing import Any, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server
from route18xx.server.core.calls import SERVICE_NAME
from route18xx.server.rpc import call_cap
from route18xx.server.convert import converters
from route18xx.server.core.runner import Limits
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.route_server import started_server
from tests.server.conftest import NOT_SERVING, SERVING, health_status
from tests.server.stalled import HEALTH_CHECK, OWN_CONNECTION, stalled_calls, wait_until
from tests.server.test_deadlines import SlowSolver


@pytest.fixture()
def slow() -> SlowSolver:
    return SlowSolver()


@pytest.fixture()
def watched(slow: SlowSolver) -> Iterator[RouteServer]:
    """One solve at a time, no queue beyond a few, a lane stalled after 0.5 s without progress."""
    config = ServerConfig(port=0, workers=1, health_port=0, max_concurrent_rpcs=4,
                          stall_after_s=0.5)
    with started_server(config, stop_wait_s=5, solve_fn=slow) as srv:
        yield srv


def _health_channel(server: RouteServer) -> grpc.Channel:
    return grpc.insecure_channel(f"127.0.0.1:{server.health_port}")


def _wait_for(channel: grpc.Channel, status: int, within_s: float) -> None:
    wait_until(lambda: health_status(channel) == status, within_s,
               f"health did not turn {status} within {within_s} s")


def test_the_health_port_answers_health_and_nothing_else(
    watched: RouteServer, base_state: dict[str, Any]
) -> None:
    assert watched.health_port not in (None, 0, watched.port)
    with _health_channel(watched) as channel:
        assert health_status(channel) == SERVING
        assert health_status(channel, SERVICE_NAME) == SERVING
        with pytest.raises(grpc.RpcError) as info:
            pb_grpc.RouteServiceStub(channel).SolveRoutes(
                converters.solve_request_to_proto(base_state), timeout=5
            )
        assert info.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_the_health_port_follows_the_watchdog(
    watched: RouteServer, slow: SlowSolver, base_state: dict[str, Any]
) -> None:
    """Readiness is the service's: NOT_SERVING while its lane is stalled, SERVING after."""
    request = converters.solve_request_to_proto(base_state, time_limit_s=20, allow_partial=True)
    with grpc.insecure_channel(watched.target) as service, _health_channel(watched) as channel:
        running = pb_grpc.RouteServiceStub(service).SolveRoutes.future(request, timeout=30)
        _wait_for(channel, NOT_SERVING, within_s=10)
        running.cancel()  # the solve stops: the lane makes progress again
        _wait_for(channel, SERVING, within_s=10)


def test_health_answers_on_both_ports_when_the_call_cap_is_full(
    watched: RouteServer, base_state: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stalled calls from 2 connections fill the service's cap (4 here): health still answers.

    Health checks are outside the cap on the service port (``server.call_cap``)
    and on the health port; the next service call takes a stalled call's place
    (no share makes room here: ``EVICTABLE_AFTER_S`` is far off).
    """
    monkeypatch.setattr(call_cap, "EVICTABLE_AFTER_S", 600.0)
    with stalled_calls(watched.target, 4, connections=2), \
            grpc.insecure_channel(watched.target, options=OWN_CONNECTION) as service, \
            _health_channel(watched) as channel:
        wait_until(lambda: watched.call_cap.service.active >= 4,
                   what="the stalled calls were not all counted")
        request = converters.solve_request_to_proto(base_state, time_limit_s=0.2,
                                                    allow_partial=True)
        assert pb_grpc.RouteServiceStub(service).SolveRoutes(request, timeout=10).routes
        assert watched.call_cap.service.evictions == 1
        for _ in range(10):  # more health checks than the cap holds
            assert health_status(service) == SERVING
            assert health_status(service, SERVICE_NAME) == SERVING
            assert health_status(channel) == SERVING
    wait_until(lambda: watched.call_cap.service.active == 0,
               what="the ended calls did not release their places")


def test_a_health_port_in_use_is_an_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError, match="health"):
            create_server(ServerConfig(port=0, health_port=port))


def test_health_goes_not_serving_on_the_health_port_when_stopping(slow: SlowSolver) -> None:
    srv = create_server(ServerConfig(port=0, workers=1, health_port=0), solve_fn=slow)
    srv.start()
    with _health_channel(srv) as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        assert next(watch).status == SERVING
        done = srv.stop(grace_s=1)
        assert next(watch).status == NOT_SERVING
        watch.cancel()
        assert done.wait(5)


def test_serve_refuses_fewer_than_one_stream_per_connection(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from route18xx.server.cli import main

    assert main(["serve", "--port", "0", "--max-streams-per-connection", "0"]) == 2
    assert "--max-streams-per-connection: 0 is out of range" in capsys.readouterr().err


def test_the_health_port_has_a_cap_and_ends_stalled_checks(
    slow: SlowSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checks that send nothing fill the health port's cap (4 here): a probe takes the
    longest stalled one's place at once, the others end after the receive timeout (2 s)
    (issue 20, 34; no share makes room here: ``EVICTABLE_AFTER_S`` is far off)."""
    monkeypatch.setattr(call_cap, "HEALTH_LIMIT", 4)
    monkeypatch.setattr(call_cap, "EVICTABLE_AFTER_S", 600.0)
    receive_s = 2.0
    config = ServerConfig(port=0, workers=1, health_port=0,
                          limits=Limits(receive_timeout_s=receive_s))
    with started_server(config, stop_wait_s=5, solve_fn=slow) as srv:
        started = time.monotonic()
        with stalled_calls(f"127.0.0.1:{srv.health_port}", 4, method=HEALTH_CHECK) as stalled:
            health_cap = srv.health_cap
            assert health_cap is not None
            wait_until(lambda: health_cap.health.active >= 4, within_s=5,
                       what="the stalled checks were not all counted")
            with _health_channel(srv) as channel:
                assert health_status(channel) == SERVING  # a stalled one made room
            codes = []
            for call in stalled:  # the others end at the receive timeout, without a client's help
                codes.append(call.exception(timeout=receive_s + 3).code())
            assert time.monotonic() - started < receive_s + 1.0
            assert sorted(c.name for c in codes) == [
                "INVALID_ARGUMENT", "INVALID_ARGUMENT", "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"]
