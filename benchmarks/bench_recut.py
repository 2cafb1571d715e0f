"""The pair scan's recut point, two values side by side in one process (issue 21).

    .venv/bin/python -m benchmarks.bench_recut FOLDER [A,B] [--rounds 4]

``solver/listing/pairvector.py`` cuts its bitsets to a route's window of partners once the
window is ``SolveOptions.recut_eighths`` eighths of their width or less. Each board of FOLDER (as
``benchmarks.adversarial grow`` writes them) gets its whole answer
(``engine.api.solve_report``) with ``recut_eighths`` = A and = B, alternating which goes
first, each solve after emptying the solver's caches and a full garbage collection.
Process CPU, median per board; printed: the median of the per-board ratios B / A, the
sums, the worst boards and the six boards slowest with A. Both values must give the
same answer (revenue, subsidy) on every board.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path
from typing import Any


def compare(folder: Path, values: tuple[int, int], rounds: int) -> dict[str, Any]:
    import route18xx.solver as solver
    from dataclasses import replace

    from route18xx.engine.answer import tuning
    from route18xx.engine.api import solve_report, warm_up

    warm_up()
    table: dict[str, dict[int, float]] = {}
    for path in sorted(folder.glob("*.json")):
        state = json.loads(path.read_text())["state"]
        times: dict[int, list[float]] = {v: [] for v in values}
        answers = set()
        for r in range(rounds):
            for value in values if r % 2 == 0 else values[::-1]:
                tuning.SOLVE_OPTIONS = replace(solver.DEFAULT_OPTIONS, recut_eighths=value)
                solver.clear_caches()
                gc.collect()
                started = time.process_time()
                report = solve_report(state)
                times[value].append(time.process_time() - started)
                answers.add((report.revenue, report.subsidy))
        assert len(answers) == 1, (path.name, answers)
        tuning.SOLVE_OPTIONS = solver.DEFAULT_OPTIONS
        table[path.stem] = {v: statistics.median(t) * 1000 for v, t in times.items()}
    a, b = values
    return {
        "boards": len(table),
        "median_ratio": round(statistics.median(r[b] / r[a] for r in table.values()), 3),
        "sum_ms": [round(sum(r[v] for r in table.values())) for v in values],
        "worst": [max((round(r[v], 1), k) for k, r in table.items()) for v in values],
        "slowest": {k: {v: round(t, 1) for v, t in r.items()}
                    for k, r in sorted(table.items(), key=lambda kv: -kv[1][a])[:6]},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("values", nargs="?", default="4,7")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    a, b = (int(v) for v in args.values.split(","))
    print(json.dumps(compare(args.folder, (a, b), args.rounds), indent=1))


if __name__ == "__main__":
    main()
