"""What a replay reports: its errors, each run's figures, the ``replay --json`` object.

Typed and frozen (issue 10): the front ends read fields, not dict keys, and
``to_json()`` gives the exact object ``route18xx replay --json`` prints
(DESIGN.md §5), keys in the same order, so the command line, the gRPC
``ReplayGame`` call and the audit all show the same figures.

An error of the replay is structured (``ReplayError``: kind, action, code,
message); ``str()`` renders it as the one line the ``errors`` list has always
held, and ``ReplayResult.completed`` decides by its ``kind``, not by its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from route18xx.engine.game.depot import train_name

if TYPE_CHECKING:
    from route18xx.engine.optimize import Optimum
    from route18xx.engine.replay import ReplayResult, RunRecord

#: Why a replay reports an error:
#: ``malformed`` an action that cannot be read; ``refused`` one the engine refuses
#: (illegal, or naming something the game does not know); ``route`` a recorded run
#: the engine judges or prices differently (reported, the replay goes on);
#: ``log_goes_on`` actions after the game ended; ``ends_early`` a finished log
#: that stops before the game does.
ErrorKind = Literal["malformed", "refused", "route", "log_goes_on", "ends_early"]

#: The kinds that mean the log was not replayed to its end.
_INCOMPLETE: frozenset[str] = frozenset({"log_goes_on", "ends_early"})


@dataclass(frozen=True)
class ReplayError:
    """One error of a replay: what kind, at which action, its code and message.

    ``action`` is the action's id (its position among the kept actions when it
    has no integer id), ``code`` the ``IllegalAction`` code (``malformed`` for a
    ``MalformedInput``) of a refused action, ``context`` what the line names
    besides the action (the action's type, or ``run_routes LYR``).
    """

    kind: ErrorKind
    message: str
    action: int | None = None
    code: str | None = None
    context: str | None = None

    @property
    def ends_replay_early(self) -> bool:
        """The log was not replayed to its end (the game and the log disagree on it)."""
        return self.kind in _INCOMPLETE

    def __str__(self) -> str:
        match self.kind:
            case "malformed":
                return f"action {self.action}: malformed: {self.message}"
            case "refused":
                return f"action {self.action} ({self.context}): {self.code}: {self.message}"
            case "route":
                return f"action {self.action} ({self.context}): {self.message}"
            case "log_goes_on":
                return f"the game ended at action {self.action} but the log goes on"
            case "ends_early":
                return "the log says the game finished, but it ends before the game does"


@dataclass(frozen=True)
class RunOptimum:
    """The optimum a replay's solver hook found for one run (objective of the hook)."""

    revenue: int
    subsidy: int
    proven_optimal: bool
    #: milliseconds, rounded to 3 decimals as ``solve --json`` prints them.
    solve_ms: float

    @classmethod
    def of(cls, opt: Optimum) -> RunOptimum:
        """A checked optimum (``engine.optimize``) as a run's optimum."""
        return cls(opt.judgement.revenue, opt.judgement.subsidy,
                   opt.solution.status == "OPTIMAL", round(opt.solve_ms, 3))


@dataclass(frozen=True)
class RunReport:
    """One ``run_routes`` of a replay: recorded, engine and optimal figures."""

    action_id: int | None
    corporation: str
    trains: tuple[str, ...]
    recorded_revenue: int
    recorded_subsidy: int
    recorded_legal: bool
    engine_revenue: int
    engine_subsidy: int
    optimum: RunOptimum | None = None
    #: the first action of the operating turn this run ends (``engine.turns``);
    #: set by ``engine.api.replay_game`` only.
    turn_start_action_id: int | None = None
    #: why the rules refuse the recorded routes (violation codes, each once, in
    #: the judge's order; empty when ``recorded_legal``). The replay still pays
    #: what was recorded, as 18xx.games does (HISTORY.md §1.2).
    recorded_violations: tuple[str, ...] = ()

    @classmethod
    def of(cls, record: RunRecord) -> RunReport:
        c = record.check
        return cls(
            c.action_id, c.corporation, tuple(train_name(t) for t in c.trains),
            c.recorded_revenue, c.recorded_subsidy, c.legal, c.engine_revenue,
            c.engine_subsidy, record.optimum,
            recorded_violations=tuple(dict.fromkeys(d.code for d in c.judgement.details)),
        )

    def to_json(self) -> dict[str, Any]:
        opt = self.optimum
        out: dict[str, Any] = {
            "action_id": self.action_id,
            "corporation": self.corporation,
            "trains": list(self.trains),
            "recorded_revenue": self.recorded_revenue,
            "recorded_subsidy": self.recorded_subsidy,
            "recorded_legal": self.recorded_legal,
            "recorded_violations": list(self.recorded_violations),
            "engine_revenue": self.engine_revenue,
            "engine_subsidy": self.engine_subsidy,
            "optimal_revenue": opt.revenue if opt else None,
            "optimal_subsidy": opt.subsidy if opt else None,
            "proven_optimal": opt.proven_optimal if opt else False,
            "solve_ms": opt.solve_ms if opt else None,
        }
        if self.turn_start_action_id is not None:
            out["turn_start_action_id"] = self.turn_start_action_id
        return out


@dataclass(frozen=True)
class ReplayReport:
    """A replayed log: scores, errors and every run (the ``replay --json`` object).

    A replay that stops partway (issue 19) still reports every run reached
    before the stop: ``completed`` is false and ``stopped_at`` names the action
    it could not process (None when that action has no integer id, or when the
    log is incomplete for another reason: ``errors`` says which).
    """

    title: str
    rule_set: str
    final_scores: dict[str, int]
    recorded_result: dict[str, int]
    scores_match: bool
    errors: tuple[ReplayError, ...]
    runs: tuple[RunReport, ...]
    #: every kept action was processed (``ReplayResult.completed``).
    completed: bool = True
    #: the id of the action the replay stopped at; ``runs`` are those before it.
    stopped_at: int | None = None
    #: the rule version the log was replayed under (HISTORY.md §2), e.g. "1888@2023-08-25",
    #: and the date that chose it: the log's own, or the caller's ``rules_as_of``.
    rules_version: str = ""
    rules_as_of: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "rule_set": self.rule_set,
            "rules_version": self.rules_version,
            "rules_as_of": self.rules_as_of,
            "final_scores": dict(self.final_scores),
            "recorded_result": dict(self.recorded_result),
            "scores_match": self.scores_match,
            "errors": [str(e) for e in self.errors],
            "completed": self.completed,
            "stopped_at": self.stopped_at,
            "run_routes": [r.to_json() for r in self.runs],
        }


def replay_report(result: ReplayResult) -> ReplayReport:
    """The report of a replay (``to_json()``: the ``route18xx replay --json`` object)."""
    return ReplayReport(
        title=result.title,
        rule_set=result.rule_set,
        final_scores=result.final_scores,
        recorded_result=dict(result.recorded_result),
        scores_match=result.scores_match,
        errors=tuple(result.problems),
        runs=tuple(RunReport.of(r) for r in result.runs),
        completed=result.completed,
        # ``replay`` marks an action without an integer id with -1: no id to name.
        stopped_at=result.stopped_at if result.stopped_at is not None and result.stopped_at >= 0
        else None,
        rules_version=result.rules.name,
        rules_as_of=result.rules_as_of.isoformat() if result.rules_as_of else "",
    )


__all__ = ["ErrorKind", "ReplayError", "ReplayReport", "RunOptimum", "RunReport", "replay_report"]
