"""The same request does the same work, whatever the machine's load (issue 21, item 3).

Every solver stage is cut by deterministic time or counts (``QUICK_STAGE_DTIME``),
never by the wall clock, which only bounds the call; the stages are chosen from
the request's ``time_limit_s``, not from what is left of a deadline that several
solves share (``engine.budget``). So five processes solving the same hard
``SolveRoutes`` answer at the same moment, beside a process burning a core, give
identical routes, statuses, bounds and CP-SAT branch counts, for every solve of
the answer.

The board is a two-D board whose search runs both stages (a first one without
the LP, cut at ``QUICK_STAGE_DTIME``, then one with circuit cuts): with the
former 40 ms wall-clock cut its branch counts changed with the load. The request
also asks for a second train set, so the answer makes two solves on one budget.
"""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

BOARDS = Path(__file__).resolve().parents[1] / "data" / "boards"
#: A two-circuit board whose search runs both stages (about 0.2 s of CPU).
HARD = "grown-040-ZDR-DD"
PROCESSES = 5


def _answer(barrier: Any, out: Any) -> None:
    out.put(_solve(barrier))


def _solve(barrier: Any) -> dict[str, Any]:
    from route18xx.engine.api import solve_report

    state = json.loads((BOARDS / f"{HARD}.json").read_text())["state"]
    barrier.wait()  # the five solves run at the same moment
    report = solve_report(state, time_limit_s=60.0, train_sets=[["D"]]).to_json()
    alternative = report["alternatives"][0]
    return {
        "status": report["status"],
        "bound": report["bound"],
        "revenue": report["revenue"],
        "subsidy": report["subsidy"],
        "routes": [(r["train"], r["nodes"]) for r in report["routes"]],
        "alternative": [(r["train"], r["nodes"]) for r in alternative["routes"]],
        "solves": [{k: v for k, v in s.items() if not k.endswith("_ms")}
                   for s in report["stats"]["solves"]],
    }


def _burn(stop: Any) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def test_five_parallel_answers_beside_a_cpu_burner_do_the_same_work() -> None:
    import route18xx.engine.objectives  # noqa: F401  (the answer's modules, before the fork)
    import route18xx.engine.whatif  # noqa: F401
    from route18xx.engine.api import warm_up

    warm_up()  # OR-Tools and the 1888 data loaded too: a forked child imports nothing,
    # so no import lock another thread held at the fork can stop it

    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    burner = ctx.Process(target=_burn, args=(stop,), daemon=True)
    burner.start()
    barrier = ctx.Barrier(PROCESSES)
    out = ctx.Queue()
    solvers = [ctx.Process(target=_answer, args=(barrier, out)) for _ in range(PROCESSES)]
    try:
        for solver in solvers:
            solver.start()
        answers = [out.get(timeout=120) for _ in solvers]
    finally:
        stop.set()
        for process in [burner, *solvers]:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    first = answers[0]
    assert first["status"] == "OPTIMAL"
    assert [s["purpose"] for s in first["solves"]] == ["answer", "train_sets[0]"]
    assert first["solves"][0]["branches"] > 0  # a real search, both stages
    assert all(a == first for a in answers), answers
