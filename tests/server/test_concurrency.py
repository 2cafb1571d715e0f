"""Many solves at once: every answer is the proven optimum of its own state."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from route18xx.server.commands.client import RouteClient
from tests.conftest import load_json, state_files

CLIENT_THREADS = 8
CALLS = 64


def test_64_concurrent_solves_from_8_clients(server: Any) -> None:
    states = [load_json(p) for p in state_files()[::7]]
    jobs = [states[i % len(states)] for i in range(CALLS)]
    clients = [RouteClient(server.target) for _ in range(CLIENT_THREADS)]

    def run(i: int) -> tuple[int, dict[str, Any]]:
        return i, clients[i % CLIENT_THREADS].solve(jobs[i]["state"], timeout_s=60)

    try:
        with ThreadPoolExecutor(CLIENT_THREADS) as pool:
            results = list(pool.map(run, range(CALLS)))
    finally:
        for c in clients:
            c.close()
    assert len(results) == CALLS
    for i, report in results:
        ref = jobs[i]["reference"]
        assert report["proven_optimal"]
        assert report["corporation"] == jobs[i]["state"]["corporation"]
        assert report["revenue"] + report["subsidy"] == ref["optimal_total"]
