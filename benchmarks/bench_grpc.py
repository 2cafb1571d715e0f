"""End-to-end gRPC benchmarks (issue 4): latency and throughput of SolveRoutes.

A real server runs in this process on 127.0.0.1 (port 0, one engine worker per
core); clients call it over loopback. Compared with the in-process
``engine.api.solve_routes`` on the same decoded state files, the difference is
the service's cost per call: proto conversion, HTTP/2 on loopback, the worker
pool hand-off.

``test_summary`` prints the median in-process and gRPC latency, the overhead
per call, and solves/s with 1 and 8 concurrent clients; it also writes them to
``.benchmarks/grpc_summary.json``. Those clients are threads of this process,
sharing its interpreter with the server (threads, as ``ServerConfig`` defaults).

``test_serve_throughput`` measures the product as users run it (issue 11): a
``route18xx serve`` process (one engine worker process per core) and the load
generator ``benchmarks/load_client.py`` in another process, with 1 and 8
concurrent clients; the answers must equal the in-process engine's.
``.benchmarks/serve_throughput_summary.json``.

Run: ``make bench`` (or ``.venv/bin/python -m pytest benchmarks/bench_grpc.py --benchmark-only``).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

import pytest

from benchmarks.conftest import ROOT, real_states
from benchmarks.shared import median_ms, write_summary
from route18xx.engine.api import solve_routes
from route18xx.server.rpc.app import RouteServer
from route18xx.server.commands.client import RouteClient

REAL = real_states()
#: Early, middle and late decisions: every 16th of the 123.
SAMPLE = sorted(REAL)[::16]
#: Solves per throughput round, spread over SAMPLE.
BATCH = 64


@pytest.fixture(scope="module")
def clients(server: RouteServer) -> Iterator[list[RouteClient]]:
    made = [RouteClient(server.target) for _ in range(8)]
    for c in made:  # connect and warm up every channel
        c.solve(REAL[SAMPLE[0]])
    yield made
    for c in made:
        c.close()


@pytest.mark.parametrize("name", SAMPLE)
def test_inprocess_solve(benchmark: Any, name: str) -> None:
    report = benchmark(solve_routes, REAL[name])
    assert report["proven_optimal"]


@pytest.mark.parametrize("name", SAMPLE)
def test_grpc_solve(benchmark: Any, clients: list[RouteClient], name: str) -> None:
    report = benchmark(clients[0].solve, REAL[name])
    assert report["proven_optimal"]


def _batch(clients: list[RouteClient], concurrency: int) -> list[dict[str, Any]]:
    jobs = [REAL[SAMPLE[i % len(SAMPLE)]] for i in range(BATCH)]
    if concurrency == 1:
        return [clients[0].solve(state) for state in jobs]
    with ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(lambda i: clients[i % concurrency].solve(jobs[i]), range(BATCH)))


@pytest.mark.parametrize("concurrency", [1, 8])
def test_grpc_throughput(benchmark: Any, clients: list[RouteClient], concurrency: int) -> None:
    """One round = BATCH solves; solves/s = BATCH / round time."""
    reports = benchmark.pedantic(_batch, args=(clients, concurrency), rounds=5, iterations=1)
    assert all(r["proven_optimal"] for r in reports)
    benchmark.extra_info["solves_per_s"] = round(BATCH / benchmark.stats.stats.median, 1)


def test_summary(benchmark: Any, server: RouteServer, clients: list[RouteClient]) -> None:
    """Median latency in-process vs over gRPC per sample state, and throughput."""
    rows: dict[str, tuple[float, float]] = {}
    rates: dict[int, float] = {}

    def run_all() -> None:
        for name in SAMPLE:
            state = REAL[name]
            rows[name] = (median_ms(lambda: solve_routes(state), 15)[0],
                          median_ms(lambda: clients[0].solve(state), 15)[0])
        for concurrency in (1, 8):
            started = time.perf_counter()
            for _ in range(3):
                _batch(clients, concurrency)
            rates[concurrency] = 3 * BATCH / (time.perf_counter() - started)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    local = [r[0] for r in rows.values()]
    remote = [r[1] for r in rows.values()]
    overhead = [r[1] - r[0] for r in rows.values()]
    summary = {
        "states": len(rows),
        "inprocess_median_ms": round(statistics.median(local), 3),
        "grpc_median_ms": round(statistics.median(remote), 3),
        "overhead_median_ms": round(statistics.median(overhead), 3),
        "overhead_max_ms": round(max(overhead), 3),
        "solves_per_s_1_client": round(rates[1], 1),
        "solves_per_s_8_clients": round(rates[8], 1),
        "engine_workers": server.config.workers,
    }
    benchmark.extra_info.update(summary)
    write_summary("grpc_summary.json", summary)
    print("\ngrpc summary:", json.dumps(summary))


CLI = str(Path(sys.executable).with_name("route18xx"))
THROUGHPUT: dict[str, Any] = {}


@pytest.fixture(scope="module")
def serve_target() -> Iterator[str]:
    """A ``route18xx serve`` process (gRPC only, its default engine worker processes)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([CLI, "serve", "--port", str(port), "--no-http"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    target = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            health = health_pb2_grpc.HealthStub(channel)
            while health.Check(health_pb2.HealthCheckRequest()).status != health_pb2.HealthCheckResponse.SERVING:
                time.sleep(0.05)
        time.sleep(2.0)  # the engine workers boot after SERVING
        yield target
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize("clients", [1, 8])
def test_serve_throughput(benchmark: Any, serve_target: str, clients: int) -> None:
    """Solves/s through a real ``route18xx serve``, the clients in their own process."""
    result: dict[str, Any] = {}

    def run() -> None:
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.load_client", serve_target, str(clients), "6"],
            cwd=ROOT, check=True, capture_output=True, text=True, env=os.environ.copy(),
        )
        result.update(json.loads(out.stdout))

    benchmark.pedantic(run, rounds=1, iterations=1)
    answers = result.pop("answers")
    local = {name: solve_routes(REAL[name]) for name in answers}
    assert answers == {name: [r["revenue"], r["subsidy"]] for name, r in local.items()}
    benchmark.extra_info.update(result)
    THROUGHPUT[f"{clients}_clients"] = result
    write_summary("serve_throughput_summary.json", THROUGHPUT)
    print(f"\nserve throughput, {clients} clients:", json.dumps(result))
