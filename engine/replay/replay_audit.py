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
from typing import Any

import msgspec
from msgspec import UNSET
from msgspec.structs import asdict

from route18xx.engine.declared import Declared
from route18xx.engine.errors import Route18xxError
from route18xx.engine.game.actions import Action, RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import kept_actions, replay
from route18xx.engine.replay.replay_report import ReplayReport, RunOptimum, RunReport, replay_report
from route18xx.engine.inputs.state_file import RouteState, to_state_file
from route18xx.solver import OBJECTIVES  # the audit solves each; the first is replay's default


class AuditOptimum(Declared, frozen=True, omit_defaults=True):
    """One objective's optimum of a run (with its ``solve_ms``), or why it could not be
    solved (``error``; the figures None, not proven, no ``solve_ms``)."""

    revenue: int | None
    subsidy: int | None
    proven_optimal: bool
    solve_ms: float | None = None
    error: str | None = None


class AuditRun(RunReport, frozen=True, kw_only=True, omit_defaults=True):
    """A run of the replay report, then who ran it (``president``: the player's id; the
    run's ``round`` and ``president_name`` are the replay's) and both optima.
    ``AuditRun.of_run`` a run."""

    president: int | None
    #: per objective (``OBJECTIVES``); None when the run was not solved.
    optima: dict[str, AuditOptimum] | None
    #: with ``states``: the state file of the decision and the log's routes (no keys without).
    state: dict[str, Any] | None = None
    recorded_routes: Any = UNSET

    @classmethod
    def of_run(cls, run: RunReport, president: int | None, optima: dict[str, AuditOptimum] | None,
           state: dict[str, Any] | None = None, recorded_routes: Any = UNSET) -> AuditRun:
        return cls(**asdict(run), president=president, optima=optima, state=state,
                   recorded_routes=UNSET if state is None else recorded_routes)


class Player(Declared, frozen=True):
    """A seat of the log."""

    id: int
    name: str


class AuditReport(ReplayReport, frozen=True, kw_only=True):
    """An audited log: its replay report, every run with its audit facts (``run_routes``),
    then the players."""

    runs: tuple[AuditRun, ...] = msgspec.field(name="run_routes")
    players: tuple[Player, ...]


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
    for run, record in zip(report.runs, result.runs):
        key = run.action_id if run.action_id is not None else -1
        state = decisions.get(key)
        runs.append(AuditRun.of_run(run, record.facts.president, optima.get(key), state,
                                raw_routes.get(run.action_id)))
    players = tuple(Player(p.id, p.name) for p in sorted(result.game.players, key=lambda p: p.id))
    return AuditReport(**{**asdict(report), "runs": tuple(runs)}, players=players)


__all__ = ["AuditOptimum", "AuditReport", "AuditRun", "Player", "audit_replay"]
