"""The engine's own work on 1888, this tree vs another checkout, in CPU seconds (issue 25:
"1888 no slower" after the title seam).

    .venv/bin/python -m benchmarks.seam_side_by_side /path/to/other/checkout [rounds]

Each round runs ``measure`` in a fresh process of each tree, alternating, and prints the
process CPU time (``time.process_time``, so the shared machine's load matters less than
for wall time) of: a whole replay of log 129026 (tile lays, tokens, routes), and
``suggest_turn`` (no train advice) on 12 of its real states with Heng Shan player-owned.
Deterministic counts and a digest of the ranked scores come with it: they must be equal
between the trees (same behaviour), only the seconds may differ.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def measure() -> dict[str, Any]:
    from route18xx.engine.api import load_log, replay, suggest_turn

    log = load_log(ROOT / "tests" / "data" / "logs" / "129026.json")
    started = time.process_time()
    replay(log)
    replay_cpu = time.process_time() - started
    paths = sorted((ROOT / "tests" / "data" / "states").glob("129026-*.json"))[::6][:12]
    states = [dict(json.loads(p.read_text())["state"], heng_shan_player_owned=True) for p in paths]
    states = [dict(s, cash=s.get("cash", 400)) for s in states]
    suggest_turn(states[0], trains=False)  # warm: OR-Tools imported, data loaded
    started = time.process_time()
    reports = [suggest_turn(s, trains=False, top=3) for s in states]
    turn_cpu = time.process_time() - started
    scores = repr([[p.score for p in r.plans] for r in reports])
    return {
        "replay_cpu_s": round(replay_cpu, 3),
        "suggest_turn_cpu_s": round(turn_cpu, 3),
        "lay_boards": sum(r.lay_boards for r in reports),
        "candidates": sum(r.candidates for r in reports),
        "solves": sum(r.solves for r in reports),
        "scores_digest": hashlib.sha1(scores.encode()).hexdigest()[:12],
    }


def main() -> None:
    other = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    trees = (("this", ROOT), ("other", other))
    seen: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
    for r in range(rounds):
        for label, tree in trees:
            env = {**os.environ, "PYTHONPATH": f"{tree / 'proto'}{os.pathsep}{tree}"}
            out = subprocess.run(
                [sys.executable, "-c", "from benchmarks.seam_side_by_side import measure; "
                 "import json; print(json.dumps(measure()))"],
                env=env, cwd=ROOT, check=True, capture_output=True, text=True)
            result = json.loads(out.stdout.strip().splitlines()[-1])
            seen[label].append(result)
            print(f"round {r} {label}: {json.dumps(result)}", flush=True)
    for key in ("replay_cpu_s", "suggest_turn_cpu_s"):
        this, that = (statistics.median(x[key] for x in seen[label]) for label, _ in trees)
        print(f"median {key}: this {this:.3f}, other {that:.3f}, ratio {this / that:.3f}")


if __name__ == "__main__":
    main()
