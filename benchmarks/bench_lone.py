"""A lone unlimited train's whole answers, this tree vs another checkout (issue 21).

    .venv/bin/python -m benchmarks.bench_lone real [OTHER_CHECKOUT] [rounds]
    .venv/bin/python -m benchmarks.bench_lone FOLDER [OTHER_CHECKOUT] [rounds]
    .venv/bin/python -m benchmarks.bench_lone grow FIRST:END FOLDER   # grow lone-D boards

``real``: the real states of ``tests/data/states`` whose company runs one D train
(the slowest real decisions); ``FOLDER``: boards as ``grow`` writes them: the growth
of ``benchmarks/adversarial.py`` (a base state of either rule set and a runner drawn
per seed, 30 legal moves, then 8 more kept only where they slow this tree's solver)
with one D train, the 40 slowest kept. Each round runs this tree, then the other checkout, in fresh processes
(the order alternates between rounds, so the load hits both alike); a process
answers one board of another kind first (imports; and one CP-SAT solve: OR-Tools
loaded), then each board with
the caches of derived data emptied (``route18xx.solver.clear_caches``: a board seen
for the first time) and times ``engine.api.solve_report`` (what ``SolveRoutes``
runs: the answer and, where the board pays a subsidy, the other objective) in
process CPU. Per board: the median over rounds of each tree, the ratio, and both
answers' (total, best revenue), which must agree; the summary gives the median, the
worst board, the median of the per-board ratios and how many boards got more than
1.2x slower or faster.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The one train set drawn (a draw all the same, so the seeds' moves match the growth
#: these boards had as ``adversarial.py grow --trains D`` on branch ``speed2``).
LONE = (("D",),)


def grow(seed: int) -> dict[str, Any]:
    """Board ``seed``: ``benchmarks.adversarial.grow``'s draws and moves, the runner
    holding one D train (the seeds 9900-10029 of the README were grown so)."""
    from benchmarks.adversarial import grow as grow_board

    return grow_board(seed, train_sets=LONE)


def grow_folder(seeds: range, out: Path, climb_steps: int = 8, keep: int = 40) -> None:
    """Grow and climb (``benchmarks.adversarial.search``) a lone-D board per seed; the
    ``keep`` slowest are written to ``out`` (``adv-<seed>-<runner>-D.json``)."""
    from benchmarks.adversarial import search

    search(seeds, climb_steps, keep, out, grow_board=grow)


def _boards(where: str) -> dict[str, dict[str, Any]]:
    """The boards to answer: the real lone-D states, or a folder's grown boards."""
    if where == "real":
        states = {p.stem: json.loads(p.read_text())["state"]
                  for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))}
        return {n: s for n, s in states.items() if list(s["trains"]) == ["D"]}
    return {p.stem: json.loads(p.read_text())["state"] for p in sorted(Path(where).glob("*.json"))}


def measure(where: str) -> dict[str, list[Any]]:
    """Per board: [process CPU ms of the whole answer, its total, the best revenue where
    the answer gives it beside], each board seen first."""
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state

    # Warm-up on another board: the imports, and OR-Tools loaded by a CP-SAT solve.
    warm = json.loads(next((ROOT / "tests" / "data" / "boards").glob("*.json")).read_text())
    solve_report(warm["state"], time_limit_s=60.0)
    solver.solve(build_problem(parse_state(warm["state"])).problem, method="circuit",
                 time_limit_s=1.0)
    out: dict[str, list[Any]] = {}
    for name, state in _boards(where).items():
        solver.clear_caches()
        started = time.process_time()
        report = solve_report(state, time_limit_s=60.0)
        cpu = (time.process_time() - started) * 1000
        # the best revenue: beside the answer where it differs, else the answer's own
        # (``engine/answer/objectives.py``: then the answer is proven optimal for both)
        other = report.to_json().get("objectives", {}).get("revenue", {})
        out[name] = [round(cpu, 2), report.revenue + report.subsidy,
                     other.get("revenue", report.revenue)]
    return out


def _run(checkout: Path | None, where: str) -> dict[str, list[Any]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = f"{(checkout or ROOT) / 'proto'}{os.pathsep}{ROOT}"
    code = ("import json, sys; from benchmarks.bench_lone import measure; "
            "print(json.dumps(measure(sys.argv[1])))")
    done = subprocess.run([sys.executable, "-c", code, where], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True)
    result: dict[str, list[Any]] = json.loads(done.stdout)
    return result


def side_by_side(where: str, other: Path | None, rounds: int) -> dict[str, Any]:
    """Both trees, ``rounds`` alternating fresh processes each; medians per board."""
    trees: list[tuple[str, Path | None]] = [("new", None)] + ([("base", other)] if other else [])
    runs: dict[str, list[dict[str, list[Any]]]] = {label: [] for label, _ in trees}
    for r in range(rounds):
        for label, checkout in trees if r % 2 == 0 else trees[::-1]:
            runs[label].append(_run(checkout, where))
    table: dict[str, dict[str, Any]] = {}
    for name in runs["new"][0]:
        row: dict[str, Any] = {}
        for label, results in runs.items():
            row[f"{label}_ms"] = round(statistics.median(x[name][0] for x in results), 2)
            row[f"{label}_answer"] = results[0][name][1:]
        if other is not None:
            row["ratio"] = round(row["new_ms"] / max(row["base_ms"], 0.01), 2)
            row["same"] = row["new_answer"] == row["base_answer"]
        table[name] = row
    summary: dict[str, Any] = {"boards": len(table), "rounds": rounds}
    for label in runs:
        values = {n: row[f"{label}_ms"] for n, row in table.items()}
        summary[f"{label}_median_ms"] = round(statistics.median(values.values()), 2)
        summary[f"{label}_worst_ms"] = max(values.values())
        summary[f"{label}_worst_board"] = max(values, key=values.__getitem__)
    if other is not None:
        ratios = [row["ratio"] for row in table.values()]
        summary["median_ratio"] = round(statistics.median(ratios), 2)
        summary["slower_1.2x"] = sum(r > 1.2 for r in ratios)
        summary["faster_1.2x"] = sum(r < 1 / 1.2 for r in ratios)
        summary["same_answers"] = all(row["same"] for row in table.values())
    return {"summary": summary, "boards": table}


def main() -> None:
    if sys.argv[1] == "grow":
        first, end = map(int, sys.argv[2].split(":"))
        grow_folder(range(first, end), Path(sys.argv[3]))
        return
    where = sys.argv[1]
    other = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print(json.dumps(side_by_side(where, other, rounds), indent=1))


if __name__ == "__main__":
    main()
