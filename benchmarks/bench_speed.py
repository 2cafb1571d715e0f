"""Speed benchmarks of issue 11: hard boards, the cold process, real decisions end to end.

* ``test_hard_board``: every board of ``tests/data/boards`` (the shared hard ones and
  the grown ones), parsed state → checked optimum; ``test_hard_summary`` writes
  per-board medians and the worst to ``.benchmarks/hard_boards_summary.json``.
* ``test_cold_process``: the whole ``route18xx solve`` / ``route18xx check`` process
  (Python start, imports, data, the answer), beside ``python -c pass``;
  ``.benchmarks/cold_summary.json``.
* ``test_serve_to_serving``: ``route18xx serve`` (gRPC and HTTP, as ``make serve``)
  from the process's start to the first health check answered ``SERVING``;
  ``.benchmarks/serve_start_summary.json``.
* ``test_real_decisions_summary``: warm, from the decoded state dict to the engine's
  checked answer (``engine.api.solve_routes``), p50 / p95 / max over every real
  state (median of 5 runs each); ``.benchmarks/real_decisions_summary.json``.

Run: ``.venv/bin/python -m pytest benchmarks/bench_speed.py --benchmark-only -s``.
The machine's load moves these figures: compare runs made side by side.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.conftest import ROOT, real_states
from benchmarks.shared import median_ms, percentile, write_summary
from route18xx.engine.api import solve_routes
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.inputs.state_file import parse_state

BOARDS = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "tests" / "data" / "boards").glob("*.json"))}
REAL = real_states()
CLI = str(Path(sys.executable).with_name("route18xx"))
STATE = str(ROOT / "tests" / "data" / "states" / "129026-743.json")


def _save(name: str, summary: dict[str, Any]) -> None:
    write_summary(name, summary)
    print(f"\n{name}:", json.dumps(summary))


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_hard_board(benchmark: Any, name: str) -> None:
    state = parse_state(BOARDS[name]["state"])
    opt = benchmark.pedantic(optimize, args=(state,), rounds=3, iterations=1)
    assert opt.solution.status == "OPTIMAL"
    assert opt.solution.objective == BOARDS[name]["meta"]["reference"]["total"]


def test_hard_summary(benchmark: Any) -> None:
    per_board: dict[str, float] = {}

    def run_all() -> None:
        for name, board in BOARDS.items():
            state = parse_state(board["state"])
            per_board[name], _ = median_ms(lambda: optimize(state), 3)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    values = list(per_board.values())
    reference = {n: b["meta"]["reference"]["seconds"] * 1000 for n, b in BOARDS.items()}
    summary = {
        "boards": len(values),
        "median_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
        "worst_ms": round(max(values), 1),
        "worst_board": max(per_board, key=per_board.__getitem__),
        "over_250_ms": sorted(n for n, v in per_board.items() if v > 250),
        "reference_run_worst_ms": round(max(reference.values()), 1),
        "per_board_ms": {n: round(v, 1) for n, v in sorted(per_board.items())},
    }
    benchmark.extra_info.update({k: v for k, v in summary.items() if k != "per_board_ms"})
    _save("hard_boards_summary.json", summary)


def _run(args: list[str]) -> None:
    subprocess.run(args, check=True, capture_output=True)


@pytest.fixture(scope="module")
def routes_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("speed") / "routes.json"
    recorded = json.loads(Path(STATE).read_text())["reference"]["recorded_routes"]
    path.write_text(json.dumps(recorded))
    return str(path)


COLD = {"python": [sys.executable, "-c", "pass"], "solve": [CLI, "solve", STATE, "--json"]}


@pytest.mark.parametrize("command", ["python", "solve", "check"])
def test_cold_process(benchmark: Any, command: str, routes_file: str) -> None:
    args = COLD.get(command) or [CLI, "check", STATE, routes_file, "--json"]
    benchmark.pedantic(_run, args=(args,), rounds=7, iterations=1)


def test_cold_summary(benchmark: Any, routes_file: str) -> None:
    commands = {**COLD, "check": [CLI, "check", STATE, routes_file, "--json"]}
    times: dict[str, list[float]] = {name: [] for name in commands}

    def run_all() -> None:
        for _ in range(7):  # interleaved, so load hits every command alike
            for name, args in commands.items():
                started = time.perf_counter()
                _run(args)
                times[name].append((time.perf_counter() - started) * 1000)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    summary = {f"{name}_median_ms": round(statistics.median(v), 1) for name, v in times.items()}
    summary.update({f"{name}_min_ms": round(min(v), 1) for name, v in times.items()})
    _save("cold_summary.json", summary)


def test_real_decisions_summary(benchmark: Any) -> None:
    per_state: dict[str, float] = {}
    for raw in REAL.values():
        solve_routes(raw)  # warm

    def run_all() -> None:
        for name, raw in REAL.items():
            per_state[name], _ = median_ms(lambda: solve_routes(raw), 5)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    values = list(per_state.values())
    summary = {
        "states": len(values),
        "p50_ms": round(statistics.median(values), 3),
        "p95_ms": round(percentile(values, 0.95), 3),
        "max_ms": round(max(values), 3),
        "worst_state": max(per_state, key=per_state.__getitem__),
    }
    benchmark.extra_info.update(summary)
    _save("real_decisions_summary.json", summary)


def _serve_to_serving(args: list[str]) -> float:
    """Seconds from starting ``route18xx serve`` to its first ``SERVING`` health answer."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    ports = []
    for _ in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            ports.append(sock.getsockname()[1])
    # Retry every 5 ms: gRPC's default reconnect backoff (1 s) would hide the real time.
    options = [("grpc.initial_reconnect_backoff_ms", 5), ("grpc.min_reconnect_backoff_ms", 5),
               ("grpc.max_reconnect_backoff_ms", 10)]
    started = time.perf_counter()
    process = subprocess.Popen([CLI, "serve", "--port", str(ports[0]), "--http-port", str(ports[1]),
                                *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{ports[0]}", options=options) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    status = health.Check(health_pb2.HealthCheckRequest(), timeout=0.05).status
                    if status == health_pb2.HealthCheckResponse.SERVING:
                        return time.perf_counter() - started
                except grpc.RpcError:
                    pass
                if process.poll() is not None or time.perf_counter() - started > 30:
                    raise RuntimeError("route18xx serve did not report SERVING")
                time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(10)


def test_serve_to_serving(benchmark: Any) -> None:
    times: list[float] = []

    def run_all() -> None:
        for _ in range(7):
            times.append(_serve_to_serving([]) * 1000)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    summary = {"median_ms": round(statistics.median(times), 1), "min_ms": round(min(times), 1),
               "max_ms": round(max(times), 1), "runs": len(times)}
    benchmark.extra_info.update(summary)
    _save("serve_start_summary.json", summary)
