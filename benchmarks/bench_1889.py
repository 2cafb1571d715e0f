"""1889's route decisions, timed (issue 36 item 5): the 80 real runs of the fixture logs
314 and 962 (their golden verdicts, ``tests/data/golden/1889/``: ``bench_titles.real_states``)
and hard boards grown from the latest of them.

    .venv/bin/python -m benchmarks.bench_1889

Each state is solved in a warm process (its first solve, then the median of 3 more, from a
parsed state to the checked answer, as ``solve_ms``). Hard boards: 314 #446 (phase D, 20
tiles) and 962 #521 (27 tiles, moved to phase D) with two D-trains and with a 6 and a D,
then the 962 board grown by 4, 8 and 12 random legal lays of SR (seeded; each lay of any
colour of phase D) with those trains. A D earns the off-boards' diesel value, so its stop
values differ from the 6's (``Train.stop_values``): the two trains are not interchangeable.

Measured on 2026-12-07 (this machine: 2 cores shared with other work; two runs, so the
spread is noise), first solve of each state / the same state again:

* real runs, 80 states: median 0.7–0.8 ms / 0.35 ms, p95 1.2–12.5 ms / 0.8–2.5 ms, worst
  5.7–17.5 ms / 1.0–5.2 ms;
* hard boards: every one proven optimal; the worst is 962 #521 grown by 8 lays with a 6 and a
  D: 112–140 ms / 44–62 ms (the two trains earn differently at the off-boards, so the pair
  listing cannot serve both and CP-SAT proves it); the same board with two D-trains took
  190–234 ms before ``Instance.shared_weights`` let two D-trains share the pair listing, and
  4.5–8.4 ms / 2.5–2.8 ms after; every other hard board under 8 ms;
* the sweep (``sweep``: 144 more grown boards, first seen): slowest 44–88 ms (962 grown by 6
  lays, a 6 and a D), none over 100 ms.

Every one well inside the 250 ms the issue asks for. Writes ``.benchmarks/1889_summary.json``.
"""

from __future__ import annotations

import copy
import json
import random
import statistics
import sys
from typing import Any

from benchmarks.shared import ROOT, median_ms, percentile, write_summary
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.board.board import Board
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import parse_state

def real_states_1889() -> dict[str, dict[str, Any]]:
    """name (``<log>-<action id>``) → state file of a real 1889 run (its golden state)."""
    from benchmarks.bench_titles import real_states

    return real_states("1889")


def _grown(state: dict[str, Any], lays: int, seed: int) -> dict[str, Any]:
    """``state`` with ``lays`` more random legal lays of its company (phase D tiles)."""
    data = game_data("1889")
    rng = random.Random(seed)
    parsed = parse_state(state)
    board: Board = parsed.board
    corp = state["corporation"]
    for _ in range(lays):
        found = list(legal_tile_lays(board, corp, phase="D", rule_set="standard"))
        if not found:
            break
        lay = rng.choice(found)
        board = board.with_tile(lay.hex, data.tiles[lay.tile], lay.rotation)
    out = dict(state)
    out["tiles"] = [{"hex": h, "tile": p.tile.name, "rotation": p.rotation}
                    for h, p in sorted(board.placed.items())]
    return out


def hard_boards() -> dict[str, dict[str, Any]]:
    real = real_states_1889()
    out: dict[str, dict[str, Any]] = {}
    late_d = {k: v for k, v in real["314-446"].items() if k != "train_ids"}
    late_5 = {k: v for k, v in copy.deepcopy(real["962-521"]).items() if k != "train_ids"}
    late_5["phase"] = "D"
    for name, base in (("314-446", late_d), ("962-521@D", late_5)):
        for trains in (["D", "D"], ["6", "D"]):
            out[f"{name} {'+'.join(trains)}"] = dict(base, trains=trains)
    for lays in (4, 8, 12):
        grown = _grown(dict(late_5, trains=["D"]), lays, seed=lays)
        for trains in (["D", "D"], ["6", "D"]):
            out[f"962-521@D+{lays} {'+'.join(trains)}"] = dict(grown, trains=trains)
    return out


def sweep() -> dict[str, Any]:
    """More grown boards, by size: 314 #446 and 962 #521 (in phase D) grown by 6, 8, 10 and
    14 lays, 6 seeds each, with a 6 and a D, two D-trains, and a 5 and a D (144 boards);
    each timed once, first seen. The slowest, and how many take over 100 and 250 ms."""
    real = real_states_1889()
    bases = {"962": dict({k: v for k, v in real["962-521"].items() if k != "train_ids"}, phase="D"),
             "314": {k: v for k, v in real["314-446"].items() if k != "train_ids"}}
    rows: list[tuple[float, str]] = []
    for name, base in bases.items():
        for lays in (6, 8, 10, 14):
            for seed in range(6):
                grown = _grown(dict(base, trains=["D"]), lays, seed=100 + seed)
                for trains in (["6", "D"], ["D", "D"], ["5", "D"]):
                    ms, opt = median_ms(
                        lambda: optimize(parse_state(dict(grown, trains=trains)), objective="total"), 1)
                    assert opt.solution.status == "OPTIMAL"
                    rows.append((ms, f"{name}+{lays} seed {100 + seed} {'+'.join(trains)}"))
    rows.sort(reverse=True)
    return {"boards": len(rows), "slowest_ms": round(rows[0][0], 2), "slowest": rows[0][1],
            "over_100_ms": sum(ms > 100 for ms, _ in rows), "over_250_ms": sum(ms > 250 for ms, _ in rows)}


def _time(state_raw: dict[str, Any]) -> tuple[float, float, int]:
    """(first solve of the state in ms, median of 3 more, revenue): a first-seen problem,
    and the same problem again (the solver's caches, as ``bench_solve`` measures)."""
    first, opt = median_ms(lambda: optimize(parse_state(state_raw), objective="total"), 1)
    state = parse_state(state_raw)
    again, opt = median_ms(lambda: optimize(state, objective="total"), 3)
    assert opt.solution.status == "OPTIMAL"
    return first, again, opt.judgement.revenue


def _stats(times: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(times), 2),
            "p95_ms": round(percentile(times, 0.95), 2), "worst_ms": round(max(times), 2)}


def main() -> None:
    warm = next(iter(real_states_1889().values()))
    optimize(parse_state(warm), objective="total")  # the title's data and indexes, once
    real = {name: _time(s) for name, s in real_states_1889().items()}
    hard = {name: _time(s) for name, s in hard_boards().items()}
    summary = {
        "real": {"states": len(real),
                 "first_seen": _stats([t[0] for t in real.values()]),
                 "worst_first_seen": max(real, key=lambda n: real[n][0]),
                 "again": _stats([t[1] for t in real.values()])},
        "hard": {name: {"first_ms": round(a, 2), "again_ms": round(b, 2), "revenue": rev}
                 for name, (a, b, rev) in hard.items()},
        "sweep": sweep(),
    }
    write_summary("1889_summary.json", summary)
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
