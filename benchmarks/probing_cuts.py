"""CP-SAT's probing level on models with circuit cuts, two values in one process (issue 35).

    .venv/bin/python -m benchmarks.probing_cuts [--rounds 2] [--method auto|circuit] \
        [--levels default,1] BOARD_OR_FOLDER...

Each board (``{"state": ...}`` files, or every one of a folder) is solved (objective
total, 60 s, proven) with ``SolveOptions.probing_with_cuts`` at each level ("default":
CP-SAT's own, 2), ``--rounds`` times each, the order rotating, caches emptied before each
solve (``route18xx.solver.clear_caches``), in process CPU. ``--method circuit`` solves
the independent model (CP-SAT's circuits for every train) instead of the solver's own
choice, so that every two-train board exercises the cuts. Prints per board the optimum
and each level's median ms, and the sums.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--method", choices=("auto", "circuit"), default="auto")
    parser.add_argument("--levels", default="default,1")
    args = parser.parse_args()
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.api import warm_up
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver import clear_caches, solve
    from route18xx.solver.tuning import SolveOptions

    warm_up()
    options = {level: SolveOptions(probing_with_cuts=None if level == "default" else int(level))
               for level in args.levels.split(",")}
    boards = [p for path in args.paths
              for p in (sorted(path.glob("*.json")) if path.is_dir() else [path])]
    sums = dict.fromkeys(options, 0.0)
    for path in boards:
        problem = build_problem(parse_state(json.loads(path.read_text())["state"])).problem
        times: dict[str, list[float]] = {level: [] for level in options}
        optima = set()
        for r in range(args.rounds):
            order = list(options) if r % 2 == 0 else list(options)[::-1]
            for level in order:
                clear_caches()
                c0 = time.process_time()
                found = solve(problem, time_limit_s=60.0, options=options[level],
                              method=args.method)
                times[level].append((time.process_time() - c0) * 1000)
                optima.add((found.objective, found.status))
        medians = {level: statistics.median(v) for level, v in times.items()}
        for level, ms in medians.items():
            sums[level] += ms
        print(f"{path.stem[:30]:<30} {sorted(optima)} "
              + " ".join(f"{level} {ms:.0f} ms" for level, ms in medians.items()), flush=True)
    print("sums", {level: round(ms) for level, ms in sums.items()})


if __name__ == "__main__":
    main()
