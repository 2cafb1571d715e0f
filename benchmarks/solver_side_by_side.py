"""The solver's part of first-seen answers, this tree vs another checkout, in ONE process (issue 21).

    .venv/bin/python -m benchmarks.solver_side_by_side OTHER_CHECKOUT [rounds]

``bench_first_seen --parts`` times the solver inside whole answers, one process per
tree, where the machine's load moves a part by more than its gain. This records the
solver calls (``solve``'s problem and arguments) of each first-seen answer of the 123
real states with this tree's engine, loads the other checkout's ``solver`` package
beside this tree's under another name (its source copied with its imports renamed: the
solver imports nothing of the project but itself), and replays both alternately, answer
by answer, each side's caches emptied before each answer (``clear_caches``). Both must
give the same answers (routes, statuses, bounds, listed routes, branches), or it stops.

It prints process CPU per answer (each answer's median over the rounds, then the median,
p95 and max over the answers, and the median of the per-answer ratios this / other), and
the same side by side for three parts, on the arguments they got in this tree:
``reduce_problem`` over the answers' problems, the lone limited trains' ``best_route``
walks (with their steps: the smallest ``max_steps`` each walk completes with) and the
pair listings' ``list_weighed``.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OTHER = "r18other"  # the other checkout's package name here


def load_other(checkout: Path, into: Path) -> ModuleType:
    """The other checkout's ``solver`` as ``r18other.solver`` (a renamed copy in ``into``)."""
    package = into / OTHER / "solver"
    package.mkdir(parents=True)
    (into / OTHER / "__init__.py").write_text("")
    for source in (checkout / "solver").glob("*.py"):
        text = source.read_text().replace("route18xx.solver", f"{OTHER}.solver")
        (package / source.name).write_text(text)
    sys.path.insert(0, str(into))
    import importlib
    return importlib.import_module(f"{OTHER}.solver")


Call = tuple[Any, dict[str, Any]]


def record() -> tuple[list[list[Call]], list[Call], list[Call]]:
    """Per first-seen answer its solves; the lone trains' ``best_route`` calls; the pair
    listings' ``list_weighed`` calls (this tree)."""
    import route18xx.engine.answer.prepared as whatif
    import route18xx.solver as solver
    import route18xx.solver.model.model as model
    import route18xx.solver.listing.pairs as pairs
    from route18xx.engine.api import solve_report

    raws = [json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    answers: list[list[Call]] = []
    walks: list[Call] = []
    listings: list[Call] = []

    def keep(into: list[Call], inner: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            into.append((args, dict(kwargs)))
            return inner(*args, **kwargs)
        return wrapper

    solve, best_route, list_weighed = whatif.solve, model.best_route, pairs.list_weighed

    def solving(problem: Any, **kwargs: Any) -> Any:
        answers[-1].append((problem, {**kwargs, "cancel": None}))
        return solve(problem, **kwargs)

    whatif.solve = solving  # type: ignore[assignment]
    model.best_route = keep(walks, best_route)  # type: ignore[assignment]
    pairs.list_weighed = keep(listings, list_weighed)  # type: ignore[assignment]
    try:
        for raw in raws:
            solver.clear_caches()
            answers.append([])
            solve_report(raw)
    finally:
        whatif.solve, model.best_route, pairs.list_weighed = solve, best_route, list_weighed
    walks = [(args[:8] + (None,) + args[9:], kwargs) for args, kwargs in walks]  # no token
    listings = [(args[:8], {}) for args, _ in listings]
    return answers, walks, listings


def _outcome(solution: Any) -> tuple[Any, ...]:
    return (tuple((r.train, r.stops, r.segments, r.revenue, r.subsidy) for r in solution.routes),
            solution.status, solution.objective, solution.bound, solution.listed_routes,
            solution.stats.branches)


def _ab(rounds: int, items: list[Any], sides: dict[str, Callable[[Any], Any]],
        same: Callable[[Any, Any], bool]) -> dict[str, float]:
    """Each item on both sides, alternating which goes first; CPU ms per item."""
    per: dict[str, list[list[float]]] = {k: [[] for _ in items] for k in sides}
    for r in range(rounds):
        for i, item in enumerate(items):
            order = list(sides) if (r + i) % 2 else list(sides)[::-1]
            out = {}
            for label in order:
                c0 = time.process_time()
                out[label] = sides[label](item)
                per[label][i].append((time.process_time() - c0) * 1000)
            if r == 0 and not same(out["this"], out["other"]):
                raise SystemExit(f"item {i}: the two trees differ")
    med = {k: sorted(statistics.median(v) for v in per[k]) for k in sides}
    ratios = [statistics.median(a) / statistics.median(b)
              for a, b in zip(per["this"], per["other"]) if statistics.median(b) > 0]
    n = len(items)
    figures = {}
    for k in sides:
        figures[f"{k}_p50"] = round(statistics.median(med[k]), 4)
        figures[f"{k}_p95"] = round(med[k][int(0.95 * (n - 1))], 4)
        figures[f"{k}_max"] = round(med[k][-1], 4)
        figures[f"{k}_sum"] = round(sum(med[k]), 2)
    figures["ratio_median"] = round(statistics.median(ratios), 3)
    figures["ratio_sum"] = round(figures["this_sum"] / figures["other_sum"], 3)
    return figures


def _steps(best_route: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The smallest ``max_steps`` with which this walk completes (it is deterministic)."""
    low, high = 0, args[7]
    if best_route(*args[:7], high, *args[8:], **kwargs) is None:
        return high
    while low < high:
        mid = (low + high) // 2
        if best_route(*args[:7], mid, *args[8:], **kwargs) is None:
            low = mid + 1
        else:
            high = mid
    return low


def measure(checkout: Path, rounds: int = 5) -> dict[str, dict[str, float]]:
    import route18xx.solver as this
    import route18xx.solver.listing.bestroute as this_bestroute
    import route18xx.solver.listing.pairwalk as this_pairwalk
    import route18xx.solver.graph.reduce as this_reduce
    import route18xx.solver.search as this_search

    answers, walks, listings = record()
    with tempfile.TemporaryDirectory() as tmp:
        other = load_other(checkout, Path(tmp))
        import importlib
        other_search = importlib.import_module(f"{OTHER}.solver.search")
        other_reduce = importlib.import_module(f"{OTHER}.solver.reduce")
        other_bestroute = importlib.import_module(f"{OTHER}.solver.bestroute")
        other_pairwalk = importlib.import_module(f"{OTHER}.solver.pairwalk")

        def answer(package: ModuleType, search: ModuleType) -> Callable[[list[Call]], Any]:
            def run(calls: list[Call]) -> Any:
                package.clear_caches()
                return [_outcome(search.solve(p, **kw)) for p, kw in calls]
            return run

        def graph(g: Any) -> Any:
            return g.nodes, g.stop_count, [tuple(s) for s in g.segments]

        problems = [p for calls in answers for p, _ in calls]
        figures = {
            "solver, per answer": _ab(rounds, answers, {
                "this": answer(this, this_search), "other": answer(other, other_search)},
                lambda a, b: bool(a == b)),
            "reduce_problem, per problem": _ab(rounds, problems, {
                "this": this_reduce.reduce_problem, "other": other_reduce.reduce_problem},
                lambda a, b: bool(graph(a) == graph(b))),
            "best_route, per walk": _ab(rounds, walks, {
                "this": lambda c: this_bestroute.best_route(*c[0], **c[1]),
                "other": lambda c: other_bestroute.best_route(*c[0], **c[1])},
                lambda a, b: bool(a == b)),
            "list_weighed, per listing": _ab(rounds, listings, {
                "this": lambda c: this_pairwalk.list_weighed(*c[0], **c[1]),
                "other": lambda c: other_pairwalk.list_weighed(*c[0], **c[1])},
                lambda a, b: bool(a == b if a is None or b is None else tuple(a) == tuple(b))),
        }
        figures["best_route steps, all walks"] = {
            "this": sum(_steps(this_bestroute.best_route, *c) for c in walks),
            "other": sum(_steps(other_bestroute.best_route, *c) for c in walks),
            "walks": len(walks)}
    return figures


def main() -> None:
    checkout = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for part, figures in measure(checkout, rounds).items():
        print(f"{part:30} " + "  ".join(f"{k} {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
