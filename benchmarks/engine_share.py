"""The engine's share of a real decision, phase by phase (issue 11).

    .venv/bin/python -m benchmarks.engine_share [runs]

Over every real state of ``tests/data/states``, warm: ``parse_state``,
``build_problem``, ``judge_routes`` (the engine's re-check of the solver's
routes, solved once beforehand) and ``typed_report(...).to_json()``; each
state's median of ``runs`` (default 7), then p50 / p95 / max across states.
The solver's part (reduce, model, CP-SAT) is left out. The machine's load moves
these figures: compare runs made side by side.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from route18xx.engine.answer.optimize import optimize, typed_report
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.routes.route_judge import judge_routes
from route18xx.engine.inputs.state_file import parse_state

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("parse", "build", "judge", "report", "engine")


def measure(runs: int) -> dict[str, list[float]]:
    """Each phase → every state's median time in ms, sorted."""
    states = [json.loads(p.read_text())["state"]
              for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    optima = [optimize(parse_state(raw)) for raw in states]
    medians: dict[str, list[float]] = {k: [] for k in PHASES}
    for raw, opt in zip(states, optima):
        times: dict[str, list[float]] = {k: [] for k in PHASES}
        for _ in range(runs):
            t0 = time.perf_counter()
            state = parse_state(raw)
            t1 = time.perf_counter()
            build_problem(state)
            t2 = time.perf_counter()
            judge_routes(state, opt.specs)
            t3 = time.perf_counter()
            typed_report(state, opt, "total").to_json()
            t4 = time.perf_counter()
            for k, v in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)):
                times[k].append(v * 1000)
        for k in PHASES:
            medians[k].append(statistics.median(times[k]))
    return {k: sorted(v) for k, v in medians.items()}


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    for phase, ms in measure(runs).items():
        n = len(ms)
        print(f"{phase:7} p50 {ms[n // 2]:.3f}  p95 {ms[int(0.95 * (n - 1))]:.3f}  max {ms[-1]:.3f} ms")


if __name__ == "__main__":
    main()
