"""A cold ``route18xx solve`` and ``serve``'s first answer, against a base commit (issue 35 item 6).

Run by hand (not a timing assertion)::

    .venv/bin/python -m benchmarks.bench_cold [--base b4a32ee] [--rounds 7] [--serve-rounds 5] \
        [--instructions]

Both trees run in fresh processes of this venv, base and new alternating, so load hits both
alike. The base commit's tree is unpacked by ``git archive`` (``cliff_side_by_side.unpack``)
and put first on ``PYTHONPATH``; this tree runs as installed (``make install``).

* **solve CPU**: user + system CPU of the whole ``route18xx solve STATE.json`` process
  (``getrusage`` of the children), interpreter start included. The base runs as its install
  left it: no bytecode for the package (``PYTHONDONTWRITEBYTECODE=1``, as here, so every
  run compiles it), and also with bytecode (``compileall`` on its tree), which separates
  what compiled bytecode saves from what the lazier imports save. ``python -c pass`` is the
  floor.
* **solve instructions** (``--instructions``, needs valgrind): the instructions the same
  process runs (``valgrind --tool=cachegrind --cache-sim=no``, one run per side, ~5 s
  each). They do not move with the machine's load, where the CPU medians above moved by
  up to 2x between runs on a shared 2-core machine; they miss what the CPU adds with
  memory (the collector's walks cost more CPU than their share of instructions).
* **serve to first answer**: wall time from starting ``route18xx serve`` (gRPC and HTTP, as
  ``make serve``) to the first ``SolveRoutes`` answered OK, the client retrying every 5 ms;
  beside it, the time to the first ``SERVING`` readiness (the service's own health status),
  and the CPU the server had used by its first answer, alone and with the processes it
  started (wall time moves with the machine's load; CPU much less).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.cliff_side_by_side import unpack
from benchmarks.shared import ROOT, write_summary

STATE = ROOT / "tests" / "data" / "states" / "129026-138.json"
MAIN = "import sys; from route18xx.server.cli import main; sys.exit(main())"


def _env(path: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if path is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = str(path)
    return env


def _cpu_ms(args: list[str], env: dict[str, str]) -> float:
    """User + system CPU of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def _instructions_m(args: list[str], env: dict[str, str]) -> float:
    """Millions of instructions of one whole process (cachegrind's ``I refs``)."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=env, cwd=ROOT)
    line = next(x for x in done.stderr.splitlines() if "I   refs" in x or "I refs" in x)
    return int(line.split(":")[1].replace(",", "").strip()) / 1e6


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def first_answer(env: dict[str, str], request: Any) -> dict[str, float]:
    """Seconds from starting ``route18xx serve`` to its first SolveRoutes answer and to
    the service's SERVING readiness."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    port, http_port = _free_port(), _free_port()
    # Retry every 5 ms: gRPC's default reconnect backoff (1 s) would hide the real time.
    options = [("grpc.initial_reconnect_backoff_ms", 5), ("grpc.min_reconnect_backoff_ms", 5),
               ("grpc.max_reconnect_backoff_ms", 10)]
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", MAIN, "serve", "--port", str(port), "--http-port", str(http_port)],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out: dict[str, float] = {}
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
            stub = pb_grpc.RouteServiceStub(channel)  # type: ignore[no-untyped-call]
            while "answer_s" not in out:
                try:
                    stub.SolveRoutes(request, timeout=10)
                    out["answer_s"] = time.perf_counter() - started
                    out.update(_tree_cpu_s(process.pid))
                except grpc.RpcError:
                    time.sleep(0.005)
                if process.poll() is not None or time.perf_counter() - started > 60:
                    raise RuntimeError("route18xx serve gave no answer")
            health = health_pb2_grpc.HealthStub(channel)
            service = health_pb2.HealthCheckRequest(service="route18xx.v1.RouteService")
            while "ready_s" not in out:
                status = health.Check(service, timeout=1).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    out["ready_s"] = time.perf_counter() - started
                elif time.perf_counter() - started > 60:
                    raise RuntimeError("route18xx serve did not get ready")
                else:
                    time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(10)
    return out


def _tree_cpu_s(pid: int) -> dict[str, float]:
    """CPU seconds so far of the server's own process and of it with every process it
    started (forkserver, workers): what the machine spent, whatever the load."""
    import psutil

    server = psutil.Process(pid)
    own = server.cpu_times()
    total = own.user + own.system
    for child in server.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return {"server_cpu_s": own.user + own.system, "tree_cpu_s": total}


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="b4a32ee", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=7, help="cold solves per side")
    parser.add_argument("--serve-rounds", type=int, default=5, help="server starts per side")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each side's instructions once (valgrind)")
    a = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-cold-") as tmp:
        base = unpack(a.base, Path(tmp) / "plain")
        compiled = unpack(a.base, Path(tmp) / "compiled")
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(compiled.parent / "tree")],
                       check=True)
        solve = ["solve", str(STATE)]
        sides = {
            "python -c pass": ([sys.executable, "-c", "pass"], _env(None)),
            "base (no bytecode)": ([sys.executable, "-c", MAIN, *solve], _env(base)),
            "base (with bytecode)": ([sys.executable, "-c", MAIN, *solve], _env(compiled)),
            "new (as installed)": ([sys.executable, "-c", MAIN, *solve], _env(None)),
        }
        cpu: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(a.rounds):
            for name, (args, env) in sides.items():
                cpu[name].append(_cpu_ms(args, env))
        instructions = {name: round(_instructions_m(args, env), 1)
                        for name, (args, env) in sides.items()} if a.instructions else {}

        from route18xx.server.convert import converters

        request = converters.solve_request_to_proto(json.loads(STATE.read_text())["state"])
        servers = {"base": _env(compiled), "new": _env(None)}
        starts: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
        for _ in range(a.serve_rounds):
            for name, env in servers.items():
                starts[name].append(first_answer(env, request))

    summary: dict[str, Any] = {
        "base": a.base, "state": STATE.name,
        "solve_cpu_ms": {name: {"median": _median(v), "min": round(min(v), 1),
                                "runs": [round(x, 1) for x in v]} for name, v in cpu.items()},
        "solve_instructions_m": instructions,
        "serve": {name: {
            "first_answer_ms": _median([r["answer_s"] * 1000 for r in runs]),
            "ready_ms": _median([r["ready_s"] * 1000 for r in runs]),
            "server_cpu_ms": _median([r["server_cpu_s"] * 1000 for r in runs]),
            "tree_cpu_ms": _median([r["tree_cpu_s"] * 1000 for r in runs]),
            "first_answer_runs_ms": [round(r["answer_s"] * 1000) for r in runs],
        } for name, runs in starts.items() if runs},
    }
    write_summary("cold_side_by_side.json", summary)
    print(f"cold `route18xx solve {STATE.name}`, CPU ms (user + sys), median of {a.rounds}:")
    for name, row in summary["solve_cpu_ms"].items():
        print(f"  {name:24s} {row['median']:7.1f}   (min {row['min']})")
    if instructions:
        print("instructions of the same process, millions (valgrind):")
        for name, count in instructions.items():
            print(f"  {name:24s} {count:7.1f}")
    print(f"`route18xx serve` (workers, HTTP on), wall ms, median of {a.serve_rounds}:")
    for name, row in summary["serve"].items():
        print(f"  {name:6s} first SolveRoutes answer {row['first_answer_ms']:7.1f}   "
              f"ready (SERVING) {row['ready_ms']:7.1f}   CPU by the first answer: server "
              f"{row['server_cpu_ms']:.0f}, with its workers {row['tree_cpu_ms']:.0f}")


if __name__ == "__main__":
    main()
