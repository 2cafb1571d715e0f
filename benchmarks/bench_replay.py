"""Whole-log replay benchmarks (issue 5): the shared 18xx.games logs, start to finish.

* Without solving: every kept action processed and every recorded run_routes
  judged by the engine (``engine.replay.replay``). Target ≤ 2 s per log.
* With the optimum at every run_routes (``server.cli_replay.api_solver()``, as
  ``route18xx replay`` does by default). Target ≤ 30 s per log.
* The board from a log (``engine.api.state_from_log``): the replay up to the
  last run_routes, with the turn facts, as a ``game_log`` request costs.

``test_summary`` prints the figures and writes ``.benchmarks/replay_summary.json``.

Run: ``make bench`` (or ``.venv/bin/python -m pytest benchmarks/bench_replay.py
--benchmark-only -s``).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any, Callable

import pytest

from benchmarks.conftest import ROOT
from benchmarks.shared import write_summary
from route18xx.engine.api import state_from_log
from route18xx.engine.replay.replay import ReplayResult, load_log, replay
from route18xx.server.commands.cli_replay import api_solver

LOGS = ("129026", "1888_game_end_bankrupt")
LOGS_DIR = ROOT / "tests" / "data" / "logs"
#: Targets in seconds, per log.
NO_SOLVE_TARGET_S = 2.0
SOLVE_TARGET_S = 30.0

_LOADED: dict[str, dict[str, Any]] = {}


def _log(name: str) -> dict[str, Any]:
    if name not in _LOADED:
        _LOADED[name] = load_log(LOGS_DIR / f"{name}.json")
    return _LOADED[name]


def _check(result: ReplayResult, solved: bool) -> None:
    assert result.completed and not result.errors, result.errors[:3]
    assert result.runs
    for run in result.runs:
        assert run.check.legal
        if solved:
            assert run.optimum is not None and run.optimum.proven_optimal
            assert run.optimum.revenue + run.optimum.subsidy >= (
                run.check.engine_revenue + run.check.engine_subsidy
            )


def _replay_plain(name: str) -> ReplayResult:
    return replay(_log(name))


def _replay_solved(name: str) -> ReplayResult:
    return replay(_log(name), solve=api_solver())


def _last_run(name: str) -> int:
    return max(
        int(a["id"]) for a in _log(name)["actions"] if a.get("type") == "run_routes"
    )


@pytest.mark.parametrize("name", LOGS)
def test_replay_without_solving(benchmark: Any, name: str) -> None:
    result = benchmark(_replay_plain, name)
    _check(result, solved=False)
    benchmark.extra_info.update(actions=result.actions_processed, run_routes=len(result.runs))
    assert benchmark.stats.stats.median <= NO_SOLVE_TARGET_S


@pytest.mark.parametrize("name", LOGS)
def test_replay_with_the_optimum(benchmark: Any, name: str) -> None:
    result = benchmark.pedantic(_replay_solved, args=(name,), rounds=3, iterations=1)
    _check(result, solved=True)
    benchmark.extra_info.update(actions=result.actions_processed, run_routes=len(result.runs))
    assert benchmark.stats.stats.median <= SOLVE_TARGET_S


@pytest.mark.parametrize("name", LOGS)
def test_state_from_log_at_the_last_run(benchmark: Any, name: str) -> None:
    action_id = _last_run(name)
    state = benchmark(state_from_log, _log(name), action_id)
    assert state.trains


def _timed(fn: Callable[[], Any], rounds: int) -> tuple[list[float], Any]:
    times, value = [], None
    for _ in range(rounds):
        started = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - started)
    return times, value


def test_summary(benchmark: Any) -> None:
    """Median seconds per whole-log replay, without and with the optimum; the targets."""
    rows: dict[str, dict[str, Any]] = {}

    def run_all() -> None:
        for name in LOGS:
            plain_s, plain = _timed(lambda: _replay_plain(name), 5)
            solved_s, solved = _timed(lambda: _replay_solved(name), 3)
            state_s, _ = _timed(lambda: state_from_log(_log(name), _last_run(name)), 5)
            _check(plain, solved=False)
            _check(solved, solved=True)
            solve_ms = [r.optimum.solve_ms for r in solved.runs if r.optimum is not None]
            rows[name] = {
                "actions": plain.actions_processed,
                "run_routes": len(plain.runs),
                "no_solve_median_s": round(statistics.median(plain_s), 3),
                "with_optimum_median_s": round(statistics.median(solved_s), 3),
                "solve_ms_median": round(statistics.median(solve_ms), 2),
                "solve_ms_max": round(max(solve_ms), 2),
                "better_than_recorded": sum(
                    1 for r in solved.runs
                    if r.optimum is not None
                    and r.optimum.revenue + r.optimum.subsidy
                    > r.check.recorded_revenue + r.check.recorded_subsidy
                ),
                "state_from_log_last_run_ms": round(statistics.median(state_s) * 1000, 1),
            }

    benchmark.pedantic(run_all, rounds=1, iterations=1)
    summary = {
        "cores": os.cpu_count(),
        "targets_s": {"no_solve": NO_SOLVE_TARGET_S, "with_optimum": SOLVE_TARGET_S},
        "logs": rows,
    }
    benchmark.extra_info.update(summary)
    write_summary("replay_summary.json", summary)
    print("\nreplay summary (median per whole log):")
    print(
        f"  {'log':<24} {'actions':>7} {'runs':>4} {'no solve s':>10} {'optimum s':>9} "
        f"{'solve ms med/max':>16} {'better':>6} {'state@last ms':>13}"
    )
    for name, row in rows.items():
        print(
            f"  {name:<24} {row['actions']:>7} {row['run_routes']:>4} "
            f"{row['no_solve_median_s']:>10.3f} {row['with_optimum_median_s']:>9.3f} "
            f"{row['solve_ms_median']:>7.2f}/{row['solve_ms_max']:<8.2f} "
            f"{row['better_than_recorded']:>6} {row['state_from_log_last_run_ms']:>13.1f}"
        )
    for name, row in rows.items():
        assert row["no_solve_median_s"] <= NO_SOLVE_TARGET_S, (name, row)
        assert row["with_optimum_median_s"] <= SOLVE_TARGET_S, (name, row)
