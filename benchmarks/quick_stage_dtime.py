"""How much deterministic time CP-SAT's first stage gets in 40 ms of CPU (issue 21).

``SolveOptions.quick_stage_dtime`` (solver/tuning.py) replaced a 40 ms wall-clock first stage by
a deterministic budget, so that the same request does the same work under any
load. This measures the conversion on the two-circuit boards of
``tests/data/boards``: each model's first stage is run with a 40 ms wall-clock
limit alone, and its deterministic time and process CPU are printed, with the
median. Run on a quiet machine:

    .venv/bin/python -m benchmarks.quick_stage_dtime
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from route18xx.engine.api import solve_routes
from route18xx.solver import DEFAULT_OPTIONS, search

BOARDS = Path(__file__).resolve().parents[1] / "tests" / "data" / "boards"
WALL_S = 0.04


def main() -> None:
    seen: list[tuple[str, float, float]] = []
    original = search._search
    name = ""

    def measuring(built: Any, time_limit_s: float, workers: int, seed: int, cancel: Any,
                  *rest: Any) -> Any:
        from ortools.sat.python import cp_model_helper

        if built.linearization == 2 and not built.listed_routes:
            wrapper = cp_model_helper.SolveWrapper()
            wrapper.set_parameters(search._parameters(WALL_S, workers, seed, 0, None))
            cpu = time.process_time()
            response = wrapper.solve(built.model.proto())
            seen.append((name, response.deterministic_time, time.process_time() - cpu))
        return original(built, time_limit_s, workers, seed, cancel, *rest)

    search._search = measuring  # type: ignore[assignment]
    try:
        for path in sorted(BOARDS.glob("*.json")):
            board = json.loads(path.read_text())
            name = path.stem
            solve_routes(board["state"], time_limit_s=60.0)
    finally:
        search._search = original  # type: ignore[assignment]
    for board_name, dtime, cpu in seen:
        print(f"{board_name:40} dtime {dtime:.4f}  cpu {cpu * 1000:.1f} ms")
    print(f"{len(seen)} boards: median dtime {statistics.median(d for _, d, _ in seen):.4f} "
          f"at median cpu {statistics.median(c for _, _, c in seen) * 1000:.1f} ms "
          f"(quick_stage_dtime = {DEFAULT_OPTIONS.quick_stage_dtime})")


if __name__ == "__main__":
    main()
