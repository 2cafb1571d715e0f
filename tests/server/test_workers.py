"""Solves in worker processes (issue 11): the same answers, errors and deadlines as in threads."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import grpc
import pytest

from google.protobuf import json_format

from route18xx.engine.api import MalformedInput, OutOfTime, solve_routes
from route18xx.server.core import calls
from route18xx.server.convert import converters
from route18xx.server.core.frames import (
    ANSWER, CANCEL, ERROR, JOB, READY, SOLVES, read_frame, write_frame,
)
from route18xx.server.core.runner import Limits
from route18xx.server.core.workers import worker_main
from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import load_json, state_files
from tests.route_server import started_server
from tests.server.abuse import log_with_undos

SAMPLE = [load_json(p) for p in state_files()[::25]]


@pytest.fixture(scope="module")
def processes() -> Iterator[RouteServer]:
    with started_server(ServerConfig(port=0, workers=2, processes=True)) as srv:
        yield srv


@pytest.fixture(scope="module")
def stub(processes: RouteServer) -> Iterator[pb_grpc.RouteServiceStub]:
    with grpc.insecure_channel(processes.target) as channel:
        yield pb_grpc.RouteServiceStub(channel)


def test_the_lane_runs_in_processes(processes: RouteServer) -> None:
    assert processes.lanes["solve"].in_processes
    assert not processes.lanes["suggest"].in_processes


def test_a_call_made_while_the_workers_boot_is_answered_at_once() -> None:
    """Issue 35: a server answers its first calls on the lane's threads while its worker
    processes start (their forkserver alone takes ~0.3 s to load the engine and OR-Tools),
    the same answers; from the first READY on, calls go to the workers."""
    srv = create_server(ServerConfig(port=0, workers=1, processes=True, decode_workers=0))
    srv.start()
    try:
        lane = srv.lanes["solve"]
        assert lane.booting  # nothing has said READY this soon
        case = SAMPLE[0]
        with grpc.insecure_channel(srv.target) as channel:
            stub = pb_grpc.RouteServiceStub(channel)
            early = stub.SolveRoutes(converters.solve_request_to_proto(case["state"]), timeout=30)
            assert srv.wait_booted(120) and not lane.booting
            late = stub.SolveRoutes(converters.solve_request_to_proto(case["state"]), timeout=30)
        local = solve_routes(case["state"])
        assert (early.revenue, early.subsidy) == (local["revenue"], local["subsidy"])
        assert early.routes == late.routes
    finally:
        srv.stop(0).wait(30)


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
    pool = processes.lanes["solve"].processes
    assert pool is not None
    victim = pool.pids()[0]
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



def _slow_job(runner: Any, request: Any, cancel: Any) -> Any:
    """Works until its token is cancelled (a stand-in for a long search)."""
    while not cancel.cancelled:
        time.sleep(0.005)
    raise OutOfTime("the slow job", expired=cancel.expired)


def test_a_cancel_frame_stops_the_running_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's reader thread cancels the running job's token: it answers at once."""
    monkeypatch.setitem(calls.METHODS_BY_NAME, "Slow", calls.Method(
        "Slow", pb.SolveRoutesRequest, pb.SolveRoutesResponse, "solve", _slow_job))
    ours, theirs = socket.socketpair()
    worker = threading.Thread(target=worker_main, args=(theirs, Limits(), 1), daemon=True)
    worker.start()
    assert read_frame(ours) == (READY, 0, b"")
    body = pickle.dumps(("Slow", b"", time.monotonic() + 30))
    write_frame(ours, JOB, 7, body)
    time.sleep(0.2)
    started = time.monotonic()
    write_frame(ours, CANCEL, 7, b"")
    answer = read_frame(ours)
    assert time.monotonic() - started < 1.0
    assert answer is not None and answer[:2] == (ERROR, 7)
    error = pickle.loads(answer[2])
    assert isinstance(error, OutOfTime) and not error.expired
    write_frame(ours, JOB, 8, pickle.dumps(("SolveRoutes", converters.solve_request_to_proto(
        SAMPLE[0]["state"]).SerializeToString(), time.monotonic() + 30)))
    solves = read_frame(ours)  # the job's one solve, before its answer (server.frames)
    assert solves is not None and solves[:2] == (SOLVES, 8)
    assert [status for status, _ in json.loads(solves[2])] == ["OPTIMAL"]
    answer = read_frame(ours)
    assert answer is not None and answer[:2] == (ANSWER, 8)  # the next job runs normally
    ours.close()
    worker.join(5)
    assert not worker.is_alive()  # end of file: the worker stops


@pytest.fixture(scope="module")
def one_worker() -> Iterator[RouteServer]:
    with started_server(ServerConfig(port=0, workers=1, queue=4, processes=True)) as srv:
        yield srv


def _slow_and_cheap() -> tuple[Any, Any]:
    """A request that keeps the one worker busy for a while (the D + D board whose pair
    listing is the longest of tests/data/boards, with eight train sets), and a cheap one."""
    hard = load_json(Path(__file__).resolve().parents[1] / "data" / "boards" / "big-16104-HJR-DD.json")
    sets = [["D", "D"], ["5", "D"], ["6", "D"], ["6", "6"], ["5", "6"], ["5", "5"], ["D"], ["6"]]
    return (converters.solve_request_to_proto(hard["state"], train_sets=sets),
            converters.solve_request_to_proto(SAMPLE[0]["state"]))


def _slow_job_time(stub: Any, slow: Any, cheap: Any) -> float:
    """Seconds the slow request takes the one worker as it runs again: once to start the
    worker and fill its caches (a repeat reuses them: the first run is 3-4x longer), then
    timed. The tests' pauses and deadlines are fractions of it, so a faster solver or
    machine shortens them rather than breaking them."""
    stub.SolveRoutes(cheap, timeout=30)  # the worker is up
    stub.SolveRoutes(slow, timeout=60)
    started = time.monotonic()
    stub.SolveRoutes(slow, timeout=60)
    whole = time.monotonic() - started
    assert whole > 0.2, f"the slow request took {whole:.3f} s: too short to time a cancel"
    return whole


def test_a_client_cancel_stops_the_job_running_in_its_worker(one_worker: RouteServer) -> None:
    """The one worker is freed as soon as the client cancels, not when the job would end."""
    slow, cheap = _slow_and_cheap()
    with grpc.insecure_channel(one_worker.target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        whole = _slow_job_time(stub, slow, cheap)  # the slow job left alone
        pause = whole / 5
        call = stub.SolveRoutes.future(slow, timeout=60)
        time.sleep(pause)
        call.cancel()
        started = time.monotonic()
        assert stub.SolveRoutes(cheap, timeout=30).proven_optimal
        assert time.monotonic() - started < (whole - pause) / 2


def test_a_call_waiting_for_a_busy_worker_ends_at_its_deadline(one_worker: RouteServer) -> None:
    """A call queued behind the one worker's long job answers DEADLINE_EXCEEDED at its own
    deadline, not when a worker comes free (nor, at start, when the workers have booted)."""
    slow, cheap = _slow_and_cheap()
    with grpc.insecure_channel(one_worker.target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        whole = _slow_job_time(stub, slow, cheap)  # the slow job alone
        pause, deadline = whole / 5, whole / 4  # the wait ends well before the job would
        busy = stub.SolveRoutes.future(slow, timeout=60)
        time.sleep(pause)
        # the server's own side (a gRPC client ends its call at its deadline whatever the server does)
        core = one_worker.core
        _, cancel = core.token(deadline)
        started = time.monotonic()
        waiting = core.run(calls.METHODS_BY_NAME["SolveRoutes"], cheap, cancel)
        with pytest.raises(OutOfTime):
            asyncio.run_coroutine_threadsafe(waiting, one_worker._loop).result(60)
        took = time.monotonic() - started
        busy.cancel()
    assert took < deadline + (whole - pause) / 2, (took, whole)


# -- the decode lane (issue 20): large JSON requests decoded in a process of their own ----------


def _run_json(server: RouteServer, method: str, body: bytes, timeout_s: float = 30) -> Any:
    """``CallCore.run`` on an HTTP-style JSON request, on the server's loop (as Connect runs it)."""
    core = server.core
    _, cancel = core.token(timeout_s)
    coro = core.run(calls.METHODS_BY_NAME[method], calls.Encoded(body, "json"), cancel)
    return asyncio.run_coroutine_threadsafe(coro, server._loop).result(timeout_s + 5)


@pytest.fixture()
def decoded(processes: RouteServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The job names the decode lane ran (its ``run_in_worker`` wrapped to record them)."""
    lane = processes.lanes["decode"]
    names: list[str] = []
    real = lane.run_in_worker

    async def recording(name: str, payload: bytes, cancel: Any) -> bytes:
        names.append(name)
        return await real(name, payload, cancel)

    monkeypatch.setattr(lane, "run_in_worker", recording)
    return names


def test_the_decode_lane_is_a_process_of_its_own(processes: RouteServer) -> None:
    decode, solve = processes.lanes["decode"].processes, processes.lanes["solve"].processes
    assert decode is not None and solve is not None and decode.role == "decode"
    assert decode.pids() and not set(decode.pids()) & set(solve.pids())


def test_a_large_json_request_is_decoded_in_the_decode_lane(
    processes: RouteServer, stub: Any, decoded: list[str]
) -> None:
    """A request over 64 KiB (a game log): the same answer as over gRPC, decoded by the decode lane."""
    request = pb.SolveRoutesRequest(game_log=log_with_undos(0), action_id=68)
    body = json.dumps(json_format.MessageToDict(request)).encode()
    assert len(body) >= calls.DECODE_LANE_MIN_BYTES
    over_http = _run_json(processes, "SolveRoutes", body)
    assert decoded == ["SolveRoutes:json>proto"]
    over_grpc = stub.SolveRoutes(request, timeout=30)
    assert over_grpc.routes and over_grpc.revenue > 0  # a real answer to compare
    assert (over_http.revenue, over_http.subsidy) == (over_grpc.revenue, over_grpc.subsidy)
    assert [r.hexes for r in over_http.routes] == [r.hexes for r in over_grpc.routes]


def test_a_small_json_request_skips_the_decode_lane(
    processes: RouteServer, decoded: list[str]
) -> None:
    body = json.dumps({"state": SAMPLE[0]["state"]}).encode()
    assert len(body) < calls.DECODE_LANE_MIN_BYTES
    answer = _run_json(processes, "SolveRoutes", body)
    assert decoded == [] and answer.proven_optimal


def test_the_decode_lane_refuses_naming_the_field(
    processes: RouteServer, decoded: list[str]
) -> None:
    raw = {**SAMPLE[0]["state"], "trains": ["D"] * 20_000}
    with pytest.raises(MalformedInput) as info:
        _run_json(processes, "SolveRoutes", json.dumps({"state": raw}).encode())
    assert info.value.field == "state.trains"
    assert decoded == ["SolveRoutes:json>proto"]


def test_solves_in_worker_processes_are_counted_by_status(
    processes: RouteServer, stub: pb_grpc.RouteServiceStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: a validation's solves in a worker process reach the server's metrics.

    The witness: the same job run in this process, with the solver's ``solve`` wrapped
    where the engine imports it, counting the solves by status.
    """
    from prometheus_client import generate_latest
    from prometheus_client.parser import text_string_to_metric_families

    from route18xx.engine.answer import optimize, prepared
    from route18xx.server.core.runner import EngineRunner
    from route18xx.server.core.workers import run_job

    def solves() -> dict[str, float]:
        text = generate_latest(processes.metrics.registry).decode()
        return {s.labels["status"]: s.value for f in text_string_to_metric_families(text)
                for s in f.samples if s.name == "route18xx_solves_total"}

    case = SAMPLE[1]
    request = converters.validate_request_to_proto(
        case["state"], case["reference"]["recorded_routes"], compare=True)
    before = solves()
    stub.ValidateRoutes(request, timeout=30)
    after = solves()
    counted = {k: after.get(k, 0) - before.get(k, 0) for k in after}

    seen: dict[str, int] = {}
    real = optimize.solve

    def witness(*args: Any, **kwargs: Any) -> Any:
        solution = real(*args, **kwargs)
        seen[solution.status] = seen.get(solution.status, 0) + 1
        return solution

    for module in (optimize, prepared):
        monkeypatch.setattr(module, "solve", witness)
    from route18xx.engine import api

    run_job(EngineRunner(Limits()), "ValidateRoutes", request.SerializeToString(),
            api.new_cancel_token(time.monotonic() + 30))
    api.solve_tally.take()  # the witness's own solves are no server's
    assert seen and {k: v for k, v in counted.items() if v} == seen
