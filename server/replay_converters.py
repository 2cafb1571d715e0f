"""ReplayGame: proto ⇄ the engine's replay report (``engine.api.replay_game``)."""

from __future__ import annotations

from typing import Any, Mapping

from route18xx.server import converters
from route18xx.v1 import route_service_pb2 as pb


def run_to_proto(run: Mapping[str, Any]) -> pb.ReplayedRun:
    """One run of the replay report as a ``ReplayedRun`` (unset optimum when not solved)."""
    msg = pb.ReplayedRun(
        action_id=run["action_id"],
        turn_start_action_id=run.get("turn_start_action_id", run["action_id"]),
        corporation=run["corporation"],
        trains=run["trains"],
        recorded_revenue=run["recorded_revenue"],
        recorded_subsidy=run["recorded_subsidy"],
        recorded_legal=run["recorded_legal"],
        engine_revenue=run["engine_revenue"] or 0,
        engine_subsidy=run["engine_subsidy"] or 0,
        proven_optimal=run["proven_optimal"],
    )
    for key in ("optimal_revenue", "optimal_subsidy", "solve_ms"):
        if run.get(key) is not None:
            setattr(msg, key, run[key])
    return msg


def replay_report_to_proto(report: Mapping[str, Any]) -> pb.ReplayGameResponse:
    """The engine's replay report as a ``ReplayGameResponse``."""
    return pb.ReplayGameResponse(
        title=report["title"],
        rule_set=report["rule_set"],
        final_scores={str(k): int(v) for k, v in report["final_scores"].items()},
        recorded_result={str(k): int(v) for k, v in report["recorded_result"].items()},
        scores_match=report["scores_match"],
        errors=report["errors"],
        runs=[run_to_proto(r) for r in report["run_routes"]],
    )


def replay_job(runner: Any, request: pb.ReplayGameRequest, cancel: Any) -> pb.ReplayGameResponse:
    """The lane's job: decode the log, replay it (solving each run), convert the report."""
    from route18xx.engine import api

    log = converters.game_log_from_proto(request.game_log)
    limit = runner.time_limit(converters.time_limit_from_proto(request.time_limit_s), cancel)
    report = api.replay_game(
        log, solve=not request.skip_solve, objective=converters.objective_name(request.objective),
        time_limit_s=limit, cancel=cancel,
    )
    return replay_report_to_proto(report)
