"""Fast partial answers: a 20 ms budget on two-circuit boards (issue 21, item 5).

For each board of the given folders whose trains are two circuits on the commit
issue 21 started from (D + D, 5 + D, 6 + D; 5 + 6 and 6 + 6 whose routes were
too many to list), the engine's checked answer with ``time_limit_s=0.02``
(``engine.optimize``: parsed state → routes re-checked by the engine) is timed
in this process (wall clock and process CPU, median of 3) and compared with the
proven optimum (a 60 s solve). Prints per board and the summary: the slowest
answer, the median and worst gap below the optimum.

    .venv/bin/python -m benchmarks.partial_answers tests/data/boards [MORE_FOLDERS]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BUDGET_S = 0.02


def measure(path: Path) -> dict[str, Any] | None:
    from route18xx.engine.optimize import optimize
    from route18xx.engine.state_file import parse_state

    board = json.loads(path.read_text())
    trains = "".join(sorted(board["state"]["trains"]))
    if "D" not in trains and trains not in ("56", "66"):
        return None
    state = parse_state(board["state"])
    best = optimize(state, time_limit_s=60.0).solution
    assert best.status == "OPTIMAL"
    optimum = best.revenue + best.subsidy
    walls, cpus, values = [], [], []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        sol = optimize(state, time_limit_s=BUDGET_S).solution
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
        values.append(sol.revenue + sol.subsidy)
    value = min(values)
    return {"trains": trains, "wall_ms": round(statistics.median(walls), 1),
            "cpu_ms": round(statistics.median(cpus), 1), "max_wall_ms": round(max(walls), 1),
            "value": value, "optimum": optimum, "gap_pct": round(100 * (optimum - value) / optimum, 1)}


def main() -> None:
    rows = {}
    for folder in sys.argv[1:]:
        for path in sorted(Path(folder).glob("*.json")):
            row = measure(path)
            if row is not None:
                rows[path.stem] = row
                print(path.stem, json.dumps(row), flush=True)
    gaps = [r["gap_pct"] for r in rows.values()]
    print(json.dumps({
        "boards": len(rows), "budget_ms": BUDGET_S * 1000,
        "median_wall_ms": statistics.median(r["wall_ms"] for r in rows.values()),
        "max_median_wall_ms": max(r["wall_ms"] for r in rows.values()),
        "max_cpu_ms": max(r["cpu_ms"] for r in rows.values()),
        "median_gap_pct": statistics.median(gaps), "worst_gap_pct": max(gaps),
        "exact": sum(g == 0 for g in gaps),
    }))


if __name__ == "__main__":
    main()
