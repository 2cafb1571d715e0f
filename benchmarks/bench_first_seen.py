"""Parts of a first-seen answer, this tree vs another checkout in ONE process (issue 21).

    .venv/bin/python -m benchmarks.bench_first_seen OTHER_CHECKOUT [rounds]
    .venv/bin/python -m benchmarks.bench_first_seen --parts [runs]

``bench_answer`` measures whole answers in separate processes, where the machine's
load moves the figures by more than a part's gain. This loads the other checkout's
copy of a module beside this tree's (its own imports resolve to this tree) and
times both alternately, round after round, over the 123 real states, each part on
boards built afresh (a board seen first; the game data stays loaded):

* ``build_problem`` (``engine/answer/problem_builder.py``): the company's reach, stops,
  junctions and segments;
* ``route_breakdown`` (``engine/answer/explain.py``): each judged route of every answer's
  solves, priced stop by stop.

It prints each part's median CPU per state on both sides and the median of the
per-round ratios (this / other): process CPU, so the load touches both sides alike.

With ``--parts``: this tree alone, where a first-seen answer's CPU goes (``parts``):
each whole answer (``engine.api.solve_report``, caches emptied before it) with the CPU
of reading the state, its key, building the problem, the solves, the re-check and the
typed reports summed per answer, and the rest of the answer outside them (the glue);
medians over the states and runs.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _other(checkout: Path, module: str) -> ModuleType:
    """The other checkout's copy of ``module`` (a path under the checkout)."""
    name = "other_" + module.replace("/", "_")[:-3]
    spec = importlib.util.spec_from_file_location(name, checkout / module)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found
    spec.loader.exec_module(found)
    return found


def _ab(rounds: int, run: Callable[[ModuleType], float], this: ModuleType,
        other: ModuleType) -> dict[str, float]:
    """Both sides, alternating which goes first; CPU ms per state and the ratio."""
    times: dict[str, list[float]] = {"this": [], "other": []}
    ratios = []
    for r in range(rounds):
        sides = [("this", this), ("other", other)]
        out = {label: run(module) for label, module in (sides if r % 2 else sides[::-1])}
        for label, ms in out.items():
            times[label].append(ms)
        ratios.append(out["this"] / out["other"])
    return {"this_ms": round(statistics.median(times["this"]), 4),
            "other_ms": round(statistics.median(times["other"]), 4),
            "ratio": round(statistics.median(ratios), 3)}


def measure(checkout: Path, rounds: int = 30) -> dict[str, dict[str, float]]:
    import route18xx.engine.answer.explain as explain
    import route18xx.engine.answer.problem_builder as problem_builder
    import route18xx.engine.answer.prepared as whatif
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report
    from route18xx.engine.board.board import Board
    from route18xx.engine.inputs.state_file import RouteState, parse_state

    raws = [json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    judged: list[tuple[RouteState, Any]] = []
    judge = whatif.judge_routes

    def keep(state: RouteState, specs: Any, *args: Any, **kwargs: Any) -> Any:
        found = judge(state, specs, *args, **kwargs)
        judged.append((state, found))
        return found

    whatif.judge_routes = keep  # type: ignore[assignment]
    try:
        for raw in raws:
            solver.clear_caches()
            solve_report(raw)
    finally:
        whatif.judge_routes = judge

    def fresh(state: RouteState) -> RouteState:
        board = state.board
        return replace(state, board=Board(board.placed, board.tokens, board.data))

    def build(module: ModuleType) -> float:
        states = [parse_state(raw) for raw in raws]
        c0 = time.process_time()
        for state in states:
            module.build_problem(state)
        return (time.process_time() - c0) * 1000 / len(raws)

    def breakdowns(module: ModuleType) -> float:
        boards = [(fresh(state), found) for state, found in judged]
        c0 = time.process_time()
        for state, found in boards:
            for route in found.routes:
                module.route_breakdown(state, route)
        return (time.process_time() - c0) * 1000 / len(raws)

    return {
        "build_problem": _ab(rounds, build, problem_builder,
                             _other(checkout, "engine/answer/problem_builder.py")),
        "route_breakdown": _ab(rounds, breakdowns, explain, _other(checkout, "engine/answer/explain.py")),
    }


def parts(runs: int = 3) -> dict[str, float]:
    """Median CPU ms per first-seen answer of each part (``--parts``)."""
    import route18xx.engine.answer.objectives as objectives
    import route18xx.engine.answer.prepared_cache as prepared_cache
    import route18xx.engine.answer.prepared as whatif
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    spent: dict[str, float] = {}

    def timed(module: ModuleType, name: str, part: str) -> None:
        inner = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            c0 = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[part] = spent.get(part, 0.0) + time.process_time() - c0

        setattr(module, name, wrapper)

    timed(prepared_cache, "state_key", "state key")
    timed(prepared_cache, "parse_state", "read the state")
    timed(whatif, "build_problem", "build the problem")
    timed(whatif, "solve", "solver")
    if hasattr(whatif, "solve_both"):  # a lone D's two objectives in one search
        timed(whatif, "solve_both", "solver")
    timed(whatif, "judge_routes", "re-check")
    import route18xx.engine.answer.solve_answer as answer

    timed(answer, "typed_report", "typed report")
    timed(objectives, "typed_report", "typed report")
    raws = [json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    for raw in raws:
        solve_report(raw)
    rows: list[dict[str, float]] = []
    for _ in range(runs):
        for raw in raws:
            solver.clear_caches()
            spent.clear()
            c0 = time.process_time()
            solve_report(raw)
            whole = time.process_time() - c0
            # the rest: the glue of engine/answer/prepared.py, solve_answer.py, objectives.py, api.py, budget.py
            rows.append({"whole answer": whole, **spent, "rest": whole - sum(spent.values())})
    names = ["whole answer", "state key", "read the state", "build the problem", "solver",
             "re-check", "typed report", "rest"]
    return {n: round(statistics.median(r.get(n, 0.0) for r in rows) * 1000, 3) for n in names}


def main() -> None:
    if sys.argv[1] == "--parts":
        for part, ms in parts(int(sys.argv[2]) if len(sys.argv) > 2 else 3).items():
            print(f"{part:18} {ms:.3f} ms (median per answer)")
        return
    checkout = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    for part, figures in measure(checkout, rounds).items():
        print(f"{part:16} this {figures['this_ms']:.4f} ms/state  other "
              f"{figures['other_ms']:.4f}  median ratio {figures['ratio']:.3f}")


if __name__ == "__main__":
    main()
