"""The whole-turn suggestion as a ``TurnReport`` (issue 24): ranked plans and train advice.

``engine.turn_rank`` ranks the plans; this module re-solves a top plan whose
optimum was shared from another board (for its own routes), writes the board
each top plan leaves as a state file (``state_after``, which ``RenderBoard``
draws), and prices the train purchases after the best plan
(``engine.train_advice``) with what is left of the time limit.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from route18xx.engine.errors import OutOfTime
from route18xx.engine.answer.optimize import optimize, routes_report
from route18xx.engine.inputs.state_file import RouteState, to_state_file
from route18xx.engine.turn.train_advice import TrainMarket, rules_followed, train_advice
from route18xx.engine.turn.turn_plans import LayBoard, Plan
from route18xx.engine.turn.turn_rank import TurnOptions, income_of, rank_turn
from route18xx.engine.turn.turn_report import (
    PlanLay, PlanReport, PlanToken, RankedPlanReport, TrainAdvice, TrainsAdvice, TurnReport,
)

if TYPE_CHECKING:
    from route18xx.solver import CancelToken


def plan_report(plan: Plan) -> PlanReport:
    return PlanReport(
        tuple(PlanLay(l.hex, l.tile, l.rotation, l.cost, l.ability) for l in plan.lays),
        None if plan.token is None else PlanToken(plan.token.hex, plan.token.city, plan.token.price),
        plan.cost,
    )


def board_after(state: RouteState, plan: Plan) -> RouteState:
    """The state after the plan: its tiles and token on the board, its cost paid, its lays
    recorded as made this turn."""
    board = state.board
    for lay in plan.lays:
        board = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
    if plan.token is not None:
        board = board.with_token(plan.token.hex, plan.token.city, state.corporation.sym)
    cash = None if state.cash is None else state.cash - plan.cost
    laid = state.tiles_laid + tuple((lay.hex, lay.ability) for lay in plan.lays)
    return replace(state, board=board, cash=cash, tiles_laid=laid)


def suggest_turn_report(
    state: RouteState,
    market: TrainMarket,
    options: TurnOptions = TurnOptions(),
    cancel: CancelToken | None = None,
    *,
    trains: bool = True,
) -> TurnReport:
    """Rank the turn's plans, then advise on trains after the best one (``trains``)."""
    started = time.perf_counter()
    ranking = rank_turn(state, options, cancel)
    objective = options.objective

    def left() -> float:
        rest = options.time_limit_s - (time.perf_counter() - started)
        call_left = cancel.time_left() if cancel is not None else None
        if call_left is not None:
            rest = max(rest, call_left)
        return max(0.01, rest)

    plans: list[RankedPlanReport] = []
    for ranked in ranking.ranked:
        after = board_after(state, ranked.plan)
        opt = ranked.optimum
        if not ranked.own:
            opt = optimize(after, objective=objective, time_limit_s=left(), cancel=cancel)
        plans.append(RankedPlanReport.of(
            plan_report(ranked.plan), ranked.income, ranked.income - ranking.base_income,
            ranked.score, ranked.proven, routes_report(opt), to_state_file(after),
        ))
    advice: list[TrainAdvice] = []
    income_now = plans[0].income if plans else ranking.base_income
    if trains and ranking.ranked:
        best = board_after(state, ranking.ranked[0].plan)
        try:
            advice = train_advice(best, market, cash_left=best.cash, objective=objective,
                                  time_limit_s=left(), cancel=cancel)
        except OutOfTime:
            advice = []
    return TurnReport(
        corporation=state.corporation.sym,
        objective=objective,
        subtract_cost=options.subtract_cost,
        base_income=ranking.base_income,
        base_proven_optimal=ranking.base_proven,
        plans=tuple(plans),
        train_advice=TrainsAdvice(income_now, market.known, tuple(advice),
                                  rules_followed(state.data.currency_format)),
        currency_format=state.data.currency_format,
        lay_boards=ranking.lay_boards,
        candidates=ranking.plans,
        plans_solved=ranking.plans_solved,
        solves=ranking.solves,
        reused=ranking.reused,
        bound_solves=ranking.bound_solves,
        pruned_by_lay_bound=ranking.pruned_by_lay_bound,
        pruned_by_token_bound=ranking.pruned_by_token_bound,
        pruned_by_train_bound=ranking.pruned_by_train_bound,
        train_bound_solves=ranking.train_bound_solves,
        unranked=tuple(plan_report(p) for p in ranking.unranked),
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
    )


__all__ = ["LayBoard", "board_after", "income_of", "plan_report", "suggest_turn_report"]
