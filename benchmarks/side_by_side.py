"""Real decisions and hard boards, this tree vs another checkout, side by side (issue 11).

    .venv/bin/python -m benchmarks.side_by_side /path/to/other/checkout/proto [rounds]

Runs the same measurement in alternating fresh processes (this tree, then the
other one first on ``PYTHONPATH``), so the machine's load hits both alike, and
prints each round: warm real decisions from the decoded state dict to the
checked answer (p50 / p95 / max of each state's median of 5) and each hard board
(median of 3, parsed state to checked optimum).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure() -> dict[str, object]:
    from route18xx.engine.api import solve_routes

    states = [json.loads(p.read_text())["state"]
              for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    for raw in states:
        solve_routes(raw)
    per_state = []
    for raw in states:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            solve_routes(raw)
            times.append((time.perf_counter() - started) * 1000)
        per_state.append(statistics.median(times))
    per_state.sort()
    n = len(per_state)
    boards = {}
    for path in sorted((ROOT / "tests" / "data" / "boards").glob("*.json")):
        raw = json.loads(path.read_text())["state"]
        times = []
        for _ in range(3):
            started = time.perf_counter()
            solve_routes(raw, time_limit_s=60.0)
            times.append((time.perf_counter() - started) * 1000)
        boards[path.stem] = round(statistics.median(times), 1)
    return {"p50": round(per_state[n // 2], 2), "p95": round(per_state[int(0.95 * (n - 1))], 2),
            "max": round(per_state[-1], 2), "boards_max": max(boards.values()),
            "boards_median": statistics.median(boards.values()), "boards": boards}


def main() -> None:
    other = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for r in range(rounds):
        for label, env in (("this", {}), ("other", {"PYTHONPATH": other})):
            out = subprocess.run(
                [sys.executable, "-c", "from benchmarks.side_by_side import measure; "
                 "import json; print(json.dumps(measure()))"],
                env={**os.environ, **env}, cwd=ROOT, check=True, capture_output=True, text=True)
            result = json.loads(out.stdout)
            boards = result.pop("boards")
            print(f"round {r} {label}: {json.dumps(result)}", flush=True)
            print(f"   boards: {json.dumps(boards)}", flush=True)


if __name__ == "__main__":
    main()
