"""Hard boards grown from fresh seeds, solved by this tree and another checkout (issue 21).

    .venv/bin/python -m benchmarks.fresh_boards grow FIRST_SEED COUNT OUT_DIR
    .venv/bin/python -m benchmarks.fresh_boards time OUT_DIR            # prints JSON

``grow`` keeps boards with a D beside a D, 6 or 5 (the two-circuit ones) from
``benchmarks.grow_boards.grow`` with seeds never used for tests/data/boards;
``time`` solves each (proven, 30 s limit) three times and prints the median of
process CPU in ms, the optimum and the status. Run ``time`` alternately with
``PYTHONPATH=OTHER/proto`` to compare with another checkout.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path


def grow_fresh(first: int, count: int, out: Path) -> None:
    from benchmarks.grow_boards import grow
    from route18xx.engine.answer.optimize import optimize
    from route18xx.engine.inputs.state_file import parse_state

    out.mkdir(parents=True, exist_ok=True)
    written, seed = 0, first
    while written < count and seed < first + 100 * count:
        board = grow(seed)
        seed += 1
        if board is None or "".join(board["meta"]["trains"]) not in ("DD", "6D", "5D"):
            continue
        if optimize(parse_state(board["state"]), time_limit_s=0.5).judgement.revenue == 0:
            continue
        (out / f"{seed - 1}.json").write_text(json.dumps(board))
        written += 1


def time_boards(folder: Path) -> dict[str, tuple[float, int, str]]:
    from route18xx.engine.api import solve_routes

    out = {}
    for path in sorted(folder.glob("*.json")):
        state = json.loads(path.read_text())["state"]
        times, report = [], {}
        for _ in range(3):
            started = time.process_time()
            report = solve_routes(state, time_limit_s=30.0)
            times.append((time.process_time() - started) * 1000)
        out[path.stem] = (round(statistics.median(times), 1),
                          report["revenue"] + report["subsidy"], report["status"])
    return out


if __name__ == "__main__":
    if sys.argv[1] == "grow":
        grow_fresh(int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
    else:
        print(json.dumps(time_boards(Path(sys.argv[2]))))
