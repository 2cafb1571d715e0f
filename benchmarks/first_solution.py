"""Two trains' first solution: the beam's pair against the sample's (issue 35, the 20 ms answer).

    .venv/bin/python -m benchmarks.first_solution [--widths 500,1000,2000] FOLDER...

For each two-train board of each FOLDER with an unlimited train (``{"state": ...,
"meta": {"reference": {"total": ...}}}`` files; boards without a reference are solved
first, 60 s, proven), in this process and warmed up: the best pair of a beam of the numpy
listing (``solver.listing.pairs.beam_pair``) at each width, and the pair of the sampled
routes (``greedy_routes`` without a beam, ``SolveOptions.greedy_steps_per_s`` at 20 ms),
as a share of the optimum, with process CPU (ms). Prints per board and, per width, the
median and worst share and the boards below 97 %.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any


def measure(path: Path, widths: list[int]) -> dict[str, Any] | None:
    """One board's shares of the optimum and CPU per method (None: not two trains with a D)."""
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver import solve
    from route18xx.solver.graph.reduce import reduce_problem
    from route18xx.solver.listing.greedy import greedy_routes
    from route18xx.solver.listing.pairs import beam_pair
    from route18xx.solver.model.model import Instance
    from route18xx.solver.tuning import DEFAULT_OPTIONS

    board = json.loads(path.read_text())
    trains = board["state"]["trains"]
    if len(trains) != 2 or "D" not in trains:
        return None
    problem = build_problem(parse_state(board["state"])).problem
    optimum = board["meta"].get("reference", {}).get("total")
    if optimum is None:
        optimum = solve(problem, time_limit_s=60.0).objective
    instance = Instance.make(problem, reduce_problem(problem), "total")
    weight = instance.route_weight
    row: dict[str, Any] = {"trains": "".join(trains), "optimum": optimum}
    c0 = time.process_time()
    sampled = greedy_routes(instance, int(0.02 * DEFAULT_OPTIONS.greedy_steps_per_s))
    row["sample"] = (sum(weight(r.stops) for r in sampled.values()) / optimum,
                     (time.process_time() - c0) * 1000)
    for width in widths:
        c0 = time.process_time()
        pair = beam_pair(instance, width)
        cpu = (time.process_time() - c0) * 1000
        value = 0 if pair is None else sum(weight(r.stops) for r in pair.values())
        row[str(width)] = (value / optimum, cpu)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--widths", default="500,1000,2000")
    args = parser.parse_args()
    from route18xx.engine.api import warm_up

    warm_up()
    widths = [int(w) for w in args.widths.split(",")]
    rows = {}
    for folder in args.folders:
        for path in sorted(folder.glob("*.json")):
            row = measure(path, widths)
            if row is None:
                continue
            rows[path.stem] = row
            shares = "  ".join(f"{k} {100 * v[0]:.1f}% {v[1]:.1f} ms" for k, v in row.items()
                               if isinstance(v, tuple))
            print(f"{path.stem[:40]:<40} {row['trains']} {row['optimum']}  {shares}", flush=True)
    for method in ["sample", *map(str, widths)]:
        shares = [r[method][0] for r in rows.values()]
        cpus = [r[method][1] for r in rows.values()]
        print(f"{method}: {len(shares)} boards, share median {100 * statistics.median(shares):.1f}% "
              f"worst {100 * min(shares):.1f}%, below 97 %: {sum(s < 0.97 for s in shares)}; "
              f"CPU median {statistics.median(cpus):.1f} ms, worst {max(cpus):.1f} ms")


if __name__ == "__main__":
    main()
