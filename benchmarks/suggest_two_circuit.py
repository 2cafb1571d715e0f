"""SuggestMoves on two-circuit companies at hard boards (issue 21: within 1 s).

A suggestion solves one board per candidate move, so it costs about
(candidates solved) × (the board's solve time). For worst-6D, worst-56,
real-128097-798 (D + D) and the fullest real board (129026-728) with D + D and
6 + D, ``engine.api.suggest_moves`` runs in process (its default two threads);
printed per case: wall clock, process CPU (every thread) and the counts.

    .venv/bin/python -m benchmarks.suggest_two_circuit
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def cases() -> list[tuple[str, dict[str, Any]]]:
    boards = ROOT / "tests" / "data" / "boards"
    out = [(name, json.loads((boards / f"{name}.json").read_text())["state"])
           for name in ("worst-6D", "worst-56", "real-128097-798-JHR-DD")]
    late = json.loads((ROOT / "tests" / "data" / "states" / "129026-728.json").read_text())["state"]
    for trains in (["D", "D"], ["6", "D"]):
        state = copy.deepcopy(late)
        state["trains"] = trains
        out.append((f"129026-728-{''.join(trains)}", state))
    return out


def main() -> None:
    from route18xx.engine.api import suggest_moves

    for name, state in cases():
        wall, cpu = time.perf_counter(), time.process_time()
        report = suggest_moves(state).to_json()
        print(json.dumps({
            "case": name, "trains": state["trains"],
            "wall_s": round(time.perf_counter() - wall, 2),
            "cpu_s": round(time.process_time() - cpu, 2),
            **{k: report[k] for k in ("candidates", "solved", "reused", "pruned")},
            "not_evaluated": len(report["not_evaluated"]),
        }), flush=True)


if __name__ == "__main__":
    main()
