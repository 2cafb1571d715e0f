"""One game log audited: its JSON lines (issue 15, README "Audit").

A *run line* per recorded ``run_routes``, then one *game line*; the game line
written last marks the log as done. Every field is a fact of the log and the
deterministic solver, except ``timing`` (milliseconds, different on every
run): two audits of the same logs are identical once ``timing`` is dropped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from route18xx.engine.api import (
    OBJECTIVES, AuditOptimum, AuditReport, AuditRun, Route18xxError, TurnComparison, TurnsReport,
    audit_log, compare_turns, parse_game_log, read_input_file,
)

#: The fields two audits may differ in (wall-clock measures).
TIMING = "timing"


@dataclass
class GameAudit:
    """What a worker sends back for one log: its lines, and its benchmark states."""

    log: str
    lines: list[dict[str, Any]]
    #: (file name, {"state", "reference"}) per decision whose optima are both proven.
    states: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def game_id(log: Any, path: str) -> str:
    """The log's own ``id`` when it has one, else its file name without ``.json``."""
    if isinstance(log, dict) and isinstance(log.get("id"), (int, str)) and not isinstance(
        log.get("id"), bool
    ):
        return str(log["id"])
    return Path(path).stem


def _gap(optimal: AuditOptimum | None, recorded: int, objective: str, subsidy: int) -> int | None:
    if optimal is None or optimal.revenue is None:
        return None
    if objective == "total":
        return optimal.revenue + (optimal.subsidy or 0) - recorded - subsidy
    return optimal.revenue - recorded


def run_line(game: str, log: str, audited: AuditRun) -> dict[str, Any]:
    """A run of the audit report as its JSON line."""
    run = audited
    optima = audited.optima or {}
    optimal = {
        o: {"revenue": opt.revenue, "subsidy": opt.subsidy, "proven_optimal": opt.proven_optimal}
        if (opt := optima.get(o)) is not None
        else {"revenue": None, "subsidy": None, "proven_optimal": None}
        for o in OBJECTIVES
    }
    rec, sub = run.recorded_revenue, run.recorded_subsidy
    return {
        "kind": "run",
        "game": game,
        "log": log,
        "action_id": run.action_id,
        "round": audited.round,
        "corporation": run.corporation,
        "president": audited.president,
        "president_name": audited.president_name,
        "trains": list(run.trains),
        "recorded_revenue": rec,
        "recorded_subsidy": sub,
        "recorded_legal": run.recorded_legal,
        "engine_revenue": run.engine_revenue,
        "engine_subsidy": run.engine_subsidy,
        "optimal": optimal,
        "gap": {o: _gap(optima.get(o), rec, o, sub) for o in OBJECTIVES},
        TIMING: {"solve_ms": {
            o: opt.solve_ms if (opt := optima.get(o)) is not None else None for o in OBJECTIVES
        }},
    }


def turn_record(turn: TurnComparison) -> dict[str, Any]:
    """A run's ``turn`` object: what the player did, the best plan, what each choice left
    (``engine.api.compare_turns``; objective ``total``)."""
    out = turn.to_json()
    for key in ("action_id", "round", "corporation", "trains"):
        del out[key]  # already on the run line
    return out


def turns_total(turns: TurnsReport) -> dict[str, Any]:
    """The game line's ``turns``: the income its turns left, by lay/token and by routes."""
    return {"compared": len(turns.turns), "left_by_lay_token": turns.left_by_lay_token,
            "left_by_routes": turns.left_by_routes,
            "best_is_players": sum(t.best_is_players for t in turns.turns),
            "errors": sum(t.error is not None for t in turns.turns)}


def game_line(
    game: str, log: str, report: AuditReport | None, errors: list[str], ms: float
) -> dict[str, Any]:
    """The game line: the replay's verdict, or why the log could not be read.

    ``ok`` is a replay to the end; a replay that stopped at an action has
    ``stopped_at`` and the ``runs`` it reached (issue 19).
    """
    return {
        "kind": "game",
        "game": game,
        "log": log,
        "ok": report is not None and report.completed,
        "title": report.title if report else None,
        "rule_set": report.rule_set if report else None,
        "rules_version": report.rules_version if report else None,
        "rules_as_of": report.rules_as_of if report else None,
        "players": [{"id": p.id, "name": p.name} for p in report.players] if report else [],
        "final_scores": dict(report.final_scores) if report else None,
        "recorded_result": dict(report.recorded_result) if report else None,
        "scores_match": report.scores_match if report else False,
        "completed": report.completed if report else False,
        # a replay stopped partway (issue 19): the action it stopped at; ``runs`` are
        # those reached before it, each with its run line, counted like any other
        "stopped_at": report.stopped_at if report else None,
        "runs": len(report.runs) if report else 0,
        "errors": errors,
        TIMING: {"audit_ms": round(ms, 1)},
    }


def _state_case(game: str, log_name: str, audited: AuditRun) -> tuple[str, dict[str, Any]] | None:
    """A decision as a benchmark state file (the tests/data/states format), if proven both ways."""
    optima = audited.optima or {}
    total, revenue = optima.get("total"), optima.get("revenue")
    if audited.state is None or total is None or revenue is None:
        return None
    if not (total.proven_optimal and revenue.proven_optimal):
        return None
    run = audited
    reference = {
        "fixture": log_name,
        "action_id": run.action_id,
        "recorded_revenue": run.recorded_revenue,
        "recorded_subsidy": run.recorded_subsidy,
        "recorded_routes": audited.recorded_routes,
        "optimal_total": (total.revenue or 0) + (total.subsidy or 0),
        "optimal_revenue": revenue.revenue,
        "optimal_revenue_best_subsidy": revenue.subsidy,
    }
    return f"{game}-{run.action_id}.json", {"state": audited.state, "reference": reference}


def audit_bytes(
    log: str, data: bytes, time_limit_s: float = 10.0, states: bool = False,
    rules_as_of: str | None = None, turns: bool = False,
) -> GameAudit:
    """Audit one log given as the bytes of its file; ``log`` names it in the lines.

    Never raises for a bad log: a file that is not JSON, not a 1888 log, damaged
    or diverging gets a game line whose ``errors`` say why. With ``turns`` each
    run line gets ``turn`` (``turn_record``) and the game line ``turns``
    (``turns_total``), each turn ranked within ``time_limit_s``.
    """
    started = time.perf_counter()
    game = Path(log).stem
    try:
        raw = parse_game_log(data)
        game = game_id(raw, log)
        report = audit_log(raw, time_limit_s=time_limit_s, states=states, rules_as_of=rules_as_of)
        compared = compare_turns(raw, time_limit_s=time_limit_s,
                                 rules_as_of=rules_as_of) if turns else None
    except Route18xxError as exc:
        ms = (time.perf_counter() - started) * 1000
        return GameAudit(log, [game_line(game, log, None, [str(exc)], ms)])
    runs = [run_line(game, log, r) for r in report.runs]
    if compared is not None:
        by_run = {t.action_id: t for t in compared.turns}
        for line in runs:
            turn = by_run.get(line["action_id"])
            line["turn"] = None if turn is None else turn_record(turn)
    cases = [_state_case(game, Path(log).name, r) for r in report.runs] if states else []
    ms = (time.perf_counter() - started) * 1000
    line = game_line(game, log, report, list(report.errors), ms)
    if compared is not None:
        line["turns"] = turns_total(compared)
    return GameAudit(log, runs + [line], [c for c in cases if c is not None])


def audit_path(
    log: str, time_limit_s: float = 10.0, states: bool = False, rules_as_of: str | None = None,
    turns: bool = False,
) -> GameAudit:
    """``audit_bytes`` on a file the worker reads itself (the local pool shares the disk).

    Read as every command-line input is (``engine.api.read_input_file``): a
    regular file of bounded size; a FIFO, a device or a directory gets its
    game line instead of a worker that hangs or fills the memory (issue 20).
    """
    try:
        data = read_input_file(log, "game_log")
    except Route18xxError as exc:
        return GameAudit(log, [game_line(Path(log).stem, log, None, [str(exc)], 0.0)])
    return audit_bytes(log, data, time_limit_s, states, rules_as_of, turns)
