"""Issue 20's "Done when", measured in turn against one real ``route18xx serve``.

    .venv/bin/python -m benchmarks.door_abuse [IDLE [SECONDS]] [-- SERVE ARGS]

Starts ``route18xx serve`` as users run it (two engine workers, the decode
lane, HTTP on, ``--health-port``, a 5 s receive timeout, the default
``--max-http-connections``: a quarter of the open-file limit, at most 1000),
then runs issue 20's reproducers one after the other against that one server,
printing one JSON line per step:

* ``control``: cheap gRPC solves while 4 client processes loop a small body
  refused at once (the yardstick for the next two steps, same pace);
* ``gzip_bomb``: a 1 MB body inflating to 1 GiB, alone (5 times) and looped
  by 4 clients beside cheap gRPC solves; the process tree's memory before and after;
* ``json_4mb``: 4 clients looping 3.5 MB JSON bodies beside cheap gRPC solves;
* ``stalled_one_connection`` / ``stalled_8_connections``: 256 calls that never
  send their message on one connection, then 8 × 32, re-opened as they end,
  while other connections probe health (service port and health port) and
  solve every 0.5 s for SECONDS (default 10) (``benchmarks.stalled_calls``);
* ``idle_http``: IDLE (default 20 000) idle TCP connections to the HTTP port,
  held by two client processes, while a gRPC solve, health on both ports and an
  HTTP solve are timed; the server's open descriptors at the peak;
* ``after``: the process tree's memory (PSS) after all of it, health, alive.

Wall times on a shared 2-core machine are noisy: compare a step with the
``control`` of the same run.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from benchmarks import stalled_calls
from benchmarks.shared import split_serve_args
from tests.server.abuse import REPO, ServerProcess, solve_request, start_server, state, stub, timed
from tests.server.http_calls import JSON, gzip_bomb, post
from tests.server.http_load import SOLVE, cheap_calls_while, p99

#: Holds argv[2] idle connections to 127.0.0.1:argv[1] until its stdin closes.
HOLDER = """
import socket, sys
socks = []
for _ in range(int(sys.argv[2])):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", int(sys.argv[1])))
    socks.append(s)
print("ready", flush=True)
sys.stdin.read()
"""


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def _latencies(values: list[float]) -> dict[str, float]:
    return {"median_ms": _ms(statistics.median(values)), "p99_ms": _ms(p99(values)),
            "max_ms": _ms(max(values))}


def _print(step: str, **figures: Any) -> None:
    print(json.dumps({"step": step, **figures}), flush=True)


def _health(target: str) -> str:
    with grpc.insecure_channel(target) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=5)
        except grpc.RpcError as exc:
            return str(exc.code().name)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status))


def _fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def bodies(served: ServerProcess, service: Any, tmp: Path) -> None:
    gzip_headers = {"Content-Type": JSON, "Content-Encoding": "gzip"}
    control, lines = cheap_calls_while(served, service, b"not gzip", gzip_headers, tmp)
    _print("control", senders_answered=len(lines), **_latencies(control))

    bomb = gzip_bomb(1 << 30)
    first = post(served.http_url, SOLVE, bomb, gzip_headers)
    alone = [post(served.http_url, SOLVE, bomb, gzip_headers).seconds for _ in range(5)]
    before = served.rss_mib()
    latencies, lines = cheap_calls_while(served, service, bomb, gzip_headers, tmp)
    after = served.rss_mib()
    _print("gzip_bomb", body_bytes=len(bomb), answer=[first.status, first.code, first.message],
           alone_ms=[_ms(s) for s in alone], senders_answered=len(lines),
           pss_mib_before=round(before, 1), pss_mib_after=round(after, 1),
           **_latencies(latencies))

    raw = state("129026-743")
    raw["trains"] = ["D"] * 700_000
    body = json.dumps({"state": raw}).encode()
    latencies, lines = cheap_calls_while(served, service, body, {"Content-Type": JSON}, tmp)
    _print("json_4mb", body_bytes=len(body), senders_answered=len(lines),
           answers=sorted({" ".join(line.split()[:1]) for line in lines}),
           **_latencies(latencies))


def stalled(served: ServerProcess, seconds: float) -> None:
    targets = {"health": served.target, "health_port": served.health_target}
    for step, calls, connections in (("stalled_one_connection", 256, 1),
                                     ("stalled_8_connections", 32, 8)):
        result = asyncio.run(stalled_calls.measure(targets, calls, seconds, connections))
        _print(step, **result)


def idle_http(served: ServerProcess, service: Any, idle: int) -> None:
    assert served.http_port is not None
    holders = [subprocess.Popen([sys.executable, "-c", HOLDER, str(served.http_port),
                                 str(idle // 2 + idle % 2 * (i == 0))],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for i in range(2)]
    started = time.monotonic()
    peak_fds = 0
    try:
        for holder in holders:
            assert holder.stdout is not None
            assert holder.stdout.readline().strip() == "ready"
        opened_s = time.monotonic() - started
        for _ in range(10):
            peak_fds = max(peak_fds, _fds(served.process.pid))
            time.sleep(0.1)
        _, error, grpc_s = timed(service.SolveRoutes, solve_request(state("129026-138")),
                                 timeout=5)
        health, health_port = _health(served.target), _health(served.health_target)
        answer = post(served.http_url, SOLVE,
                      json.dumps({"state": state("129026-138")}).encode(),
                      {"Content-Type": JSON}, timeout=5)
        peak_fds = max(peak_fds, _fds(served.process.pid))
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
    log_lines = served.log_path.read_text(errors="replace").count("accept")
    _print("idle_http", connections=idle, opened_s=round(opened_s, 1),
           server_fds_peak=peak_fds, grpc_solve=[error is None, _ms(grpc_s)],
           health=health, health_port=health_port, http_solve=[answer.status, _ms(answer.seconds)],
           accept_error_log_lines=log_lines)


def main() -> None:
    args, serve_args = split_serve_args(sys.argv[1:])
    idle = int(args[0]) if args else 20_000
    seconds = float(args[1]) if len(args) > 1 else 10.0
    for served in start_server("--workers", "2", "--receive-timeout-s", "5", *serve_args,
                               http=True):
        channel, service = stub(served.target)
        service.SolveRoutes(solve_request(state()), timeout=30)  # warm
        _print("start", pss_mib=round(served.rss_mib(), 1), fd_limit=_fd_limit())
        with tempfile.TemporaryDirectory() as tmp:
            bodies(served, service, Path(tmp))
        stalled(served, seconds)
        idle_http(served, service, idle)
        time.sleep(1.0)
        _print("after", pss_mib=round(served.rss_mib(), 1), health=_health(served.target),
               alive=served.alive())
        channel.close()


def _fd_limit() -> int:
    import resource

    return int(resource.getrlimit(resource.RLIMIT_NOFILE)[0])


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main()
