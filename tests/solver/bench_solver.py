"""Solver-only timing: reduce + build + search, per problem (not a pytest module).

Run: ``python -m tests.solver.bench_solver [--method auto|circuit] [--reps N]``.
It times generated grid boards and, when the engine can build them, the real
1888 states under ``tests/data/states`` (the engine is only used here to turn
states into problems; the solver never imports it). Prints median / p95 /
max of the per-problem median, then the slowest problems.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from route18xx.solver import RouteProblem, solve
from tests.solver.boards import grid_problem

STATES = Path(__file__).resolve().parent.parent / "data" / "states"


def real_problems() -> dict[str, RouteProblem]:
    try:
        from route18xx.engine.answer.problem_builder import build_problem
        from route18xx.engine.inputs.state_file import parse_state
    except ImportError:
        return {}
    return {
        p.stem: build_problem(parse_state(json.loads(p.read_text("utf-8"))["state"])).problem
        for p in sorted(STATES.glob("*.json"))
    }


def generated_problems() -> dict[str, RouteProblem]:
    shapes = [(5, 5, (None,)), (5, 5, (None, None)), (5, 5, (4, 4, 4, 4)), (6, 6, (6, 6, 5)),
              (6, 6, (None, 4, 4))]
    return {f"grid{r}x{c}{d}": grid_problem(r, c, d, seed=1) for r, c, d in shapes}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--method", default="auto", choices=["auto", "circuit"])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    for label, problems in (("real", real_problems()), ("generated", generated_problems())):
        if not problems:
            continue
        times: dict[str, float] = {}
        for name, problem in problems.items():
            runs = []
            for _ in range(args.reps):
                started = time.perf_counter()
                sol = solve(problem, method=args.method, time_limit_s=30.0)
                runs.append((time.perf_counter() - started) * 1000)
            assert sol.status == "OPTIMAL", (name, sol.status)
            times[name] = statistics.median(runs)
        ordered = sorted(times.values())
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"{label}: {len(ordered)} problems, median {statistics.median(ordered):.2f} ms, "
              f"p95 {p95:.2f} ms, max {ordered[-1]:.2f} ms")
        for name in sorted(times, key=times.__getitem__, reverse=True)[:5]:
            print(f"  {name:28s} {times[name]:9.2f} ms")


if __name__ == "__main__":
    main()
