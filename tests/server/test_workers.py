"""Solves in worker processes (issue 11): the same answers, errors and deadlines as in threads."""

from __future__ import annotations

import os
import signal
import time
from typing import Any, Iterator

import grpc
import pytest

from route18xx.engine.api import solve_routes
from route18xx.server import converters
from route18xx.server.app import RouteServer, ServerConfig, create_server
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import load_json, state_files
from tests.server.abuse import log_with_undos

SAMPLE = [load_json(p) for p in state_files()[::25]]


@pytest.fixture(scope="module")
def processes() -> Iterator[RouteServer]:
    srv = create_server(ServerConfig(port=0, workers=2, processes=True))
    srv.start()
    yield srv
    srv.stop(0).wait()


@pytest.fixture(scope="module")
def stub(processes: RouteServer) -> Iterator[pb_grpc.RouteServiceStub]:
    with grpc.insecure_channel(processes.target) as channel:
        yield pb_grpc.RouteServiceStub(channel)


def test_the_lane_runs_in_processes(processes: RouteServer) -> None:
    assert processes.lanes["solve"].in_processes
    assert not processes.lanes["suggest"].in_processes


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: str(c["reference"].get("action_id")))
def test_answers_equal_the_in_process_engine(stub: Any, case: dict[str, Any]) -> None:
    response = stub.SolveRoutes(converters.solve_request_to_proto(case["state"]), timeout=30)
    local = solve_routes(case["state"])
    assert (response.revenue, response.subsidy) == (local["revenue"], local["subsidy"])
    assert response.proven_optimal
    assert [r.hexes for r in response.routes] == [r["hexes"] for r in local["routes"]]


def test_errors_cross_the_process_boundary_whole(stub: Any) -> None:
    bad = converters.solve_request_to_proto({**SAMPLE[0]["state"], "phase": "9"})
    with pytest.raises(grpc.RpcError) as info:
        stub.SolveRoutes(bad, timeout=30)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith("phase: unknown phase '9'")


def test_the_deadline_bounds_a_job_in_a_worker(stub: Any) -> None:
    request = pb.SolveRoutesRequest(game_log=log_with_undos(16_000), action_id=728)
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        stub.SolveRoutes(request, timeout=0.05)
    assert info.value.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INVALID_ARGUMENT)
    assert time.monotonic() - started < 0.05 + 0.1


def test_a_dead_worker_is_replaced(processes: RouteServer, stub: Any) -> None:
    request = converters.solve_request_to_proto(SAMPLE[0]["state"])
    stub.SolveRoutes(request, timeout=30)
    pool = processes.lanes["solve"]._pool
    victim = next(iter(pool._processes))  # type: ignore[attr-defined]
    os.kill(victim, signal.SIGKILL)
    time.sleep(0.2)
    outcomes = []
    for _ in range(3):  # the first call may learn of the death; then the new pool answers
        try:
            outcomes.append(stub.SolveRoutes(request, timeout=30).proven_optimal)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error.details()
            outcomes.append(None)
    assert outcomes[-1] is True
