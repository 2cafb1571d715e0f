"""Reading a state seen first, this tree beside another checkout (issue 21).

    .venv/bin/python -m benchmarks.bench_read_state OTHER_CHECKOUT [rounds]

The part of a first-seen answer before any problem is built: the state's content key
(``engine.prepared_cache.state_key``) and reading it (``engine.state_file.parse_state``:
the fields, the tiles and tokens on the board, the rules' checks). Each checkout runs
in its own process on its own code; both run at once, round after round, so the
machine's load touches them alike. In each, every one of the 123 real states is read
in an answer's context: caches emptied, the previous state's whole answer run just
before (as in ``bench_first_seen --parts``), then the key and the read timed in process
CPU. It prints each side's median per state (key, read, both) and the median of the
rounds' ratios (this / other).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _measure(runs: int) -> dict[str, float]:
    """This process's checkout: median CPU ms per state of the key, the read and both."""
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report
    from route18xx.engine.answer.prepared_cache import state_key
    from route18xx.engine.inputs.state_file import parse_state

    raws = [json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    for raw in raws:
        solve_report(raw)
    keys: list[float] = []
    reads: list[float] = []
    for _ in range(runs):
        for k, raw in enumerate(raws):
            solver.clear_caches()
            solve_report(raws[k - 1])
            solver.clear_caches()
            c0 = time.process_time()
            state_key(raw)
            c1 = time.process_time()
            parse_state(raw)
            c2 = time.process_time()
            keys.append(c1 - c0)
            reads.append(c2 - c1)
    return {"key": statistics.median(keys) * 1000, "read": statistics.median(reads) * 1000,
            "both": statistics.median(a + b for a, b in zip(keys, reads)) * 1000}


def _start(checkout: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=f"{checkout / 'proto'}{os.pathsep}{checkout}")
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--measure", "2"],
        cwd=checkout, env=env, stdout=subprocess.PIPE, text=True,
    )


def main() -> None:
    if sys.argv[1] == "--measure":
        print(json.dumps(_measure(int(sys.argv[2]))))
        return
    other = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    for _ in range(rounds):
        running = {"this": _start(ROOT), "other": _start(other)}
        for side, proc in running.items():
            out, _ = proc.communicate()
            rows[side].append(json.loads(out))
    for part in ("key", "read", "both"):
        this = [r[part] for r in rows["this"]]
        that = [r[part] for r in rows["other"]]
        print(f"{part:5} this {statistics.median(this):.3f} ms  other {statistics.median(that):.3f} ms"
              f"  median ratio {statistics.median(a / b for a, b in zip(this, that)):.2f}")


if __name__ == "__main__":
    main()
