"""The pair scan's bound on and off, side by side in one process (issue 21, item 2).

    .venv/bin/python -m benchmarks.bench_pair_bound FOLDER [OTHER_CHECKOUT] [--rounds 6]

Each board of FOLDER (as ``benchmarks.adversarial grow`` writes them) is solved to a
proven optimum (``engine.optimize``, objective total) with this tree's pair scan as it
is ("bound"), with its pair bound off ("off": ``PairBound`` replaced by one that bounds
nothing, so no route is skipped by it), and, given another checkout, with that
checkout's ``solver/listing/pairvector.py`` scan ("base"; the rest of the solver is this
tree's). One process, warmed up as a server is; per board one solve untimed, then
``--rounds`` rounds whose order rotates through every order of the variants, each solve
after emptying the solver's caches and a full garbage collection (so Python's
once-in-a-while collection lands in no solve). Process CPU, median per board. Printed:
per board the medians, and per pair of variants the median of the per-board ratios, the
worst board and the sums, over all boards and over those that reach the numpy scan (the
only ones where the bound runs). Every variant must reach the same optimum.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import inspect
import itertools
import json
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import Any


class _NoBound:
    """``PairBound`` that bounds nothing: every route's bound beats any pair."""

    def __init__(self, *_: Any) -> None:
        pass

    def bounds(self, weights: Any, *_: Any) -> Any:
        return weights + (1 << 40)


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("base_pairvector", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(folder: Path, other: Path | None, rounds: int) -> dict[str, Any]:
    """Per board the median CPU of each variant, and the summaries."""
    from route18xx.engine.api import warm_up
    from route18xx.engine.answer.optimize import optimize
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver import clear_caches
    from route18xx.solver.listing import pairvector

    warm_up()
    scans: dict[str, Any] = {"bound": pairvector.scan, "off": pairvector.scan}
    if other is not None:
        scans["base"] = _load(other / "solver" / "pairvector.py").scan
    real_bound = pairvector.PairBound
    reached: set[str] = set()

    def use(variant: str) -> None:
        scan = scans[variant]

        takes = inspect.signature(scan).parameters  # an older scan takes no ``cancel``

        def counted(*args: Any, **kwargs: Any) -> Any:
            reached.add(current)
            return scan(*args, **{k: v for k, v in kwargs.items() if k in takes})

        pairvector.scan = counted
        pairvector.PairBound = _NoBound if variant == "off" else real_bound  # type: ignore[misc,assignment]

    variants = list(scans)
    orders = list(itertools.permutations(variants))
    table: dict[str, dict[str, float]] = {}
    try:
        for path in sorted(folder.glob("*.json")):
            current = path.stem
            state = parse_state(json.loads(path.read_text())["state"])
            use("off")
            clear_caches()
            optimize(state, time_limit_s=60)  # untimed: the board's first sight
            times: dict[str, list[float]] = {v: [] for v in variants}
            optima = set()
            for r in range(rounds):
                for variant in orders[r % len(orders)]:
                    use(variant)
                    clear_caches()
                    gc.collect()
                    started = time.process_time()
                    sol = optimize(state, time_limit_s=60).solution
                    times[variant].append((time.process_time() - started) * 1000)
                    optima.add((sol.revenue + sol.subsidy, sol.status))
            assert len(optima) == 1, (path.stem, optima)
            table[path.stem] = {v: round(statistics.median(t), 1) for v, t in times.items()}
            print(path.stem, table[path.stem], "numpy scan" if path.stem in reached else "",
                  flush=True)
    finally:
        pairvector.scan = scans["bound"]
        pairvector.PairBound = real_bound  # type: ignore[misc]
    summary: dict[str, Any] = {"boards": len(table), "reach_numpy_scan": len(reached)}
    for a, b in itertools.combinations(variants, 2):
        for label, names in (("all", list(table)), ("numpy", sorted(reached))):
            if not names:
                continue
            ratios = [table[n][a] / max(table[n][b], 0.1) for n in names]
            worst_a = max(names, key=lambda n: table[n][a])
            worst_b = max(names, key=lambda n: table[n][b])
            summary[f"{a}/{b} {label}"] = {
                "median_ratio": round(statistics.median(ratios), 3),
                "worst": [table[worst_a][a], worst_a, table[worst_b][b], worst_b],
                "sum_ms": [round(sum(table[n][a] for n in names)),
                           round(sum(table[n][b] for n in names))],
                "over_1.2x": sum(r > 1.2 for r in ratios),
                "under_0.8x": sum(r < 0.8 for r in ratios)}
    return {"summary": summary, "boards": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("other", type=Path, nargs="?")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    for key, value in run(args.folder, args.other, args.rounds)["summary"].items():
        print(key, json.dumps(value))


if __name__ == "__main__":
    main()
