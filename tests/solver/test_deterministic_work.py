"""The same request does the same work, whatever the machine's load (issue 21, item 3).

Every solver stage is cut by deterministic time or counts (``QUICK_STAGE_DTIME``),
never by the wall clock, which only bounds the call. So five processes each
solving the same hard request three times at once, beside processes burning
every core, give identical
routes, bounds, statuses and CP-SAT branch counts.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

BOARDS = Path(__file__).resolve().parents[1] / "data" / "boards"
#: Two-circuit boards: the ones whose first CP-SAT stage was cut by the wall clock.
HARD = ("worst-6D", "grown-000-TJL-DD")


#: Solves per process: the later ones overlap the other processes' for sure.
REPEATS = 3


def _solve(name: str) -> list[dict[str, Any]]:
    from route18xx.engine.api import solve_routes

    board = json.loads((BOARDS / f"{name}.json").read_text())
    answers = []
    for _ in range(REPEATS):
        report = solve_routes(board["state"], time_limit_s=60.0)
        answers.append({
            "status": report["status"],
            "bound": report["bound"],
            "revenue": report["revenue"],
            "routes": [(r["train"], r["nodes"]) for r in report["routes"]],
            "branches": report["stats"]["branches"],
            "conflicts": report["stats"]["conflicts"],
        })
    return answers


def _burn(stop: Any) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


@pytest.mark.parametrize("name", HARD)
def test_five_parallel_solves_beside_a_cpu_burner_do_the_same_work(name: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    burners = [ctx.Process(target=_burn, args=(stop,), daemon=True)
               for _ in range((os.cpu_count() or 1) + 1)]
    for burner in burners:
        burner.start()
    try:
        with ctx.Pool(5) as pool:
            answers = [a for batch in pool.map(_solve, [name] * 5) for a in batch]
    finally:
        stop.set()
        for burner in burners:
            burner.join(timeout=10)
    first = answers[0]
    assert first["status"] == "OPTIMAL" and first["branches"] > 0
    assert all(a == first for a in answers), answers
