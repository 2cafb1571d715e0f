"""Issue 20's reproducer 5: 4 × 4 MB JSON bodies over HTTP against cheap gRPC calls, side by side.

    .venv/bin/python -m benchmarks.json_bodies [CALLS [ROUNDS]] [-- SERVE ARGS]
    .venv/bin/python -m benchmarks.json_bodies --parsers h11,httptools [CALLS [ROUNDS]]

Starts a real ``route18xx serve`` (two engine workers, HTTP on, plus any SERVE
ARGS) and, ROUNDS times (default 3) in turn, times CALLS cheap gRPC solves
(default 100) while 4 client processes POST in a loop either a small JSON
body refused at the same point (``{"state": 5}``: the control) or a 3.7 MB
body of 700 000 train names (refused by the JSON value limit). Prints one JSON
line per run: the cheap calls' median and p99 (ms), the senders' answers, and
the CPU seconds (``/proc``: user + system) the server process and its other
processes (forkserver, engine and decode workers) spent meanwhile. Wall
latencies on a shared machine are noisy: compare the runs of one invocation.

``--parsers A,B`` starts one server per HTTP parser (``--http-parser``), all up
at once, and runs each round on each in turn (side by side); each line names
its ``parser``. The server process's CPU seconds are the figure to compare.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.shared import split_serve_args
from tests.server.abuse import _tree, solve_request, start_server, state, stub
from tests.server.http_calls import JSON
from tests.server.http_load import cheap_calls_while, p99

TICKS = 100.0  # clock ticks per second in /proc/<pid>/stat (Linux's USER_HZ)


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu(root: int) -> dict[int, float]:
    return {pid: cpu_s(pid) for pid in _tree(root)}


def large_body() -> bytes:
    raw = state("129026-743")
    raw["trains"] = ["D"] * 700_000
    return json.dumps({"state": raw}).encode()


def main() -> None:
    args, serve_args = split_serve_args(sys.argv[1:])
    parsers: list[str | None] = [None]
    if args[:1] == ["--parsers"]:
        parsers, args = list(args[1].split(",")), args[2:]
    calls = int(args[0]) if args else 100
    rounds = int(args[1]) if len(args) > 1 else 3
    bodies = {"control": b'{"state": 5}', "4MB": large_body()}
    with contextlib.ExitStack() as stack:
        servers = []
        for parser in parsers:
            extra = [] if parser is None else ["--http-parser", parser]
            starting = start_server("--workers", "2", *serve_args, *extra, http=True)
            served = next(starting)
            stack.callback(starting.close)
            channel, service = stub(served.target)
            stack.callback(channel.close)
            service.SolveRoutes(solve_request(state()), timeout=30)  # warm
            servers.append((parser, served, service))
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(rounds):
                for name, body in bodies.items():
                    for parser, served, service in servers:
                        _run(parser, served, service, name, body, calls, Path(tmp))


def _run(parser: str | None, served: Any, service: Any, name: str, body: bytes, calls: int,
         tmp: Path) -> None:
    """One step: cheap gRPC calls while 4 clients send ``body``; one JSON line."""
    root = served.process.pid
    before = tree_cpu(root)
    latencies, lines = cheap_calls_while(
        served, service, body, {"Content-Type": JSON}, tmp, calls=calls)
    after = tree_cpu(root)
    spent = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
    print(json.dumps({
        **({} if parser is None else {"parser": parser}),
        "senders": name, "body_bytes": len(body), "calls": calls,
        "median_ms": round(statistics.median(latencies) * 1000, 1),
        "p99_ms": round(p99(latencies) * 1000, 1),
        "answers": dict(Counter(line.split()[0] for line in lines)),
        "cpu_s_server": round(spent.get(root, 0.0), 2),
        "cpu_s_others": round(sum(v for p, v in spent.items() if p != root), 2),
        "rss_mib": round(served.rss_mib()),
    }), flush=True)


if __name__ == "__main__":
    main()
