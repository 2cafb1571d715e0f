"""Solve benchmarks (issue 3): every real decision and generated worst cases.

Each benchmark measures, in a warm process, what ``solve_ms`` reports: from a
parsed state to the checked answer (graph, reduction, model, solve, re-check).
``test_summary`` prints the median / p95 / worst over all real states with the
model size, and writes them to ``.benchmarks/solve_summary.json``.

Run: ``make bench`` (or ``.venv/bin/python -m pytest benchmarks/bench_solve.py --benchmark-only``).
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest

from benchmarks.conftest import real_states, worst_cases
from benchmarks.shared import median_ms, percentile, write_summary
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import parse_state

REAL = real_states()
WORST = worst_cases()


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_state(benchmark: Any, name: str) -> None:
    state = parse_state(REAL[name])
    opt = benchmark(optimize, state, objective="total")
    assert opt.solution.status == "OPTIMAL"


@pytest.mark.parametrize("name", sorted(WORST))
def test_worst_case(benchmark: Any, name: str) -> None:
    state = parse_state(WORST[name])
    opt = benchmark.pedantic(optimize, args=(state,), kwargs={"objective": "total"},
                             rounds=5, iterations=1)
    benchmark.extra_info["status"] = opt.solution.status
    benchmark.extra_info["revenue"] = opt.judgement.revenue


def test_build_problem(benchmark: Any) -> None:
    state = parse_state(REAL["129026-728"])
    benchmark(build_problem, state)


def test_summary(benchmark: Any) -> None:
    """Median / p95 / worst of the per-state median over 5 runs, plus model sizes."""
    per_state: dict[str, float] = {}
    sizes: dict[str, Any] = {}
    statuses = set()

    def run_all() -> None:
        for name, raw in REAL.items():
            state = parse_state(raw)
            per_state[name], opt = median_ms(lambda: optimize(state, objective="total"), 5)
            statuses.add(opt.solution.status)
            s = opt.solution.stats
            sizes[name] = (s.segments_before, s.segments_after, s.arcs,
                           opt.solution.listed_routes)

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    values = list(per_state.values())
    summary = {
        "states": len(values),
        "statuses": sorted(statuses),
        "median_ms": round(statistics.median(values), 3),
        "p95_ms": round(percentile(values, 0.95), 3),
        "worst_ms": round(max(values), 3),
        "worst_state": max(per_state, key=per_state.__getitem__),
        "median_segments_before": statistics.median(v[0] for v in sizes.values()),
        "median_segments_after": statistics.median(v[1] for v in sizes.values()),
        "median_circuit_arcs": statistics.median(v[2] for v in sizes.values()),
        "median_listed_routes": statistics.median(v[3] for v in sizes.values()),
    }
    benchmark.extra_info.update(summary)
    write_summary("solve_summary.json", summary)
    print("\nsolve summary:", json.dumps(summary))
