"""A gRPC load generator in its own process: N concurrent SolveRoutes callers (issue 11).

    .venv/bin/python -m benchmarks.load_client TARGET CLIENTS SECONDS

The clients are coroutines on one ``grpc.aio`` channel each, in one process,
sending requests serialized beforehand (every 16th real decision, in turn), so
that the generator costs the machine as little as a Python client can and none
of it runs in the server's process. It prints one JSON line: solves per second,
latency percentiles, and the answers' (revenue, subsidy) per state, which the
benchmark compares with the in-process engine's.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import grpc

from benchmarks.conftest import real_states
from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb

METHOD = "/route18xx.v1.RouteService/SolveRoutes"


def sample() -> dict[str, dict[str, Any]]:
    """Early, middle and late decisions: every 16th of the real ones."""
    states = real_states()
    return {name: states[name] for name in sorted(states)[::16]}


async def drive(target: str, clients: int, seconds: float) -> dict[str, Any]:
    names = list(sample())
    requests = [converters.solve_request_to_proto(state).SerializeToString()
                for state in sample().values()]
    channels = [grpc.aio.insecure_channel(target) for _ in range(clients)]
    calls = [ch.unary_unary(METHOD, response_deserializer=pb.SolveRoutesResponse.FromString)
             for ch in channels]
    answers: dict[str, list[int]] = {}
    for call in calls:  # connect every channel, and read each state's answer once
        for name, request in zip(names, requests):
            response = await call(request, timeout=30)
            answers[name] = [response.revenue, response.subsidy]
    latencies: list[float] = []
    end = time.perf_counter() + seconds

    async def client(k: int) -> None:
        i = k
        while time.perf_counter() < end:
            started = time.perf_counter()
            await calls[k](requests[i % len(requests)], timeout=30)
            latencies.append(time.perf_counter() - started)
            i += 1

    started = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    elapsed = time.perf_counter() - started
    for ch in channels:
        await ch.close()
    latencies.sort()

    def pct(q: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 2)

    return {"clients": clients, "solves": len(latencies),
            "solves_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": pct(0.5), "p99_ms": pct(0.99), "answers": answers}


def main() -> None:
    target, clients, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    print(json.dumps(asyncio.run(drive(target, clients, seconds))))


if __name__ == "__main__":
    main()
