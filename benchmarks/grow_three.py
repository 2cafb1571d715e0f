"""Three-train boards grown from 1856's national company (issue 36, item 5): the CGR's late
real states (1856_game_end_bank #742 to #919: a 6, a 5 and a D), each grown by random legal
lays of the CGR and climbed against the current solver, written as ``{"state", "meta"}``
files for ``benchmarks/cliff_side_by_side.py``.

    .venv/bin/python -m benchmarks.grow_three --seeds 41000:41030 --climb 10 OUT

Each seed draws its base state, a three-train set of phase D (``TRAIN_SETS``) and 2-10
first lays, then tries ``--climb`` more lays one at a time, keeping one only where the
board's whole answer (first seen, process CPU) is slower. Seeds used are listed in
docs/performance.md: use new ones.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_titles import _grown, real_states

#: Three-train sets of 1856's phase D (the CGR may hold three trains).
TRAIN_SETS = (("6", "5", "D"), ("6", "6", "D"), ("5", "5", "D"), ("6", "D", "D"),
              ("D", "D", "D"), ("6", "6", "5"))
#: The CGR's late real states with three trains.
BASES = ("1856_game_end_bank-742", "1856_game_end_bank-796", "1856_game_end_bank-828",
         "1856_game_end_bank-869", "1856_game_end_bank-898", "1856_game_end_bank-919")


def _answer_ms(state: dict[str, Any]) -> tuple[float, str]:
    """The whole answer's CPU, first seen, and its status."""
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    solver.clear_caches()
    c0 = time.process_time()
    report = solve_report(state, time_limit_s=60.0).to_json()
    return (time.process_time() - c0) * 1000, str(report["status"])


def grow(first: int, end: int, climb: int, out: Path) -> None:
    from route18xx.engine.api import warm_up

    warm_up()
    real = real_states("1856")
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(first, end):
        rng = random.Random(seed)
        base = {k: v for k, v in real[rng.choice(BASES)].items() if k != "train_ids"}
        trains = list(rng.choice(TRAIN_SETS))
        state = dict(_grown("1856", base, rng.randint(2, 10), seed), trains=trains)
        ms, status = _answer_ms(state)
        for move in range(climb):
            tried = dict(_grown("1856", state, 1, seed * 1000 + move), trains=trains)
            tried_ms, tried_status = _answer_ms(tried)
            if tried_ms > ms:
                state, ms, status = tried, tried_ms, tried_status
        meta = {"seed": seed, "trains": trains, "cpu_ms": round(ms, 1), "status": status}
        (out / f"three-{seed}.json").write_text(json.dumps({"state": state, "meta": meta}))
        print(seed, "+".join(trains), round(ms, 1), status, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="41000:41030", help="FIRST:END (END excluded)")
    parser.add_argument("--climb", type=int, default=10)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    first, end = (int(x) for x in args.seeds.split(":"))
    grow(first, end, args.climb, args.out)


if __name__ == "__main__":
    main()
