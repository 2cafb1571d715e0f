"""The figures of a results file (``--summary summary.json``): income left on the table.

"Left on the table" is the gap of a run for the ``total`` objective: optimal
revenue + subsidy minus what the player recorded (ROUTES.md: the subsidy is
the company's too). The ``revenue`` objective's gap is reported beside it: it
is what the 18xx.games auto-router, which ignores the mine subsidy, would show.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from route18xx.engine.api import OBJECTIVES, MalformedInput, currency_formats, served_title

#: How many of the worst runs the summary and the report list.
WORST = 25


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in path.read_text("utf-8").splitlines() if raw.strip()]


def percentiles(values: Sequence[float], points: Iterable[int] = (50, 90, 99)) -> dict[str, float]:
    """Nearest-rank percentiles (and the max) of ``values``; empty when there are none."""
    if not values:
        return {}
    ordered = sorted(values)
    out = {}
    for p in points:
        rank = max(1, -(-p * len(ordered) // 100))  # ceil(p·n/100)
        out[f"p{p}"] = round(ordered[rank - 1], 3)
    out["max"] = round(ordered[-1], 3)
    return out


def draw_command(log: str, action_id: int) -> str:
    return f"route18xx draw --game {log} --action {action_id} --routes both"


def _table(runs: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"runs": 0, "recorded": 0, "optimal": 0, "left": 0, "runs_below_optimum": 0}
    )
    for run in runs:
        gap = run["gap"]["total"]
        if gap is None:
            continue
        g = groups[str(run.get(key))]
        recorded = run["recorded_revenue"] + run["recorded_subsidy"]
        g["runs"] += 1
        g["recorded"] += recorded
        g["optimal"] += recorded + gap
        g["left"] += gap
        g["runs_below_optimum"] += gap > 0
    rows = [{key: name, **g} for name, g in groups.items()]
    for row in rows:
        row["left_pct"] = round(100 * row["left"] / row["optimal"], 2) if row["optimal"] else 0.0
    rows.sort(key=lambda r: (-r["left"], str(r[key])))
    return rows


def _turn_table(runs: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, int]] = defaultdict(
        lambda: {"turns": 0, "left_by_lay_token": 0, "left_by_routes": 0})
    for run in runs:
        g = groups[str(run.get(key))]
        g["turns"] += 1
        g["left_by_lay_token"] += run["turn"]["left_by_lay_token"] or 0
        g["left_by_routes"] += run["turn"]["left_by_routes"] or 0
    rows: list[dict[str, Any]] = [{key: name, **g} for name, g in groups.items()]
    rows.sort(key=lambda r: (-int(r["left_by_lay_token"]), str(r[key])))
    return rows


def turns_summary(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """With ``audit --turns`` (issue 24): the income the turns left by lay/token choices and
    by routes (objective ``total``), in all, per player and per company; None without."""
    compared = [r for r in runs if r.get("turn") is not None]
    if not compared:
        return None
    return {
        "compared": len(compared),
        "left_by_lay_token": sum(r["turn"]["left_by_lay_token"] or 0 for r in compared),
        "left_by_routes": sum(r["turn"]["left_by_routes"] or 0 for r in compared),
        "turns_below_best_plan": sum((r["turn"]["left_by_lay_token"] or 0) > 0 for r in compared),
        "by_player": _turn_table(compared, "president_name"),
        "by_company": _turn_table(compared, "corporation"),
    }


def stopped(game: dict[str, Any]) -> bool:
    """A log replayed up to an action it could not process (issue 19): not a failure.

    Its runs before that action are audited and counted like any other; a log
    that could not be read, or was not replayed to its end for another reason
    (it ends before the game does), is a failed log.
    """
    return not game["ok"] and game.get("stopped_at") is not None


def money_of(games: Sequence[dict[str, Any]]) -> tuple[list[str], str | None]:
    """The titles of the games replayed and the one way their money is written
    (``"$%s"``; issue 25: a fact of each title's data), or None when the titles
    write money differently (the sums then mix currencies)."""
    titles = set()
    for g in games:
        try:
            titles.add(served_title(g.get("title")))
        except MalformedInput:  # a log that did not replay names no title served
            continue
    formats = {currency_formats()[t] for t in titles}
    return sorted(titles), (formats.pop() if len(formats) == 1 else None)


def summarize(lines: list[dict[str, Any]]) -> dict[str, Any]:
    runs = [line for line in lines if line.get("kind") == "run"]
    games = [line for line in lines if line.get("kind") == "game"]
    titles, currency_format = money_of([g for g in games if g.get("title")])
    failed = [g for g in games if not g["ok"] and not stopped(g)]
    partial = [g for g in games if stopped(g)]
    solved = [r for r in runs if r["gap"]["total"] is not None]
    worst = sorted(solved, key=lambda r: (-r["gap"]["total"], r["log"], r["action_id"]))[:WORST]
    times = {
        o: [
            float(r["timing"]["solve_ms"][o])
            for r in runs
            if r.get("timing", {}).get("solve_ms", {}).get(o) is not None
        ]
        for o in OBJECTIVES
    }
    return {
        "titles": titles,
        "currency_format": currency_format,
        "logs": len(games),
        "logs_ok": sum(1 for g in games if g["ok"]),
        "logs_stopped": len(partial),
        "logs_failed": len(failed),
        "scores_match": sum(1 for g in games if g["scores_match"]),
        "runs": len(runs),
        "runs_in_stopped_logs": sum(g["runs"] for g in partial),
        "runs_solved": len(solved),
        "runs_proven": sum(
            1 for r in runs if all(r["optimal"][o]["proven_optimal"] for o in OBJECTIVES)
        ),
        "runs_recorded_illegal": sum(1 for r in runs if not r["recorded_legal"]),
        "runs_below_optimum": {
            o: sum(1 for r in runs if (r["gap"][o] or 0) > 0) for o in OBJECTIVES
        },
        "left_on_table": {o: sum(r["gap"][o] or 0 for r in runs) for o in OBJECTIVES},
        "recorded_income": sum(r["recorded_revenue"] + r["recorded_subsidy"] for r in solved),
        "gap_counts": {
            o: {str(k): v for k, v in sorted(Counter(
                r["gap"][o] for r in runs if r["gap"][o] is not None).items())}
            for o in OBJECTIVES
        },
        "turns": turns_summary(runs),
        "by_player": _table(runs, "president_name"),
        "by_company": _table(runs, "corporation"),
        "worst_runs": [
            {
                "game": r["game"], "log": r["log"], "action_id": r["action_id"],
                "round": r["round"], "corporation": r["corporation"],
                "president_name": r["president_name"], "trains": r["trains"],
                "recorded": r["recorded_revenue"] + r["recorded_subsidy"],
                "optimal": r["recorded_revenue"] + r["recorded_subsidy"] + r["gap"]["total"],
                "gap": r["gap"]["total"], "recorded_legal": r["recorded_legal"],
                "draw": draw_command(r["log"], r["action_id"]),
            }
            for r in worst
        ],
        "solve_ms": {o: percentiles(times[o]) for o in OBJECTIVES},
        "audit_ms_per_log": percentiles(
            [float(g["timing"]["audit_ms"]) for g in games if g.get("timing")]
        ),
        "stopped_logs": [
            {"game": g["game"], "log": g["log"], "stopped_at": g["stopped_at"], "runs": g["runs"],
             "errors": g["errors"]}
            for g in partial
        ],
        "failed_logs": [
            {"game": g["game"], "log": g["log"], "errors": g["errors"]} for g in failed
        ],
        "logs_with_errors": [
            {"game": g["game"], "log": g["log"], "errors": g["errors"]}
            for g in games if g["ok"] and g["errors"]
        ],
    }
