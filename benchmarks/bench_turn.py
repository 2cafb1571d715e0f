"""Whole-turn ranking benchmark (issue 24): the 20 latest real turns of the shared logs.

For each turn (the board at the turn's first action, its facts from the log) the
whole turn is ranked (``engine.api.suggest_turn``, top 5, each plan proven), once
without and once with the train advice. Timed as CPU seconds of this process
(``time.process_time``: one core, no other work in the process; wall time on a
shared machine moves with the load), plus the deterministic counts: plans,
plans priced exactly, CP-SAT solves, plans pruned by the lay bound, the train
bound and the token bound. Side by side, ``rank_turn`` alone with the train
bound (``TurnOptions(train_bound=True)``) and without it (the default), same
process, same turn, one right after the other: their CPU and counts, so the
train bound's effect is measured on the same load. Target: every ranking proven
within 2 s of CPU.

Run: ``.venv/bin/python -m benchmarks.bench_turn`` (prints a table and writes
``.benchmarks/turn_summary.json``) or ``pytest benchmarks/bench_turn.py -s``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from benchmarks.conftest import ROOT
from benchmarks.shared import write_summary
from route18xx.engine import api
from route18xx.engine.turn.turn_rank import TurnOptions, rank_turn

LOGS = ROOT / "tests" / "data" / "logs"
TARGET_S = 2.0
LATEST = 20


def latest_turns(n: int = LATEST) -> list[tuple[str, int]]:
    """(log, first action) of the last ``n`` operating turns that ran trains, across the logs,
    the latest of each log first in turn (both logs end in phase D or late phase 5)."""
    per_log: list[list[tuple[str, int]]] = []
    for path in sorted(LOGS.glob("*.json")):
        log = json.loads(path.read_text("utf-8"))
        report = api.replay_game(log, solve=False)
        per_log.append([(path.stem, r.turn_start_action_id) for r in report.runs
                        if r.turn_start_action_id is not None])
    out: list[tuple[str, int]] = []
    while len(out) < n and any(per_log):
        for turns in per_log:
            if turns and len(out) < n:
                out.append(turns.pop())
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(n: int = LATEST) -> dict[str, Any]:
    logs: dict[str, Any] = {}
    rows = []
    api.warm_up()
    for name, start in latest_turns(n):
        log = logs.setdefault(name, json.loads((LOGS / f"{name}.json").read_text("utf-8")))
        state = api.state_from_log(log, start)
        cpu = time.process_time()
        ranked = api.suggest_turn(state, top=5, trains=False, time_limit_s=60)
        rank_s = time.process_time() - cpu
        cpu = time.process_time()
        whole = api.suggest_turn(None, game_log=log, action_id=start, top=5, time_limit_s=60)
        whole_s = time.process_time() - cpu
        cpu = time.process_time()
        treated = rank_turn(state, TurnOptions(top=5, time_limit_s=60, train_bound=True))
        treated_s = time.process_time() - cpu
        cpu = time.process_time()
        control = rank_turn(state, TurnOptions(top=5, time_limit_s=60))
        control_s = time.process_time() - cpu
        assert [r.score for r in treated.ranked] == [p.score for p in ranked.plans]
        assert [r.score for r in control.ranked] == [p.score for p in ranked.plans]
        assert not ranked.unranked and all(p.proven_optimal for p in ranked.plans)
        assert [p.income for p in whole.plans] == [p.income for p in ranked.plans]
        rows.append({
            "turn": f"{name}@{start}", "corporation": ranked.corporation,
            "plans": ranked.candidates, "lay_boards": ranked.lay_boards,
            "priced": ranked.plans_solved, "solves": ranked.solves,
            "pruned_by_lay_bound": ranked.pruned_by_lay_bound,
            "pruned_by_token_bound": ranked.pruned_by_token_bound,
            "train_bound": {k: {"priced": r.plans_solved, "solves": r.solves,
                                "train_bound_solves": r.train_bound_solves,
                                "pruned_by_lay_bound": r.pruned_by_lay_bound,
                                "pruned_by_train_bound": r.pruned_by_train_bound,
                                "pruned_by_token_bound": r.pruned_by_token_bound,
                                "rank_turn_cpu_s": round(s, 4)}
                            for k, r, s in (("on", treated, treated_s),
                                            ("off", control, control_s))},
            "best": ranked.plans[0].income, "base": ranked.base_income,
            "train_options": len(whole.train_advice.options),
            "rank_cpu_s": round(rank_s, 4), "with_trains_cpu_s": round(whole_s, 4),
        })
    rank = [r["rank_cpu_s"] for r in rows]
    whole = [r["with_trains_cpu_s"] for r in rows]
    plans = sum(r["plans"] for r in rows)
    summary = {
        "turns": len(rows),
        "rank_cpu_s": {"p50": statistics.median(rank), "p95": _pct(rank, 0.95), "max": max(rank)},
        "with_trains_cpu_s": {"p50": statistics.median(whole), "p95": _pct(whole, 0.95),
                              "max": max(whole)},
        "plans": plans,
        "priced": sum(r["priced"] for r in rows),
        "solves": sum(r["solves"] for r in rows),
        "pruned_by_lay_bound": sum(r["pruned_by_lay_bound"] for r in rows),
        "pruned_by_token_bound": sum(r["pruned_by_token_bound"] for r in rows),
        "train_bound": {k: {
            **{f: sum(r["train_bound"][k][f] for r in rows) for f in (
                "priced", "solves", "train_bound_solves", "pruned_by_lay_bound",
                "pruned_by_train_bound", "pruned_by_token_bound")},
            "rank_turn_cpu_s_sum": round(sum(r["train_bound"][k]["rank_turn_cpu_s"]
                                             for r in rows), 3),
            "rank_turn_cpu_s_p50": statistics.median(
                r["train_bound"][k]["rank_turn_cpu_s"] for r in rows),
        } for k in ("on", "off")},
        "within_target": sum(1 for s in rank if s <= TARGET_S),
        "rows": rows,
    }
    write_summary("turn_summary.json", summary)
    return summary


def test_turn_summary() -> None:
    summary = measure()
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
    assert summary["within_target"] == summary["turns"]


def main(argv: list[str]) -> None:
    summary = measure(int(argv[0]) if argv else LATEST)
    print(f"{'turn':<32}{'co':<5}{'plans':>6}{'priced':>7}{'solves':>7}{'prL':>5}{'prT':>5}"
          f"{'rank s':>8}{'+trains s':>10}{'prTr(on)':>9}{'tb s on':>8}{'tb s off':>9}")
    for r in summary["rows"]:
        print(f"{r['turn']:<32}{r['corporation']:<5}{r['plans']:>6}{r['priced']:>7}"
              f"{r['solves']:>7}{r['pruned_by_lay_bound']:>5}{r['pruned_by_token_bound']:>5}"
              f"{r['rank_cpu_s']:>8.3f}{r['with_trains_cpu_s']:>10.3f}"
              f"{r['train_bound']['on']['pruned_by_train_bound']:>9}"
              f"{r['train_bound']['on']['rank_turn_cpu_s']:>8.3f}"
              f"{r['train_bound']['off']['rank_turn_cpu_s']:>9.3f}")
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
