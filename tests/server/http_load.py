"""Looping HTTP senders beside cheap gRPC calls (issue 20's body reproducers, tests and benchmarks).

``cheap_calls_while`` starts 4 client *processes* that POST one body to a real
``route18xx serve`` in a loop (processes, not threads: the senders' Python must
not slow the measuring gRPC client) and times cheap gRPC solves meanwhile.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.server.abuse import REPO, ServerProcess, solve_request, state, timed
from tests.server.http_calls import SERVICE

SOLVE = f"{SERVICE}/SolveRoutes"

#: One abusing client: POSTs the body in file argv[2] to argv[1] in a loop, prints each code.
ABUSER = """
import sys
from tests.server.http_calls import post
body = open(sys.argv[2], "rb").read()
headers = dict(h.split("=", 1) for h in sys.argv[3:])
while True:
    answer = post(sys.argv[1], "%s", body, headers)
    print(answer.code, answer.seconds, answer.message.replace(chr(10), " "), flush=True)
""" % SOLVE


def p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[int(0.99 * (len(ordered) - 1))]


def cheap_calls_while(
    served: ServerProcess, service: Any, body: bytes, headers: dict[str, str], tmp: Path,
    calls: int = 60, senders: int = 4, gap_s: float = 0.05,
) -> tuple[list[float], list[str]]:
    """Latencies of ``calls`` cheap gRPC solves while ``senders`` processes POST ``body`` in a loop.

    The calls are ``gap_s`` apart, so the senders run for a set time (at least
    ``calls * gap_s`` seconds, after 1 s to get going) however fast the calls are.
    Returns the latencies and the senders' answer lines (code, seconds, message).
    """
    path = tmp / f"body-{len(body)}"
    path.write_bytes(body)
    cheap = solve_request(state("129026-138"))
    args = [f"{k}={v}" for k, v in headers.items()]
    abusers = [
        subprocess.Popen([sys.executable, "-c", ABUSER, served.http_url, str(path), *args],
                         cwd=REPO, stdout=subprocess.PIPE, text=True)
        for _ in range(senders)
    ]
    latencies = []
    try:
        time.sleep(1.0)
        for _ in range(calls):
            _, error, took = timed(service.SolveRoutes, cheap, timeout=10)
            assert error is None, error.details()
            latencies.append(took)
            time.sleep(gap_s)
    finally:
        for abuser in abusers:
            abuser.kill()
    lines = [line for abuser in abusers for line in abuser.communicate()[0].splitlines()]
    return latencies, lines
