"""A real Prometheus scrapes ``route18xx serve`` and reads a counter back (issue 23).

Debian's ``prometheus`` (installed by ``.ci/run`` when missing) runs on loopback with a
temporary configuration and data folder, scraping the server's ``/metrics`` every second;
the test sends a known number of GetInfo calls and asks Prometheus's HTTP query API for
the counter. Skipped, with the reason, where the ``prometheus`` binary is absent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import grpc
import pytest

from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.server.abuse import free_port
from tests.server.test_serve_settings import CLI, ROOT, _env

PROMETHEUS = shutil.which("prometheus")
CALLS = 3

pytestmark = pytest.mark.skipif(
    PROMETHEUS is None,
    reason="Debian's prometheus is not installed (apt-get install prometheus; .ci/run does)",
)


def _query(port: int, promql: str) -> list[dict[str, Any]]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    with urllib.request.urlopen(url, timeout=5) as answer:
        body = json.loads(answer.read())
    assert body["status"] == "success", body
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def _stop(process: subprocess.Popen[Any]) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def test_prometheus_scrapes_the_server_and_reads_a_counter(tmp_path: Path) -> None:
    assert PROMETHEUS is not None
    grpc_port, http_port, prom_port = free_port(), free_port(), free_port()
    server = subprocess.Popen(
        [*CLI, "serve", "--port", str(grpc_port), "--http-port", str(http_port), "--threads",
         "--workers", "1"],
        cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
        "scrape_configs:\n  - job_name: route18xx\n"
        f"    static_configs:\n      - targets: ['127.0.0.1:{http_port}']\n",
        encoding="utf-8",
    )
    # Prometheus boots while the server does; its first scrapes may find nothing yet.
    prometheus = subprocess.Popen(
        [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
         f"--web.listen-address=127.0.0.1:{prom_port}", "--log.level=warn"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            stub = pb_grpc.RouteServiceStub(channel)
            for _ in range(CALLS):
                stub.GetInfo(pb.GetInfoRequest(), timeout=10)
        query = ('sum(route18xx_calls_total{job="route18xx",method="GetInfo",'
                 'transport="grpc",code="OK"})')
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert prometheus.poll() is None, "prometheus exited"
            try:
                seen = _query(prom_port, query)
            except (urllib.error.URLError, ConnectionError):
                seen = []  # not listening yet
            if seen and float(seen[0]["value"][1]) == CALLS:
                break
            time.sleep(0.5)
        assert seen, "Prometheus never stored the counter"
        assert float(seen[0]["value"][1]) == CALLS
        up = _query(prom_port, 'up{job="route18xx"}')
        assert [float(s["value"][1]) for s in up] == [1.0]
    finally:
        _stop(prometheus)
        _stop(server)
