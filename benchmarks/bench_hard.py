"""Speed benchmarks of issue 11: hard boards, cold processes, real-decision percentiles.

* ``test_hard_board``: each hard legal 1888 board of ``tests/data/boards``
  solved to its proven optimum (warm process, parsed state → checked answer);
* ``test_cold_process``: a whole ``route18xx solve`` / ``route18xx check`` as a
  fresh subprocess (interpreter start, imports, solve, print);
* ``test_real_decisions``: every real state of ``tests/data/states`` from the
  decoded state dict to the checked answer (warm): p50 / p95 / max.

Each summary is printed and saved under ``.benchmarks/`` (``hard_summary.json``,
``cold_summary.json``, ``decisions_summary.json``).

Run: ``.venv/bin/python -m pytest benchmarks/bench_hard.py --benchmark-only -s``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.conftest import ROOT, real_states
from route18xx.engine.optimize import optimize
from route18xx.engine.state_file import parse_state

BOARDS = ROOT / "tests" / "data" / "boards"
OPTIMA: dict[str, list[int]] = json.loads((BOARDS / "optima.json").read_text("utf-8"))
STATE = ROOT / "tests" / "data" / "states" / "129026-728.json"
CLI = [sys.executable, "-m", "route18xx.server.cli"]


def _save(name: str, summary: dict[str, Any]) -> None:
    out = ROOT / ".benchmarks"
    out.mkdir(exist_ok=True)
    (out / f"{name}_summary.json").write_text(json.dumps(summary, indent=1))
    print(f"\n{name} summary:", json.dumps(summary))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


_HARD: dict[str, float] = {}


@pytest.mark.parametrize("name", sorted(OPTIMA))
def test_hard_board(benchmark: Any, name: str) -> None:
    raw = json.loads((BOARDS / name).read_text("utf-8"))["state"]
    state = parse_state(raw)
    opt = benchmark.pedantic(optimize, args=(state,), kwargs={"time_limit_s": 60.0},
                             rounds=3, iterations=1)
    assert opt.solution.status == "OPTIMAL"
    assert [opt.solution.revenue, opt.solution.subsidy] == OPTIMA[name]
    _HARD[name] = benchmark.stats.stats.median * 1000
    if len(_HARD) == len(OPTIMA):
        _save("hard", {k: round(v, 1) for k, v in sorted(_HARD.items())}
              | {"max_ms": round(max(_HARD.values()), 1)})


_COLD: dict[str, float] = {}


@pytest.mark.parametrize("command", ["solve", "check"])
def test_cold_process(benchmark: Any, command: str, tmp_path: Path) -> None:
    """``solve STATE`` / ``check STATE ROUTES`` (the recorded routes) in a fresh process."""
    args = [*CLI, command, str(STATE)]
    if command == "check":
        routes = tmp_path / "routes.json"
        recorded = json.loads(STATE.read_text("utf-8"))["reference"]["recorded_routes"]
        routes.write_text(json.dumps(recorded), "utf-8")
        args.append(str(routes))

    def run() -> None:
        subprocess.run(args, check=True, capture_output=True, timeout=120)

    benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    _COLD[command] = benchmark.stats.stats.median * 1000
    if len(_COLD) == 2:
        _save("cold", {f"{k}_median_ms": round(v, 1) for k, v in sorted(_COLD.items())})


def test_real_decisions(benchmark: Any) -> None:
    """Decoded state dict → checked answer for every real state: p50 / p95 / max."""
    states = real_states()
    per_state: dict[str, float] = {}

    def run_all() -> None:
        for name, raw in states.items():
            times = []
            for _ in range(3):
                started = time.perf_counter()
                opt = optimize(parse_state(raw))
                times.append((time.perf_counter() - started) * 1000)
            assert opt.solution.status == "OPTIMAL"
            per_state[name] = statistics.median(times)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    values = list(per_state.values())
    _save("decisions", {
        "states": len(values),
        "p50_ms": round(statistics.median(values), 3),
        "p95_ms": round(_percentile(values, 0.95), 3),
        "max_ms": round(max(values), 3),
        "max_state": max(per_state, key=per_state.__getitem__),
    })
