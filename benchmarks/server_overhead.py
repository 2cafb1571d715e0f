"""What a real server spends around the engine on one ``SolveRoutes`` call (issue 21).

    .venv/bin/python -m benchmarks.server_overhead [rounds] [-- extra serve arguments]

``bench_answer``'s gRPC figure runs the server in the benchmark's own process with
worker threads; this starts ``route18xx serve`` as users do (worker processes,
``--no-http``, one solve worker) on a free local port and sends the 123 real
decisions of ``tests/data/states``, each ``rounds`` times after one warm-up pass.
It prints, per call:

* the CPU of the server's main process (gRPC, admission, the hop to the worker)
  and of its worker processes (decoding, the engine, encoding), from ``psutil``;
* the client's CPU and the round trip's wall clock (p50 / p95 / max over states);
* the median ``solve_ms`` the answers report (the engine's time for the answer);
* beside them the *floor*: the main-process CPU per call of a bare ``grpc.aio``
  server in a fresh process that answers the same requests with an empty response.

The requests repeat, so the engine's content caches answer most of the work: this
measures the service around the engine, not a board seen first. Process CPU, so a
loaded machine moves it less than the wall clock; compare figures of one run.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _requests() -> list[Any]:
    from route18xx.server.convert import converters

    return [converters.solve_request_to_proto(json.loads(p.read_text())["state"])
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]


def _cpu(process: Any) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def _spread(values: list[float]) -> dict[str, float]:
    v = sorted(values)
    return {"p50": round(v[len(v) // 2], 3), "p95": round(v[int(0.95 * (len(v) - 1))], 3),
            "max": round(v[-1], 3)}


def _measure(command: list[str], port: int, rounds: int, real: bool) -> dict[str, Any]:
    import grpc
    import psutil

    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'proto'}{os.pathsep}{ROOT}"}
    server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            stub = pb_grpc.RouteServiceStub(channel)  # type: ignore[no-untyped-call]
            requests = _requests()
            for request in requests:  # warm: workers started, every board seen once
                stub.SolveRoutes(request, timeout=60)
            main = psutil.Process(server.pid)
            workers = main.children(recursive=True)
            before = {p.pid: _cpu(p) for p in [main, *workers]}
            client0 = time.process_time()
            walls: list[float] = []
            solve_ms: list[float] = []
            for request in requests:
                w, s = [], []
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    response = stub.SolveRoutes(request, timeout=60)
                    w.append((time.perf_counter() - t0) * 1000)
                    s.append(response.solve_ms)
                walls.append(statistics.median(w))
                solve_ms.append(statistics.median(s))
            calls = rounds * len(requests)
            client_ms = (time.process_time() - client0) * 1000 / calls
            main_ms = (_cpu(main) - before[main.pid]) * 1000 / calls
            worker_ms = sum(_cpu(p) - before[p.pid] for p in workers if p.is_running())
    finally:
        server.terminate()
        server.wait(timeout=30)
    out: dict[str, Any] = {"calls": calls, "main_cpu_ms": round(main_ms, 3)}
    if real:
        out.update({"workers_cpu_ms": round(worker_ms * 1000 / calls, 3),
                    "client_cpu_ms": round(client_ms, 3), "wall_ms": _spread(walls),
                    "solve_ms_p50": round(statistics.median(solve_ms), 3)})
    return out


def floor_server(port: int) -> None:
    """A bare ``grpc.aio`` RouteService answering every SolveRoutes with an empty response."""
    import grpc

    from route18xx.v1 import route_service_pb2 as pb
    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    class Empty(pb_grpc.RouteServiceServicer):
        async def SolveRoutes(self, request: Any, context: Any) -> Any:  # noqa: N802
            return pb.SolveRoutesResponse()

    async def serve() -> None:
        server = grpc.aio.server()
        pb_grpc.add_RouteServiceServicer_to_server(Empty(), server)  # type: ignore[no-untyped-call]
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        await server.wait_for_termination()

    asyncio.run(serve())


def measure(rounds: int = 5, extra: list[str] | None = None) -> dict[str, Any]:
    port = _free_port()
    serve = [sys.executable, "-m", "route18xx.server.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--no-http", "--workers", "1", *(extra or [])]
    real = _measure(serve, port, rounds, real=True)
    port = _free_port()
    bare = [sys.executable, "-c",
            f"from benchmarks.server_overhead import floor_server; floor_server({port})"]
    return {"server": real, "bare_grpc_aio_main_cpu_ms": _measure(bare, port, rounds,
                                                                  real=False)["main_cpu_ms"]}


def main() -> None:
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    rounds = int(args[0]) if args and args[0] != "--" else 5
    print(json.dumps(measure(rounds, extra), indent=2))


if __name__ == "__main__":
    main()
