"""Issue 34's connection flood, measured: silent connections on the service, health and HTTP
ports against a fresh client.

    .venv/bin/python -m benchmarks.connection_flood [PER_PORT [SECONDS [PORTS]]]

Starts a real ``route18xx serve`` (one engine worker, 4096 descriptors, HTTP on), then two
processes per port in PORTS (default ``svc,health,http``) each open PER_PORT // 2 (default
20 000 a port) connections as fast as they can and send nothing. For SECONDS (default 5)
from the flood's start, a fresh client probes, each on new connections: a cheap SolveRoutes
and a health check on the service port, a health check on the health port, and ``/healthz``
and a Connect SolveRoutes on the HTTP port. Prints one JSON line: per probe, how many
answered, failed, and the median and slowest seconds, and the connections opened.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf import json_format

from tests.server.abuse import solve_request, start_server, state
from tests.server.conftest import health_status
from tests.server.stalled import OWN_CONNECTION
from tests.server.test_flood import FLOODER, _fresh_grpc, _fresh_http


def main(argv: list[str]) -> None:
    per_port = int(argv[0]) if argv else 20_000
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    kinds = (argv[2] if len(argv) > 2 else "svc,health,http").split(",")
    server = start_server("--workers", "1", http=True, nofile=4096)
    served = next(server)  # the generator held: closing it stops the server
    cheap = solve_request(state("129026-138"))
    body = json.dumps(json_format.MessageToDict(cheap)).encode()

    def health_port() -> float:
        started = time.monotonic()
        with grpc.insecure_channel(served.health_target, options=OWN_CONNECTION) as probe:
            health_status(probe)
        return time.monotonic() - started

    probes: dict[str, Callable[[], float]] = {
        "service port": lambda: _fresh_grpc(served, cheap),
        "health port": health_port,
        "http port": lambda: _fresh_http(served, body),
    }
    ports = {"svc": served.target.rsplit(":", 1)[1],
             "health": served.health_target.rsplit(":", 1)[1], "http": str(served.http_port)}
    flood = [subprocess.Popen([sys.executable, "-c", FLOODER, ports[kind], str(per_port // 2),
                               str(seconds + 3)], stdout=subprocess.PIPE)
             for kind in kinds for _ in range(2)]
    times: dict[str, list[float]] = {name: [] for name in probes}
    failed: dict[str, int] = {name: 0 for name in probes}
    errors: dict[str, str] = {}
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            for name, probe in probes.items():
                try:
                    times[name].append(probe())
                except (AssertionError, grpc.RpcError, OSError) as exc:
                    failed[name] += 1
                    errors.setdefault(name, repr(exc)[:200])
            time.sleep(0.05)
        opened = [int(f.stdout.readline() or 0) for f in flood if f.stdout is not None]
    finally:
        for process in flood:
            process.kill()
            process.wait()
        server.close()
    report: dict[str, Any] = {"flooded": kinds, "opened": opened, "first_errors": errors}
    for name in probes:
        took = times[name]
        report[name] = {"answered": len(took), "failed": failed[name],
                        "median_s": round(statistics.median(took), 3) if took else None,
                        "slowest_s": round(max(took), 3) if took else None}
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
