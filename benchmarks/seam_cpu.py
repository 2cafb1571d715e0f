"""1888 in this tree vs another checkout, process CPU, side by side (issue 25 item 4).

    .venv/bin/python -m benchmarks.seam_cpu /path/to/other/checkout/proto [rounds] [what ...]

Issue 25 moved 1888 behind a title seam; its "done when" asks that 1888 be no slower
than the commit before the seam (``ec4f74c``: ``git archive ec4f74c | tar -x -C
/tmp/preseam``, then pass ``/tmp/preseam/proto``). Each workload runs in a fresh process
of each tree, the two trees alternating first within each round (so the machine's load
hits both alike), and is measured in CPU time of the whole process
(``time.process_time``: every thread, CP-SAT's too), never the wall clock, after OR-Tools
is loaded and one board solved (``_warm_up``). Only APIs both
trees have are driven (``engine.api``, ``engine.replay``, ``draw``):

* ``real``: the 123 real 1888 decisions of ``tests/data/states``, the whole SolveRoutes
  answer (``engine.api.solve_report``) from the decoded state dict; warm (each state's
  median of 3 after a first pass) and first seen (the caches of derived data emptied
  before each run where the tree has ``route18xx.solver.clear_caches``; a tree without
  them sees every board first); p50 / p95 / max and the sum over the states, in ms;
* ``boards``: the hard boards of ``tests/data/boards``, each answer once (60 s limit),
  caches emptied first; median / max / sum (answers compared by total: a tied optimum may
  split between revenue and subsidy differently);
* ``replay``: both shared 1888 logs replayed start to finish, every recorded run judged
  (``engine.replay.replay``, no solver); median of 3 each;
* ``draw``: the fullest real board (129026 #728) with its optimal and recorded routes as
  SVG (``draw.render.build_picture`` + ``draw.picture.picture``); median of 20;
* ``suggest``: every legal lay ranked (``engine.api.suggest_moves``, 60 s limit) on the
  four states of ``bench_suggest``; each once, after one ranking to warm up (answers
  compared: the income without a move, the lays ranked, the top ten scores).

Each workload also prints what it answered (revenues, final scores, top lays), and the
script reports whether the two trees answered the same: speed without a change of
behaviour. It prints every round, then per figure the median over the rounds of each
tree and their ratio (this / other).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SUGGEST_STATES = ("129026-251", "129026-399", "1888_game_end_bankrupt-507", "129026-728")


def _ms(c0: float) -> float:
    return (time.process_time() - c0) * 1000


def _spread(values: list[float], prefix: str) -> dict[str, float]:
    v = sorted(values)
    n = len(v)
    return {f"{prefix}_p50": round(v[n // 2], 3), f"{prefix}_p95": round(v[int(0.95 * (n - 1))], 3),
            f"{prefix}_max": round(v[-1], 3), f"{prefix}_sum": round(sum(v), 1)}


def _clear() -> None:
    import route18xx.solver as solver

    clear: Callable[[], None] | None = getattr(solver, "clear_caches", None)
    if clear is not None:
        clear()


def _warm_up() -> None:
    """OR-Tools loaded and one answer solved before anything is timed: a tree whose
    solver answers a small board without CP-SAT imports OR-Tools (~0.1 s of CPU)
    inside whichever measurement first needs it."""
    import ortools.sat.python.cp_model  # noqa: F401

    from route18xx.engine.api import warm_up

    warm_up()


def _states(folder: Path) -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text("utf-8"))["state"]
            for p in sorted(folder.glob("*.json"))}


def real() -> dict[str, Any]:
    from route18xx.engine.api import solve_report

    _warm_up()
    states = _states(DATA / "states")
    answers = {n: [(r := solve_report(raw)).revenue, r.subsidy] for n, raw in states.items()}
    warm: list[float] = []
    fresh: list[float] = []
    for raw in states.values():
        w, f = [], []
        for _ in range(3):
            c0 = time.process_time()
            solve_report(raw)
            w.append(_ms(c0))
            _clear()
            c0 = time.process_time()
            solve_report(raw)
            f.append(_ms(c0))
        warm.append(statistics.median(w))
        fresh.append(statistics.median(f))
    return {"figures": {**_spread(warm, "warm"), **_spread(fresh, "first_seen")},
            "answers": answers}


def boards() -> dict[str, Any]:
    from route18xx.engine.api import solve_report

    _warm_up()
    cpu: list[float] = []
    answers: dict[str, Any] = {}
    for name, raw in _states(DATA / "boards").items():
        _clear()
        c0 = time.process_time()
        report = solve_report(raw, time_limit_s=60.0)
        cpu.append(_ms(c0))
        # the total: equal totals may split between revenue and subsidy either way
        answers[name] = [report.revenue + report.subsidy, report.proven_optimal]
    v = sorted(cpu)
    return {"figures": {"median": round(statistics.median(v), 1), "max": round(v[-1], 1),
                        "sum": round(sum(v), 1)}, "answers": answers}


def replay() -> dict[str, Any]:
    from route18xx.engine.replay.replay import load_log, replay as run

    figures: dict[str, float] = {}
    answers: dict[str, Any] = {}
    for name in ("129026", "1888_game_end_bankrupt"):
        log = load_log(DATA / "logs" / f"{name}.json")
        times = []
        for _ in range(3):
            c0 = time.process_time()
            result = run(log)
            times.append(_ms(c0))
        figures[name] = round(statistics.median(times), 1)
        answers[name] = [result.completed, len(result.runs),
                         sum(r.check.engine_revenue for r in result.runs),
                         all(r.check.legal for r in result.runs)]
    return {"figures": figures, "answers": answers}


def draw() -> dict[str, Any]:
    from route18xx.draw.picture import picture
    from route18xx.draw.render import build_picture
    from route18xx.engine import api

    _warm_up()
    log = json.loads((DATA / "logs" / "129026.json").read_text("utf-8"))
    state = api.state_from_log(log, 728)
    sets = [("optimal", api.route_walks(state, api.solve_routes(state)["routes"])),
            ("recorded", api.route_walks(state, api.recorded_routes(log, 728)))]
    svg = picture(build_picture(state, sets))
    times = []
    for _ in range(20):
        c0 = time.process_time()
        picture(build_picture(state, sets))
        times.append(_ms(c0))
    return {"figures": {"median": round(statistics.median(times), 2)},
            "answers": {"svg_chars": len(svg)}}


def suggest() -> dict[str, Any]:
    from route18xx.engine.api import suggest_moves

    _warm_up()
    states = _states(DATA / "states")
    suggest_moves(states["129026-138"], time_limit_s=60.0)
    figures: dict[str, float] = {}
    answers: dict[str, Any] = {}
    for name in SUGGEST_STATES:
        c0 = time.process_time()
        report = suggest_moves(states[name], time_limit_s=60.0)
        figures[name] = round(_ms(c0), 1)
        answers[name] = [report.base_income, report.candidates,
                         sorted(s.score for s in report.suggestions)]
    return {"figures": figures, "answers": answers}


WORKLOADS: dict[str, Callable[[], dict[str, Any]]] = {
    "real": real, "boards": boards, "replay": replay, "draw": draw, "suggest": suggest}


def _run(what: str, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", f"import json; from benchmarks.seam_cpu import {what}; "
         f"print(json.dumps({what}()))"],
        env={**os.environ, **env}, cwd=ROOT, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    other = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    chosen = sys.argv[3:] or list(WORKLOADS)
    trees = [("this", {}), ("other", {"PYTHONPATH": other})]
    for what in chosen:
        figures: dict[str, dict[str, list[float]]] = {"this": {}, "other": {}}
        answers: dict[str, Any] = {}
        for r in range(rounds):
            for label, env in trees if r % 2 == 0 else trees[::-1]:
                result = _run(what, env)
                print(f"{what} round {r} {label}: {json.dumps(result['figures'])}", flush=True)
                for key, value in result["figures"].items():
                    figures[label].setdefault(key, []).append(value)
                answers[label] = result["answers"]
        same = answers["this"] == answers["other"]
        print(f"{what}: same answers in both trees: {same}", flush=True)
        if not same:
            diff = [k for k in answers["this"] if answers["this"][k] != answers["other"].get(k)]
            print(f"   differ: {diff[:10]}", flush=True)
        for key in figures["this"]:
            a = statistics.median(figures["this"][key])
            b = statistics.median(figures["other"][key])
            print(f"   {what} {key}: this {a:.3f} other {b:.3f} ratio {a / b:.3f}", flush=True)


if __name__ == "__main__":
    main()
