"""Load benchmark (issue 9): cheap solves beside heavy suggestions, from many clients at once.

A real ``route18xx serve`` process (2 engine workers, the default lanes) takes,
for ``DURATION_S`` seconds, cheap SolveRoutes calls from 8 clients in a loop
and heavy SuggestMoves calls (the fullest real board, tokens included) from 16
more. Printed and saved to ``.benchmarks/load_summary.json``: cheap solves/s,
the cheap call's p50 and p99 latency, heavy calls answered / told to retry
(RESOURCE_EXHAUSTED), and the server's RSS before and after.

The same scenario runs twice in one go, side by side: without the heavy
clients (the baseline) and with them, so the ratio says what the suggestions
cost the cheap calls.

Run: ``.venv/bin/python -m pytest benchmarks/bench_load.py --benchmark-only -s``.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from typing import Any, Iterator

import grpc
import pytest

from benchmarks.conftest import real_states
from benchmarks.shared import write_summary
from route18xx.server.convert import converters, suggest_converters
from tests.server.abuse import ServerProcess, start_server, stub

DURATION_S = 6.0
CHEAP_CLIENTS = 8
HEAVY_CLIENTS = 16
REAL = real_states()
CHEAP = [converters.solve_request_to_proto(REAL[n]) for n in sorted(REAL)[::16]]
HEAVY = suggest_converters.suggest_request_to_proto(
    REAL["129026-728"], include_tokens=True, time_limit_s=20
)
RESULTS: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    yield from start_server("--workers", "2")


def _load(target: str, heavy_clients: int) -> dict[str, Any]:
    stop = threading.Event()
    cheap_latencies: list[float] = []
    heavy: dict[str, int] = {"OK": 0, "RESOURCE_EXHAUSTED": 0, "other": 0}
    lock = threading.Lock()

    def cheap_client(i: int) -> None:
        channel, service = stub(target)
        n = i
        while not stop.is_set():
            started = time.monotonic()
            service.SolveRoutes(CHEAP[n % len(CHEAP)], timeout=30)
            with lock:
                cheap_latencies.append(time.monotonic() - started)
            n += 1
        channel.close()

    def heavy_client() -> None:
        channel, service = stub(target)
        while not stop.is_set():
            try:
                service.SuggestMoves(HEAVY, timeout=60)
                outcome = "OK"
            except grpc.RpcError as error:
                outcome = error.code().name if error.code().name in heavy else "other"
                if outcome == "RESOURCE_EXHAUSTED":
                    time.sleep(0.2)  # a well-behaved client waits before retrying
            with lock:
                heavy[outcome] += 1
        channel.close()

    threads = [threading.Thread(target=cheap_client, args=(i,)) for i in range(CHEAP_CLIENTS)]
    threads += [threading.Thread(target=heavy_client) for _ in range(heavy_clients)]
    for t in threads:
        t.start()
    time.sleep(DURATION_S)
    stop.set()
    for t in threads:
        t.join()
    lat = sorted(cheap_latencies)
    return {
        "cheap_solves_per_s": round(len(lat) / DURATION_S, 1),
        "cheap_p50_ms": round(statistics.median(lat) * 1000, 2),
        "cheap_p99_ms": round(lat[int(0.99 * (len(lat) - 1))] * 1000, 2),
        "cheap_max_ms": round(lat[-1] * 1000, 2),
        "heavy": heavy,
    }


@pytest.mark.parametrize("heavy_clients", [0, HEAVY_CLIENTS], ids=["cheap-only", "with-heavy"])
def test_load(benchmark: Any, served: ServerProcess, heavy_clients: int) -> None:
    rss_before = served.rss_mib()
    result = benchmark.pedantic(_load, args=(served.target, heavy_clients), rounds=1, iterations=1)
    result["memory_before_mib"], result["memory_after_mib"] = round(rss_before), round(served.rss_mib())
    benchmark.extra_info.update(result)
    RESULTS["with-heavy" if heavy_clients else "cheap-only"] = result
    assert served.alive()
    if len(RESULTS) == 2:
        _summary()


def _summary() -> None:
    """Both runs side by side: printed, and saved to .benchmarks/load_summary.json."""
    base, loaded = RESULTS["cheap-only"], RESULTS["with-heavy"]
    summary = {
        **RESULTS,
        "p99_ratio_with_heavy": round(loaded["cheap_p99_ms"] / base["cheap_p99_ms"], 2),
        "throughput_ratio_with_heavy": round(
            loaded["cheap_solves_per_s"] / base["cheap_solves_per_s"], 2
        ),
    }
    print("\nload (8 cheap clients, 16 heavy):", json.dumps(summary, indent=1))
    write_summary("load_summary.json", summary)
