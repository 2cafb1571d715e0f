"""A game log replayed for the audit (issue 15): every run judged and solved twice.

``audit_replay`` is ``engine.replay.replay`` with a solver hook that finds the
optimum for both objectives (``total``: revenue + subsidy; ``revenue``: train
revenue only, the 18xx.games auto-router's) at every recorded ``run_routes``,
plus the facts a person reading an audit asks for: the operating round, the
company's president at that moment, and, on request, the state file of the
decision (DESIGN.md §5) so that it can be kept as a benchmark case.

The figures for the ``total`` objective are, by construction, the ones
``route18xx replay --json`` prints: same replay, same solver call, same
deterministic search (one CP-SAT worker, a fixed seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from route18xx.engine.errors import Route18xxError
from route18xx.engine.game.actions import Action, RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import kept_actions, replay
from route18xx.engine.replay.replay_report import ReplayReport, RunOptimum, RunReport, replay_report
from route18xx.engine.inputs.state_file import RouteState, to_state_file
from route18xx.solver import OBJECTIVES  # the audit solves each; the first is replay's default


@dataclass(frozen=True)
class AuditOptimum:
    """One objective's optimum of a run, or why it could not be solved (``error``)."""

    revenue: int | None
    subsidy: int | None
    proven_optimal: bool
    solve_ms: float | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"revenue": None, "subsidy": None, "proven_optimal": False, "error": self.error}
        return {"revenue": self.revenue, "subsidy": self.subsidy,
                "proven_optimal": self.proven_optimal, "solve_ms": self.solve_ms}


@dataclass(frozen=True)
class AuditRun:
    """A run of the replay report with who ran it, when, and both optima."""

    run: RunReport
    round: str | None
    president: int | None
    president_name: str | None
    #: per objective (``OBJECTIVES``); None when the run was not solved.
    optima: dict[str, AuditOptimum] | None
    #: with ``states``: the state file of the decision and the log's routes.
    state: dict[str, Any] | None = None
    recorded_routes: object = None

    def to_json(self) -> dict[str, Any]:
        out = self.run.to_json() | {
            "round": self.round,
            "president": self.president,
            "president_name": self.president_name,
            "optima": None if self.optima is None
            else {o: opt.to_json() for o, opt in self.optima.items()},
        }
        if self.state is not None:
            out["state"] = self.state
            out["recorded_routes"] = self.recorded_routes
        return out


@dataclass(frozen=True)
class Player:
    """A seat of the log."""

    id: int
    name: str


@dataclass(frozen=True)
class AuditReport:
    """An audited log: its replay report, every run with its audit facts, the players."""

    replay: ReplayReport
    runs: tuple[AuditRun, ...]
    players: tuple[Player, ...]
    completed: bool

    def to_json(self) -> dict[str, Any]:
        return self.replay.to_json() | {
            "run_routes": [r.to_json() for r in self.runs],
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "completed": self.completed,
        }


def audit_replay(
    log: Mapping[str, Any], *, time_limit_s: float = 10.0, states: bool = False,
    rules_as_of: Any = None,
) -> AuditReport:
    """Replay ``log`` and solve both objectives at every run (issue 15).

    Returns the replay's report (``engine.replay_report``) with ``players`` and
    ``completed``; each run also has ``round`` ("OR 3.2": the stock-round turn,
    then the operating round in it), ``president`` and ``president_name`` (who
    ran the company), ``optima`` (per objective: ``revenue``, ``subsidy``,
    ``proven_optimal``, ``solve_ms``) and, with ``states``, ``state`` (the state
    file of the decision) and ``recorded_routes`` (the log's routes).

    Raises ``MalformedInput`` when the log is not a readable 1888 log, and
    ``UnreplayableAction`` on an engine bug; an action the engine refuses ends
    the replay and is listed in ``errors``.
    """
    from route18xx.engine.replay.optima import run_optimum

    optima: dict[int, dict[str, AuditOptimum]] = {}
    decisions: dict[int, dict[str, Any]] = {}
    current: list[int] = []  # the id of the run_routes being processed

    def solve(state: RouteState) -> RunOptimum | None:
        out: dict[str, AuditOptimum] = {}
        for objective in OBJECTIVES:
            try:
                opt = run_optimum(state, objective=objective, time_limit_s=time_limit_s)
            except Route18xxError as exc:  # e.g. no trains: reported, not fatal
                out[objective] = AuditOptimum(None, None, False, error=str(exc))
                continue
            out[objective] = AuditOptimum(opt.revenue, opt.subsidy, opt.proven_optimal,
                                          opt.solve_ms)
        if current:
            optima[current[-1]] = out
            if states:
                decisions[current[-1]] = to_state_file(state)
        first = out[OBJECTIVES[0]]
        if first.error is not None or first.revenue is None or first.subsidy is None:
            return None
        return RunOptimum(first.revenue, first.subsidy, first.proven_optimal, first.solve_ms or 0.0,
                          OBJECTIVES[0])

    def before(game: Game, action: Action) -> None:
        current.clear()
        if isinstance(action, RunRoutes) and action.id is not None:
            current.append(action.id)

    result = replay(log, solve=solve, before_action=before, rules_as_of=rules_as_of)
    report = replay_report(result)
    raw_routes = {
        a.get("id"): a.get("routes") for a in kept_actions(log) if a.get("type") == "run_routes"
    }
    runs = []
    for run in report.runs:
        key = run.action_id if run.action_id is not None else -1
        fact = run.facts
        state = decisions.get(key)
        runs.append(AuditRun(
            run, fact.round, fact.president, fact.president_name, optima.get(key),
            state, raw_routes.get(run.action_id) if state is not None else None,
        ))
    players = tuple(Player(p.id, p.name) for p in sorted(result.game.players, key=lambda p: p.id))
    return AuditReport(report, tuple(runs), players, result.completed)


__all__ = ["AuditOptimum", "AuditReport", "AuditRun", "Player", "audit_replay"]
