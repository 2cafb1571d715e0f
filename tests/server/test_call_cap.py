"""The service port's call caps (issue 20, item 3; issue 34, item 1): a silent call holds
nothing a ready call needs.

At a group's cap, a new call takes the place of the call that has been silent
(waiting for its request message) longest, whatever its age, and that call is
told to retry; only calls that have sent their message keep their places, and
the new call is refused when they hold them all. A connection's or a client's
silent calls beyond their shares make room once silent ``EVICTABLE_AFTER_S``,
below the cap too. Health checks are a group of their own, each request read
with the receive timeout.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from typing import Any, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from route18xx.server.rpc import call_cap
from route18xx.server.convert import converters
from route18xx.server.rpc.app import RouteServer, ServerConfig
from route18xx.server.core.runner import Limits
from tests.route_server import started_server
from tests.server.conftest import SERVING, health_status
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.server.stalled import HEALTH_CHECK, OWN_CONNECTION, stalled_calls, wait_until
from tests.server.test_deadlines import SlowSolver


@pytest.fixture()
def capped(monkeypatch: pytest.MonkeyPatch) -> Iterator[RouteServer]:
    """A cap of 4 calls, solves by the real engine (in threads); one client may hold the
    whole cap with silent calls (every test client has the same address)."""
    monkeypatch.setattr(call_cap, "PEER_SHARE", 1.0)
    with started_server(ServerConfig(port=0, workers=2, max_concurrent_rpcs=4),
                        stop_wait_s=5) as srv:
        yield srv


@contextmanager
def _stalled(server: RouteServer, calls: int) -> Iterator[list[Any]]:
    """``calls`` stalled calls over 2 connections, once the cap counts them all."""
    with stalled_calls(server.target, calls, connections=2) as stalled:
        wait_until(lambda: len(server.call_cap.service.waiting) == calls)
        yield stalled


def _made_room(call: Any) -> None:
    error = call.exception()
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "made room for another" in error.details()


def test_a_new_call_takes_the_place_of_the_longest_silent_one_at_once(
    capped: RouteServer, base_state: dict[str, Any]
) -> None:
    """The cap full of silent calls a moment old: the new call is answered (it was refused
    until one had been silent 1 s), the longest silent call is told to retry."""
    with _stalled(capped, 4) as stalled:
        with grpc.insecure_channel(capped.target, options=OWN_CONNECTION) as other:
            answer = pb_grpc.RouteServiceStub(other).SolveRoutes(
                converters.solve_request_to_proto(base_state), timeout=30)
        assert answer.proven_optimal
        ended = [call for call in stalled if call.done()]
        assert len(ended) == 1 and capped.call_cap.service.evictions == 1
        _made_room(ended[0])
        assert capped.call_cap.service.active == 3  # the answered call's place is free again
    wait_until(lambda: capped.call_cap.service.active == 0)


def test_a_call_that_sent_its_message_never_makes_room(
    base_state: dict[str, Any], caplog: pytest.LogCaptureFixture,
) -> None:
    """4 calls running (slow stand-in solves, their messages in): the fifth is refused, and
    its refusal has its call-log line like any call."""
    config = ServerConfig(port=0, workers=4, max_concurrent_rpcs=4)
    caplog.set_level(logging.INFO, logger="route18xx.calls")
    request = converters.solve_request_to_proto(base_state, time_limit_s=20, allow_partial=True)
    with started_server(config, stop_wait_s=5, solve_fn=SlowSolver()) as srv, \
            grpc.insecure_channel(srv.target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        running = [stub.SolveRoutes.future(request, timeout=30) for _ in range(4)]
        wait_until(lambda: srv.call_cap.service.active == 4 and not srv.call_cap.service.waiting)
        time.sleep(call_cap.EVICTABLE_AFTER_S + 0.1)
        with pytest.raises(grpc.RpcError) as info:
            stub.SolveRoutes(request, timeout=30)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "4 service calls at once" in info.value.details()
        assert not any(call.done() for call in running)
        assert any("/route18xx.v1.RouteService/SolveRoutes RESOURCE_EXHAUSTED" in r.getMessage()
                   for r in caplog.records), [r.getMessage() for r in caplog.records]
        for call in running:
            call.cancel()


@pytest.mark.parametrize("share", ["connection", "peer"])
def test_silent_calls_beyond_a_share_make_room_below_the_cap(share: str) -> None:
    """6 silent calls, a share of 2 (a connection's: a quarter of its 8 streams; a
    client's: a quarter of the cap of 8): the 4 longest silent make room, the cap far off."""
    config = ServerConfig(port=0, workers=1, max_concurrent_rpcs=8 if share == "peer" else 256,
                          max_streams_per_connection=8 if share == "connection" else 128)
    with started_server(config, stop_wait_s=5) as srv, \
            stalled_calls(srv.target, 6, connections=1 if share == "connection" else 3) as stalled:
        wait_until(lambda: srv.call_cap.service.evictions == 4, within_s=10,
                   what=f"the silent calls beyond the {share}'s share kept their places")
        wait_until(lambda: sum(call.done() for call in stalled) == 4)
        for call in stalled:
            if call.done():
                _made_room(call)
        assert srv.call_cap.service.active == 2 and len(srv.call_cap.service.waiting) == 2


# -- health checks on the service port: a group of their own, each request timed -------------


@pytest.fixture()
def small_health(monkeypatch: pytest.MonkeyPatch) -> Iterator[RouteServer]:
    """Health checks capped at 3 on the service port, requests due within 1.5 s."""
    monkeypatch.setattr(call_cap, "HEALTH_LIMIT", 3)
    limits = Limits(receive_timeout_s=1.5)
    with started_server(ServerConfig(port=0, workers=1, limits=limits), stop_wait_s=5,
                        solve_fn=SlowSolver()) as srv:
        yield srv


def test_a_stalled_health_check_ends_after_the_receive_timeout(small_health: RouteServer) -> None:
    with stalled_calls(small_health.target, 1, method=HEALTH_CHECK) as (call,):
        started = time.monotonic()
        error = call.exception(timeout=10)
    assert error is not None and error.code() == grpc.StatusCode.INVALID_ARGUMENT, error
    assert "no request message arrived within 1.5 s" in error.details()
    assert time.monotonic() - started < 3


def test_stalled_health_checks_make_room_for_a_probe(
    small_health: RouteServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """3 stalled checks fill the health group: a probe takes the longest stalled one's place
    at once (no share makes room here: ``EVICTABLE_AFTER_S`` is far off)."""
    monkeypatch.setattr(call_cap, "EVICTABLE_AFTER_S", 600.0)
    with stalled_calls(small_health.target, 3, method=HEALTH_CHECK, connections=3):
        wait_until(lambda: len(small_health.call_cap.health.waiting) == 3)
        with grpc.insecure_channel(small_health.target, options=OWN_CONNECTION) as probe:
            assert health_status(probe) == SERVING
        assert small_health.call_cap.health.evictions == 1
        assert small_health.call_cap.service.active == 0  # health never counts there


def test_health_on_the_service_port_watches_and_refuses_garbage(small_health: RouteServer) -> None:
    with grpc.insecure_channel(small_health.target) as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        assert next(watch).status == SERVING
        watch.cancel()
        with pytest.raises(grpc.RpcError) as info:
            channel.unary_unary(HEALTH_CHECK)(b"\xff\xff\xff", timeout=5)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "HealthCheckRequest" in info.value.details()
        with pytest.raises(grpc.RpcError) as info:
            health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
        assert info.value.code() == grpc.StatusCode.NOT_FOUND
