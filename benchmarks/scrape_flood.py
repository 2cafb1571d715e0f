"""Issue 34: what 8 clients scraping an HTTP page in a loop cost a cheap gRPC call.

    .venv/bin/python -m benchmarks.scrape_flood [PATH]   # PATH: /metrics (default) or /healthz

Starts a server in this process (one engine worker, HTTP on), times 60 cheap
SolveRoutes (board 129026-138) alone, then again while 8 threads GET ``PATH`` in
a loop, and prints both medians, the scrapes per second, and the CPU one rendering
of the registry takes. ``/healthz`` is the control: what any flood of small HTTP
requests costs the event loop the two front ends share. With ``/metrics`` rendered
at most once a second (``server.ops.metrics.SCRAPE_CACHE_S``) the two match;
rendered on every scrape (3.3 ms of CPU each), ``/metrics`` moved the median from
1 ms to 77 ms on a shared 2-core machine.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

import grpc
from prometheus_client.exposition import choose_encoder

from route18xx.server.convert import converters
from route18xx.server.rpc.app import ServerConfig
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.route_server import started_server

STATE = Path(__file__).resolve().parents[1] / "tests" / "data" / "states" / "129026-138.json"
CLIENTS = 8


def median_ms(stub: pb_grpc.RouteServiceStub, request: object, n: int = 60) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        stub.SolveRoutes(request, timeout=20)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main(path: str = "/metrics") -> None:
    request = converters.solve_request_to_proto(json.loads(STATE.read_text("utf-8"))["state"])
    with started_server(ServerConfig(port=0, workers=1, http_port=0), stop_wait_s=10) as srv:
        url = f"{srv.http_url}{path}"
        with grpc.insecure_channel(srv.target) as channel:
            stub = pb_grpc.RouteServiceStub(channel)  # type: ignore[no-untyped-call]
            median_ms(stub, request, 10)  # warm
            quiet = median_ms(stub, request)
            stop = threading.Event()
            count = [0] * CLIENTS

            def scrape(i: int) -> None:
                while not stop.is_set():
                    with urllib.request.urlopen(url, timeout=10) as answer:
                        answer.read()
                    count[i] += 1

            threads = [threading.Thread(target=scrape, args=(i,)) for i in range(CLIENTS)]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            loaded = median_ms(stub, request)
            stop.set()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
        encode, _ = choose_encoder("")
        cpu = time.process_time()
        for _ in range(100):
            encode(srv.metrics.registry)
        render_ms = (time.process_time() - cpu) * 10
    print(json.dumps({
        "path": path, "quiet_median_ms": round(quiet, 2), "loaded_median_ms": round(loaded, 2),
        "scrapes_per_s": round(sum(count) / elapsed), "render_cpu_ms": round(render_ms, 2),
    }))


if __name__ == "__main__":
    main(*sys.argv[1:2])
