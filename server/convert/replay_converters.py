"""ReplayGame: proto ⇄ the engine's replay report (``engine.api.replay_game``)."""

from __future__ import annotations

from typing import Any

from route18xx.engine.api import ReplayReport, RunReport
from route18xx.server.convert import converters
from route18xx.server.convert.explain_converters import violation_code
from route18xx.v1 import route_service_pb2 as pb


def run_to_proto(run: RunReport) -> pb.ReplayedRun:
    """One run of the replay report as a ``ReplayedRun`` (unset optimum when not solved)."""
    msg = pb.ReplayedRun(
        action_id=run.action_id,
        turn_start_action_id=run.turn_start_action_id
        if run.turn_start_action_id is not None else run.action_id,
        corporation=run.corporation,
        trains=run.trains,
        recorded_revenue=run.recorded_revenue,
        recorded_subsidy=run.recorded_subsidy,
        recorded_legal=run.recorded_legal,
        engine_revenue=run.engine_revenue or 0,
        engine_subsidy=run.engine_subsidy or 0,
        proven_optimal=run.proven_optimal,
        recorded_violations=[violation_code(c) for c in run.recorded_violations],
        round=run.round or "",
        president_name=run.president_name or "",
    )
    if run.optimal_revenue is not None:
        msg.optimal_revenue = run.optimal_revenue
    if run.optimal_subsidy is not None:
        msg.optimal_subsidy = run.optimal_subsidy
    if run.solve_ms is not None:
        msg.solve_ms = run.solve_ms
    if run.dividend_lost is not None:
        msg.dividend_lost = run.dividend_lost
    if run.treasury_lost is not None:
        msg.treasury_lost = run.treasury_lost
    if run.left_on_table is not None:
        msg.left_on_table = run.left_on_table
    return msg


def replay_report_to_proto(report: ReplayReport) -> pb.ReplayGameResponse:
    """The engine's replay report as a ``ReplayGameResponse``.

    A replay that stopped partway is an answer, not an error (issue 19): the
    runs reached before the stop, ``completed`` false, ``stopped_at_action``
    the action it stopped at (unset when it completed or that action has no
    integer id) and the reason in ``errors``.
    """
    msg = pb.ReplayGameResponse(
        title=report.title,
        rule_set=report.rule_set,
        final_scores=report.final_scores,
        recorded_result=report.recorded_result,
        scores_match=report.scores_match,
        errors=report.errors,
        runs=[run_to_proto(r) for r in report.runs],
        completed=report.completed,
        rules_version=report.rules_version,
        rules_as_of=report.rules_as_of,
    )
    if report.stopped_at is not None:
        msg.stopped_at_action = report.stopped_at
    short = report.shortfall
    if short is not None:
        msg.objective = converters.objective_to_proto(short.objective)
        msg.left_on_table.CopyFrom(pb.Shortfall(
            objective=converters.objective_to_proto(short.objective), runs=short.runs,
            amount=short.amount, dividend_lost=short.dividend_lost,
            treasury_lost=short.treasury_lost))
    return msg


def replay_job(runner: Any, request: pb.ReplayGameRequest, cancel: Any) -> pb.ReplayGameResponse:
    """The lane's job: decode the log, replay it (solving each run), convert the report."""
    from route18xx.engine import api

    log = converters.game_log_from_proto(request.game_log)
    limit = runner.time_limit(converters.time_limit_from_proto(request.time_limit_s), cancel)
    report = api.replay_game(
        log, solve=not request.skip_solve, objective=converters.objective_name(request.objective),
        time_limit_s=limit, cancel=cancel, rules_as_of=request.rules_as_of or None,
    )
    return replay_report_to_proto(report)
