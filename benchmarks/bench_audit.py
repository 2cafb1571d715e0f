"""Audit throughput (issue 15): runs/s and logs/min on 1 and 2 local workers, and a Dask
cluster's overhead over the local pool, on a corpus of random legal games.

The corpus (``AUDIT_BENCH_LOGS`` games, default 200, seeds 1000…) is generated once into
``.benchmarks/audit-logs`` (or ``AUDIT_BENCH_DIR``) and reused; ``test_summary`` prints the
figures and writes ``.benchmarks/audit_summary.json``.

Run: ``make bench`` (or ``.venv/bin/python -m pytest benchmarks/bench_audit.py
--benchmark-only -s``).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.conftest import ROOT
from benchmarks.shared import write_summary
from route18xx.server.audit.generate import generate_logs
from route18xx.server.audit.runner import AuditOptions, run_audit
from route18xx.server.audit.summary import read_lines

COUNT = int(os.environ.get("AUDIT_BENCH_LOGS", "200"))
FOLDER = Path(os.environ.get("AUDIT_BENCH_DIR", ROOT / ".benchmarks" / "audit-logs"))
FIGURES: dict[str, Any] = {}


def _save() -> None:
    """Written after every benchmark (``--benchmark-only`` skips a plain summary test)."""
    if "local_2" in FIGURES and "dask_2" in FIGURES:
        FIGURES["dask_overhead_pct"] = round(
            100 * (FIGURES["dask_2"]["seconds"] / FIGURES["local_2"]["seconds"] - 1), 1
        )
    write_summary("audit_summary.json", FIGURES)
    print(json.dumps(FIGURES, indent=1))


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    started = time.perf_counter()
    paths = generate_logs(COUNT, 1000, FOLDER, 2, "north", "1888")
    FIGURES["corpus"] = {"logs": len(paths), "generate_s": round(time.perf_counter() - started, 1)}
    return paths


def _audit(paths: list[str], out: Path, **options: Any) -> dict[str, Any]:
    if out.exists():
        out.unlink()
    started = time.perf_counter()
    outcome = run_audit(paths, out, AuditOptions(progress=False, **options))
    seconds = time.perf_counter() - started
    assert not outcome.interrupted and outcome.audited == len(paths)
    lines = read_lines(out)
    runs = sum(1 for x in lines if x["kind"] == "run")
    assert all(x["ok"] for x in lines if x["kind"] == "game")
    return {"logs": len(paths), "runs": runs, "seconds": round(seconds, 2),
            "runs_per_s": round(runs / seconds, 1), "logs_per_min": round(60 * len(paths) / seconds, 1)}


@pytest.mark.parametrize("jobs", [1, 2])
def test_local_pool(benchmark: Any, corpus: list[str], tmp_path: Path, jobs: int) -> None:
    figures = benchmark.pedantic(
        _audit, args=(corpus, tmp_path / "r.jsonl"), kwargs={"jobs": jobs}, rounds=1, iterations=1
    )
    FIGURES[f"local_{jobs}"] = figures
    _save()


def test_dask_cluster(benchmark: Any, corpus: list[str], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    started = time.perf_counter()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        startup = time.perf_counter() - started
        figures = benchmark.pedantic(
            _audit, args=(corpus, tmp_path / "r.jsonl"), kwargs={"cluster": cluster.scheduler_address},
            rounds=1, iterations=1,
        )
    FIGURES["dask_2"] = figures | {"cluster_startup_s": round(startup, 2)}
    _save()
