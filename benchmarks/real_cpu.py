"""Real decisions in process CPU, this tree beside another checkout (issue 21).

Wall-clock percentiles move several-fold with the machine's load (``side_by_side``);
process CPU moves less. Each real state of ``tests/data/states`` is solved warm
(``engine.api.solve_routes``, decoded dict → checked answer) 5 times and its median
CPU kept; p50 / p95 / max over the states, and the two-train states apart (the
ones the pair scan of ``solver/listing/pairs.py`` answers), for this tree and the other
in alternating fresh processes:

    .venv/bin/python -m benchmarks.real_cpu OTHER_CHECKOUT [rounds]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.shared import ROOT, median_ms


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    n = len(ordered)
    return {"p50": round(ordered[n // 2], 3), "p95": round(ordered[int(0.95 * (n - 1))], 3),
            "max": round(ordered[-1], 3)}


def measure() -> dict[str, Any]:
    from route18xx.engine.api import solve_routes

    states = {p.stem: json.loads(p.read_text())["state"]
              for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))}
    for raw in states.values():
        solve_routes(raw)
    per_state: dict[str, float] = {}
    for name, raw in states.items():
        per_state[name], _ = median_ms(lambda: solve_routes(raw), 5, clock=time.process_time)
    two = [v for n, v in per_state.items() if len(states[n]["trains"]) == 2]
    return {"states": len(per_state), "all": _percentiles(list(per_state.values())),
            "two_trains": {"states": len(two), **_percentiles(two)}}


def main() -> None:
    other = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for r in range(rounds):
        for label, tree in (("this", ROOT), ("other", other)):
            env = {**os.environ, "PYTHONPATH": f"{tree / 'proto'}{os.pathsep}{ROOT}"}
            out = subprocess.run(
                [sys.executable, "-c", "from benchmarks.real_cpu import measure; "
                 "import json; print(json.dumps(measure()))"],
                env=env, cwd=ROOT, check=True, capture_output=True, text=True)
            print(f"round {r} {label}: {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
