"""The SuggestMoves answer: the ranking of ``engine.suggest.suggest`` as a ``SuggestReport``.

One module owns the answer (issue 32): the ranking, the routes of its top moves, the
players' forms (equal rotations merged, the best lays each followed by a token) and the
verdict when nothing improves the run.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from route18xx.engine.answer.budget import AnswerBudget
from route18xx.engine.answer.optimize import Optimum, optimize, routes_report
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.routes.route_judge import judge_routes
from route18xx.engine.suggest.suggest import (
    SuggestOptions, SuggestResult, applied, suggest,
)
from route18xx.engine.suggest.suggest_player import lay_then_token, merge_equal
from route18xx.engine.suggest.suggest_report import SuggestReport, Suggestion

if TYPE_CHECKING:
    from route18xx.solver import CancelToken


def suggest_report(
    state: RouteState,
    options: SuggestOptions = SuggestOptions(),
    cancel: CancelToken | None = None,
) -> SuggestReport:
    """The ranking as a ``SuggestReport`` (``to_json()``: what ``route18xx suggest --json`` prints).

    A top move that shared another board's solve takes that board's routes when the
    engine judges them legal on its own board at the same income (``shared_routes``),
    else is solved again for its own routes; those solves get what is left of the
    ranking's time limit and the same ``cancel`` token, or up to the token's deadline
    when it has one (issue 9: the whole call stays within its deadline).
    """
    started = time.monotonic()
    res = suggest(state, options, cancel)
    objective = options.objective
    corp = state.corporation.sym
    suggestions: list[Suggestion] = []
    data = state.data
    for e in res.ranked:
        opt = e.optimum
        if opt is None:  # a move that shared another board's solve: its routes, else its own
            after = replace(state, board=applied(state.board, e.move, corp))
            opt = None if e.shared is None else shared_routes(after, e.shared)
        if opt is None:
            end = started + options.time_limit_s
            if cancel is not None and cancel.deadline is not None:
                end = max(end, cancel.deadline)  # the call's deadline: the share kept for this
            with AnswerBudget(options.time_limit_s, cancel, end) as budget:
                opt = optimize(after, objective=objective, time_limit_s=options.time_limit_s,
                               cancel=budget.token)
        suggestions.append(Suggestion.of(
            e.move.report(data), e.income, e.income - res.base_income, e.score, e.proven,
            routes_report(opt),
        ))
    improving = any(s.score > res.base_income for s in suggestions)
    if options.merge_equal:
        suggestions = merge_equal(suggestions)
    if options.improving_only:
        suggestions = [s for s in suggestions if s.score > res.base_income]
    combined: tuple[Suggestion, ...] = ()
    if options.combined:
        lays = [e.move for e in res.ranked if e.move.kind == "tile"]
        combined = tuple(lay_then_token(state, lays, res.base_income, options, started, cancel))
    return SuggestReport(
        corporation=corp,
        objective=objective,
        subtract_cost=options.subtract_cost,
        base_income=res.base_income,
        base_proven_optimal=res.base_proven,
        suggestions=tuple(suggestions),
        candidates=res.candidates,
        solved=res.solved,
        reused=res.reused,
        pruned=res.pruned,
        not_evaluated=tuple(m.report(data) for m in res.not_evaluated),
        elapsed_ms=round(res.elapsed_ms, 3),
        verdict="" if improving else _verdict(options, res),
        combined=combined,
    )


def shared_routes(state: RouteState, shared: Optimum) -> Optimum | None:
    """``shared``'s routes as ``state``'s optimum, when the engine judges them legal on
    ``state``'s board at the same revenue and subsidy; else None.

    ``shared`` is the proven optimum of a board with the same reduced route graph (the
    ranking's reuse, ``suggest._graph_key``), so its income is ``state``'s optimum too:
    what is left to check is that its routes run here as they did there, by the one
    validator every answer passes (STYLE.md §6). Solving the board again took a whole
    solve per top move (size-36101, D + D: ~0.7 s of CPU each, 7 of its top 10); on the
    real states of ``answer_digest suggest`` the routes taken were the ones a new solve
    found in 608 of 608 moves, and one whose routes did not run here was solved again.
    """
    judgement = judge_routes(state, shared.specs)
    if not judgement.legal or (judgement.revenue, judgement.subsidy) != (
            shared.judgement.revenue, shared.judgement.subsidy):
        return None
    return replace(shared, judgement=judgement)


def _verdict(options: SuggestOptions, res: SuggestResult) -> str:
    """What to tell a player when no ranked move raises the score (issue 22)."""
    what = "lay or token" if options.include_tokens else "lay"
    if not res.candidates:
        return f"no legal {what} at this turn"
    if res.not_evaluated:
        return (f"no {what} ranked in time improves this run "
                f"({len(res.not_evaluated)} of {res.candidates} were not ranked)")
    cost = " once its cost is paid" if options.subtract_cost else ""
    return f"no {what} improves this run{cost}"
