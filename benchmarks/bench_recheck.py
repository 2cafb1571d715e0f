"""The re-check and the typed report of first-seen answers, this tree vs another checkout
in ONE process (issue 21).

    .venv/bin/python -m benchmarks.bench_recheck OTHER_CHECKOUT [rounds]

What ``bench_first_seen --parts`` calls "re-check" (``route_judge.judge_routes`` on
each solve's routes) and "typed report" (``optimize.typed_report``, with
``explain.route_breakdown``), on exactly the calls the 123 real states' answers make:
each answer is solved once to record them, then every round replays them on boards
built afresh (a board seen first: its chains unread; the problem built before, as in
an answer), this tree's and the other checkout's copies of ``route_judge``,
``route_rebuild``, ``explain`` and ``optimize`` alternating answer by answer, so the
machine's load touches both alike. Process CPU; medians per answer over the states
and rounds, and the median over rounds of the ratio of the totals (this / other).
"""

from __future__ import annotations

import inspect
import json
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from benchmarks.bench_first_seen import _other  # another checkout's copy of a module

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Side:
    """One tree's re-check and report: the judge, the report and the breakdown it calls."""

    judge: Callable[..., Any]
    report: Callable[..., Any]
    breakdown: Callable[..., Any]


def _sides(checkout: Path) -> dict[str, Side]:
    import route18xx.engine.answer.explain as explain
    import route18xx.engine.answer.optimize as optimize
    import route18xx.engine.routes.route_judge as route_judge

    rebuild = _other(checkout, "engine/routes/route_rebuild.py")
    judge = _other(checkout, "engine/routes/route_judge.py")
    judge.rebuild_route = rebuild.rebuild_route  # type: ignore[attr-defined]
    other_explain = _other(checkout, "engine/answer/explain.py")
    report = _other(checkout, "engine/answer/optimize.py")
    return {
        "this": Side(route_judge.judge_routes, optimize.typed_report, explain.route_breakdown),
        "other": Side(judge.judge_routes, report.typed_report, other_explain.route_breakdown),
    }


def _recorded() -> list[list[tuple[Any, ...]]]:
    """Per real state, the judge and report calls of its first-seen answer, in order."""
    import route18xx.engine.answer.objectives as objectives
    import route18xx.engine.answer.prepared as whatif
    import route18xx.engine.answer.solve_answer as answer
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    answers: list[list[tuple[Any, ...]]] = []
    judge, report = whatif.judge_routes, answer.typed_report

    def judged(state: Any, specs: Any, *args: Any, **kwargs: Any) -> Any:
        answers[-1].append(("judge", state, tuple(specs)))
        return judge(state, specs, *args, **kwargs)

    def reported(state: Any, opt: Any, objective: str, routes: Any = None) -> Any:
        # ``routes``: the answer reuses the route reports of its previous report
        answers[-1].append(("report", state, opt, objective, routes is not None))
        return report(state, opt, objective, routes)

    whatif.judge_routes, answer.typed_report = judged, reported  # type: ignore[assignment]
    objectives.typed_report = reported  # type: ignore[assignment]
    try:
        for path in sorted((ROOT / "tests" / "data" / "states").glob("*.json")):
            answers.append([])
            solver.clear_caches()
            solve_report(json.loads(path.read_text())["state"])
    finally:
        whatif.judge_routes, answer.typed_report = judge, report  # type: ignore[assignment]
        objectives.typed_report = report  # type: ignore[assignment]
    return answers


def _fresh(answer: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The answer's calls on a board seen first (its problem built, untimed)."""
    from route18xx.engine.board.board import Board
    from route18xx.engine.answer.problem_builder import build_problem

    boards: dict[int, Any] = {}
    out = []
    for call in answer:
        state = call[1]
        board = boards.get(id(state.board))
        if board is None:
            old = state.board
            board = boards[id(old)] = Board(old.placed, old.tokens, old.data)
            build_problem(replace(state, board=board))
        out.append((call[0], replace(state, board=board), *call[2:]))
    return out


def _run(side: Side, calls: list[tuple[Any, ...]]) -> tuple[float, float]:
    """CPU seconds of the judge calls and of the report calls of one answer."""
    import route18xx.engine.answer.explain as explain

    real = explain.route_breakdown
    explain.route_breakdown = side.breakdown  # the reports import it when called
    reuses = "routes" in inspect.signature(side.report).parameters
    judged = reported = 0.0
    last: Any = None
    made: Any = None
    try:
        for call in calls:
            if call[0] == "judge":
                c0 = time.process_time()
                last = side.judge(call[1], call[2])
                judged += time.process_time() - c0
            else:
                opt = replace(call[2], judgement=last)  # this side's judged routes
                c0 = time.process_time()
                if reuses and call[4]:  # a tree that reuses the previous report's routes
                    made = side.report(call[1], opt, call[3], made.routes)
                else:
                    made = side.report(call[1], opt, call[3])
                reported += time.process_time() - c0
    finally:
        explain.route_breakdown = real
    return judged, reported


def measure(checkout: Path, rounds: int = 10) -> dict[str, float]:
    sides = _sides(checkout)
    answers = _recorded()
    per: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    totals: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    for r in range(rounds):
        boards = {label: [_fresh(a) for a in answers] for label in sides}
        sums = {label: [0.0, 0.0] for label in sides}
        for i in range(len(answers)):
            order = ["this", "other"] if (i + r) % 2 else ["other", "this"]
            for label in order:
                judged, reported = _run(sides[label], boards[label][i])
                per[label].append((judged, reported))
                sums[label][0] += judged
                sums[label][1] += reported
        for label in sides:
            totals[label].append((sums[label][0], sums[label][1]))
    out: dict[str, float] = {}
    for label in sides:
        out[f"{label}_recheck_ms"] = round(statistics.median(j for j, _ in per[label]) * 1000, 4)
        out[f"{label}_report_ms"] = round(statistics.median(t for _, t in per[label]) * 1000, 4)
        out[f"{label}_both_ms"] = round(statistics.median(j + t for j, t in per[label]) * 1000, 4)
    pairs = list(zip(totals["this"], totals["other"]))
    out["ratio_recheck"] = round(statistics.median(a[0] / b[0] for a, b in pairs), 3)
    out["ratio_report"] = round(statistics.median(a[1] / b[1] for a, b in pairs), 3)
    out["ratio_both"] = round(statistics.median(sum(a) / sum(b) for a, b in pairs), 3)
    return out


def main() -> None:
    checkout = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    found = measure(checkout, rounds)
    for label in ("this", "other"):
        print(f"{label:6} re-check {found[f'{label}_recheck_ms']:.4f}  typed report "
              f"{found[f'{label}_report_ms']:.4f}  both {found[f'{label}_both_ms']:.4f} "
              "ms (median per answer, process CPU)")
    print(f"ratio this/other (median over rounds): re-check {found['ratio_recheck']:.3f}  "
          f"typed report {found['ratio_report']:.3f}  both {found['ratio_both']:.3f}")


if __name__ == "__main__":
    main()
