"""What-if trains (issue 14 item 5): one call with four train sets against four calls.

The one call parses the state and builds its ``RouteProblem`` once, then solves
each set on it (a set equal to the state's own trains reuses the main answer);
four calls parse, build and solve four times. Both give the same optima
(``tests/engine/test_explain.py`` checks each alternative against its own solve).

Run: ``.venv/bin/python -m pytest benchmarks/bench_explain.py --benchmark-only``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from benchmarks.conftest import real_states
from route18xx.engine.api import solve_report

REAL = real_states()
#: A phase-5 board with the mine: four train sets a company could hold there.
NAME = "129026-352"
SETS = [["4", "5"], ["5", "5"], ["4", "4"], ["5"]]


def one_call(state: dict[str, Any]) -> Any:
    return solve_report({**state, "trains": SETS[0]}, train_sets=SETS, objectives=False)


def four_calls(state: dict[str, Any]) -> Any:
    return [solve_report({**state, "trains": s}, objectives=False) for s in SETS]


@pytest.mark.benchmark(group="what-if: 4 train sets")
def test_one_call_with_four_sets(benchmark: Any) -> None:
    report = benchmark(one_call, REAL[NAME])
    assert len(report.alternatives) == 4


@pytest.mark.benchmark(group="what-if: 4 train sets")
def test_four_calls(benchmark: Any) -> None:
    reports = benchmark(four_calls, REAL[NAME])
    assert len(reports) == 4


def test_one_call_is_faster_than_four() -> None:
    """Side by side, best of 15 each (a warm process)."""
    state = REAL[NAME]
    one_call(state), four_calls(state)  # warm up
    best = {}
    for name, fn in (("one", one_call), ("four", four_calls)):
        times = []
        for _ in range(15):
            started = time.perf_counter()
            fn(state)
            times.append(time.perf_counter() - started)
        best[name] = min(times)
    assert best["one"] < best["four"], best
    alternatives = one_call(state).alternatives
    for alt, alone in zip(alternatives, four_calls(state)):
        assert (alt.revenue, alt.subsidy) == (alone.revenue, alone.subsidy)
