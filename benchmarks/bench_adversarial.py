"""The adversarial search, CI-sized (issue 21, item 2): part of ``make bench``.

Grows one board per seed of ``benchmarks.adversarial.CI_SEEDS`` (base, runner and
two-train set drawn independently), climbs each by two legal moves kept only if
they slow the current solver down, and re-times the slowest board found: it must
be proven within the issue's 250 ms of process CPU. Writes
``.benchmarks/adversarial_summary.json``. The long run is documented in the
README (``python -m benchmarks.adversarial grow ...``).
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from benchmarks.adversarial import CI_SEEDS, search, solve_cpu
from benchmarks.shared import write_summary

#: The issue's bound for every hard board, in ms of process CPU.
TARGET_MS = 250.0


def test_adversarial_ci(benchmark: Any) -> None:
    found: list[dict[str, Any]] = []

    def run() -> None:
        found[:] = search(CI_SEEDS, 2, 3, None)

    benchmark.pedantic(run, rounds=1, iterations=1)
    worst = found[0]
    again = [solve_cpu(worst["state"]) for _ in range(3)]
    median = statistics.median(r["cpu_ms"] for r in again)
    summary = {"seeds": f"{CI_SEEDS.start}:{CI_SEEDS.stop}", "worst_seed": worst["meta"]["seed"],
               "worst_trains": "+".join(worst["meta"]["trains"]),
               "worst_cpu_ms": round(median, 1), "status": again[0]["status"]}
    benchmark.extra_info.update(summary)
    write_summary("adversarial_summary.json", summary)
    print("\nadversarial_summary.json:", json.dumps(summary))
    assert again[0]["status"] == "OPTIMAL"
    assert median <= TARGET_MS, summary
