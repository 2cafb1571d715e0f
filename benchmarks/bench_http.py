"""HTTP/JSON (Connect) and gRPC-Web vs gRPC per call (issue 13), side by side in one run.

One in-process server answers all three on the same lanes; each benchmark
solves the same sample of real states. ``test_summary`` prints the medians and
the overhead of each HTTP form over gRPC, and saves them to
``.benchmarks/http_summary.json``.

Run: ``.venv/bin/python -m pytest benchmarks/bench_http.py --benchmark-only -s``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

import grpc
import pytest
from connectrpc.protocol import ProtocolType

from benchmarks.conftest import real_states
from benchmarks.shared import write_summary
from route18xx.server.convert import converters
from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.v1.route_service_connect import RouteServiceClientSync

REAL = real_states()
SAMPLE = [converters.solve_request_to_proto(REAL[n]) for n in sorted(REAL)[::16]]
MEDIANS: dict[str, float] = {}


@pytest.fixture(scope="module")
def server() -> Iterator[RouteServer]:
    srv = create_server(ServerConfig(port=0, http_port=0))
    srv.start()
    yield srv
    srv.stop(0).wait()


def _calls(server: RouteServer) -> dict[str, Callable[[Any], Any]]:
    channel = grpc.insecure_channel(server.target)
    stub = pb_grpc.RouteServiceStub(channel)
    url = server.http_url or ""
    connect_json = RouteServiceClientSync(url, proto_json=True, send_compression=None)
    grpc_web = RouteServiceClientSync(url, protocol=ProtocolType.GRPC_WEB, send_compression=None)
    return {
        "grpc": lambda r: stub.SolveRoutes(r, timeout=30),
        "connect-json": lambda r: connect_json.solve_routes(r, timeout_ms=30_000),
        "grpc-web": lambda r: grpc_web.solve_routes(r, timeout_ms=30_000),
    }


@pytest.mark.parametrize("transport", ["grpc", "connect-json", "grpc-web"])
def test_solve_over(benchmark: Any, server: RouteServer, transport: str) -> None:
    call = _calls(server)[transport]
    for request in SAMPLE:  # warm the connection
        call(request)

    def run_sample() -> None:
        for request in SAMPLE:
            call(request)

    benchmark(run_sample)
    MEDIANS[transport] = benchmark.stats.stats.median / len(SAMPLE) * 1000
    if len(MEDIANS) == 3:
        _summary()


def _summary() -> None:
    base = MEDIANS["grpc"]
    summary = {
        "median_ms_per_call": {k: round(v, 3) for k, v in MEDIANS.items()},
        "overhead_ms_over_grpc": {k: round(v - base, 3) for k, v in MEDIANS.items() if k != "grpc"},
        "ratio_to_grpc": {k: round(v / base, 2) for k, v in MEDIANS.items() if k != "grpc"},
    }
    print("\nhttp vs grpc:", json.dumps(summary, indent=1))
    write_summary("http_summary.json", summary)
