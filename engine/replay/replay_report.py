"""What a replay reports: its errors, each run's figures, the ``replay --json`` object.

Typed and frozen (issue 10): the front ends read fields, not dict keys, and
``to_json()`` gives the exact object ``route18xx replay --json`` prints
(DESIGN.md §5), keys in the same order, so the command line, the gRPC
``ReplayGame`` call and the audit all show the same figures. The reports are
declared (``engine.declared``, issue 32 item 4): their fields are their keys, in
order, each figure derived from the replay once, when the report is made.

An error of the replay is structured (``ReplayError``: kind, action, code,
message); ``str()`` renders it as the one line the ``errors`` list has always
held, and ``ReplayResult.completed`` decides by its ``kind``, not by its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import msgspec

from route18xx.engine.declared import Declared
from route18xx.engine.game.depot import train_name

if TYPE_CHECKING:
    from route18xx.engine.answer.optimize import Optimum
    from route18xx.engine.replay.replay import ReplayResult, RunRecord

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


#: The words of every report (issue 22), one meaning each: **revenue** is what the
#: trains earn for the dividend (destination bonuses included; what the 18xx.games
#: auto-router maximises), **subsidy** what the mine pays the treasury (ROUTES.md §5),
#: **income** their sum. The objective ``total`` maximises income, ``revenue`` revenue.
OBJECTIVE_WORDS: dict[str, str] = {"total": "income (revenue + subsidy)",
                                   "revenue": "revenue (the dividend)"}


@dataclass(frozen=True)
class RunOptimum:
    """The optimum a replay's solver hook found for one run, for ``objective``."""

    revenue: int
    subsidy: int
    proven_optimal: bool
    #: milliseconds, rounded to 3 decimals as ``solve --json`` prints them.
    solve_ms: float
    #: what the optimum maximises: ``total`` (income) or ``revenue`` (``solver.OBJECTIVES``).
    objective: str = "total"

    @classmethod
    def of(cls, opt: Optimum, objective: str = "total") -> RunOptimum:
        """A checked optimum (``engine.optimize``) as a run's optimum."""
        return cls(opt.judgement.revenue, opt.judgement.subsidy,
                   opt.solution.status == "OPTIMAL", round(opt.solve_ms, 3), objective)


def left_on_table(objective: str, dividend_lost: int, treasury_lost: int) -> int:
    """What a run left on the table for ``objective``: the optimum's figure minus the
    recorded one, never below 0 (a recorded route the rules refuse may pay more).

    ``revenue`` counts the dividend alone: a player who took ¥20 more dividend over
    ¥40 for the treasury left nothing (issue 22); ``total`` counts income, both.

    >>> left_on_table("total", -20, 40), left_on_table("revenue", -20, 40)
    (20, 0)
    """
    lost = dividend_lost if objective == "revenue" else dividend_lost + treasury_lost
    return max(0, lost)


class RunReport(Declared, frozen=True, kw_only=True, omit_defaults=True):
    """One ``run_routes`` of a replay: recorded, engine and optimal figures.

    The optimal figures are None (``proven_optimal`` false) when the run was not solved;
    ``dividend_lost``, ``treasury_lost`` and ``left_on_table`` are the optimum's figures
    against the recorded ones (``left_on_table`` for the optimum's objective), None then.
    """

    action_id: int | None
    corporation: str
    trains: tuple[str, ...]
    recorded_revenue: int
    recorded_subsidy: int
    recorded_legal: bool
    #: why the rules refuse the recorded routes (violation codes, each once, in
    #: the judge's order; empty when ``recorded_legal``). The replay still pays
    #: what was recorded, as 18xx.games does (HISTORY.md §1.2).
    recorded_violations: tuple[str, ...]
    engine_revenue: int
    engine_subsidy: int
    optimal_revenue: int | None
    optimal_subsidy: int | None
    proven_optimal: bool
    #: the optimum's solve, milliseconds rounded to 3 decimals as ``solve --json`` prints them.
    solve_ms: float | None
    #: the operating round ("OR 8.1") and the company's president when the run was made
    #: (``engine.run_facts``).
    round: str | None
    president_name: str | None
    #: the optimum's revenue minus the recorded revenue; negative when the player took
    #: more dividend than the optimum of ``total``.
    dividend_lost: int | None
    #: the optimum's subsidy minus the recorded subsidy.
    treasury_lost: int | None
    #: what the run left on the table for the optimum's objective (``left_on_table``).
    left_on_table: int | None
    #: the first action of the operating turn this run ends (``engine.turns``); set by
    #: ``engine.api.replay_game`` only (no key without it).
    turn_start_action_id: int | None = None

    @classmethod
    def of(cls, record: RunRecord) -> RunReport:
        c = record.check
        opt = record.optimum
        return cls(
            action_id=c.action_id,
            corporation=c.corporation,
            trains=tuple(train_name(t) for t in c.trains),
            recorded_revenue=c.recorded_revenue,
            recorded_subsidy=c.recorded_subsidy,
            recorded_legal=c.legal,
            recorded_violations=tuple(dict.fromkeys(d.code for d in c.judgement.details)),
            engine_revenue=c.engine_revenue,
            engine_subsidy=c.engine_subsidy,
            optimal_revenue=None if opt is None else opt.revenue,
            optimal_subsidy=None if opt is None else opt.subsidy,
            proven_optimal=opt is not None and opt.proven_optimal,
            solve_ms=None if opt is None else opt.solve_ms,
            round=record.facts.round,
            president_name=record.facts.president_name,
            dividend_lost=None if opt is None else opt.revenue - c.recorded_revenue,
            treasury_lost=None if opt is None else opt.subsidy - c.recorded_subsidy,
            left_on_table=None if opt is None else left_on_table(
                opt.objective, opt.revenue - c.recorded_revenue,
                opt.subsidy - c.recorded_subsidy),
        )

    @property
    def solved(self) -> bool:
        """The run's optimum was found (its optimal figures are set)."""
        return self.optimal_revenue is not None


class Shortfall(Declared, frozen=True):
    """The runs of a replay that left something on the table for ``objective``:
    how many, the sum they left (``amount``), and its dividend and treasury parts
    (each the sum of those runs' ``dividend_lost`` / ``treasury_lost``; one may be
    negative under ``total``: dividend taken instead of subsidy)."""

    objective: str
    runs: int
    amount: int
    dividend_lost: int
    treasury_lost: int

    @classmethod
    def of(cls, objective: str, runs: tuple[RunReport, ...]) -> Shortfall:
        lost = [r for r in runs if (r.left_on_table or 0) > 0]
        return cls(objective, len(lost), sum(r.left_on_table or 0 for r in lost),
                   sum(r.dividend_lost or 0 for r in lost),
                   sum(r.treasury_lost or 0 for r in lost))


class ReplayReport(Declared, frozen=True, kw_only=True):
    """A replayed log: scores, errors and every run (the ``replay --json`` object).

    A replay that stops partway (issue 19) still reports every run reached
    before the stop: ``completed`` is false and ``stopped_at`` names the action
    it could not process (None when that action has no integer id, or when the
    log is incomplete for another reason: ``errors`` says which).
    """

    title: str
    rule_set: str
    #: the rule version the log was replayed under (HISTORY.md §2), e.g. "1888@2023-08-25",
    #: and the date that chose it: the log's own, or the caller's ``rules_as_of``.
    rules_version: str = ""
    rules_as_of: str = ""
    final_scores: dict[str, int]
    recorded_result: dict[str, int]
    scores_match: bool
    #: each error's line (``str`` of its ``ReplayError``; the structured errors are the
    #: ``ReplayResult``'s ``problems``).
    errors: tuple[str, ...]
    #: every kept action was processed (``ReplayResult.completed``).
    completed: bool = True
    #: the id of the action the replay stopped at; ``runs`` are those before it.
    stopped_at: int | None = None
    #: the objective of the runs' optima (None when no run was solved).
    objective: str | None = None
    #: the runs that left something on the table, and how much (None: not solved).
    shortfall: Shortfall | None = msgspec.field(default=None, name="left_on_table")
    runs: tuple[RunReport, ...] = msgspec.field(name="run_routes")


def replay_report(result: ReplayResult) -> ReplayReport:
    """The report of a replay (``to_json()``: the ``route18xx replay --json`` object)."""
    runs = tuple(RunReport.of(r) for r in result.runs)
    objective = next((r.optimum.objective for r in result.runs if r.optimum is not None), None)
    return ReplayReport(
        title=result.title,
        rule_set=result.rule_set,
        final_scores=result.final_scores,
        recorded_result=dict(result.recorded_result),
        scores_match=result.scores_match,
        errors=tuple(str(e) for e in result.problems),
        runs=runs,
        completed=result.completed,
        # ``replay`` marks an action without an integer id with -1: no id to name.
        stopped_at=result.stopped_at if result.stopped_at is not None and result.stopped_at >= 0
        else None,
        rules_version=result.rules.name,
        rules_as_of=result.rules_as_of.isoformat() if result.rules_as_of else "",
        objective=objective,
        shortfall=None if objective is None else Shortfall.of(objective, runs),
    )


__all__ = [
    "OBJECTIVE_WORDS", "ErrorKind", "ReplayError", "ReplayReport", "RunOptimum", "RunReport",
    "Shortfall", "left_on_table", "replay_report",
]
