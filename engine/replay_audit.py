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

from route18xx.engine.errors import Route18xxError
from route18xx.engine.game.actions import Action, RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.game.operating_round import OperatingRound
from route18xx.engine.replay import kept_actions, replay, replay_report
from route18xx.engine.state_file import RouteState, to_state_file

#: The objectives the audit solves, the first one being ``route18xx replay``'s default.
OBJECTIVES = ("total", "revenue")


def _optimum(report: Mapping[str, Any] | None, error: str | None) -> dict[str, Any]:
    if report is None:
        return {"revenue": None, "subsidy": None, "proven_optimal": False, "error": error}
    return {
        "revenue": report.get("revenue"),
        "subsidy": report.get("subsidy"),
        "proven_optimal": bool(report.get("proven_optimal", False)),
    }


def audit_replay(
    log: Mapping[str, Any], *, time_limit_s: float = 10.0, states: bool = False
) -> dict[str, Any]:
    """Replay ``log`` and solve both objectives at every run (issue 15).

    Returns the ``route18xx replay --json`` object (``engine.replay.replay_report``)
    plus ``players`` (``[{"id", "name"}]``) and ``completed``; each entry of
    ``run_routes`` also has ``round`` ("OR 3.2": the stock-round turn, then the
    operating round in it), ``president`` and ``president_name`` (who ran the
    company), ``optima`` (per objective: ``revenue``, ``subsidy``,
    ``proven_optimal``, ``solve_ms``) and, with ``states``, ``state`` (the state
    file of the decision) and ``recorded_routes`` (the log's routes).

    Raises ``MalformedInput`` when the log is not a readable 1888 log, and
    ``UnreplayableAction`` on an engine bug; an action the engine refuses ends
    the replay and is listed in ``errors``.
    """
    from route18xx.engine.api import solve_routes

    def solve(state: RouteState) -> Mapping[str, Any]:
        out: dict[str, Any] = {}
        for objective in OBJECTIVES:
            try:
                report = solve_routes(state, objective=objective, time_limit_s=time_limit_s)
            except Route18xxError as exc:  # e.g. no trains: reported, not fatal
                out[objective] = _optimum(None, str(exc))
                continue
            out[objective] = _optimum(report, None) | {"solve_ms": report.get("solve_ms")}
        first = out[OBJECTIVES[0]]
        extra = {"state": to_state_file(state)} if states else {}
        return {**first, "optima": out, **extra}

    facts: dict[int, dict[str, Any]] = {}

    def before(game: Game, action: Action) -> None:
        if not isinstance(action, RunRoutes) or action.id is None:
            return
        if not game.is_corporation(action.entity):
            return
        rnd = game.round
        number = rnd.number if isinstance(rnd, OperatingRound) else 0
        president = game.corporation(action.entity).president
        player = game.player_or_none(president)
        facts[action.id] = {
            "round": f"OR {game.turn}.{number}",
            "president": president,
            "president_name": player.name if player is not None else None,
        }

    result = replay(log, solve=solve, before_action=before)
    report = replay_report(result)
    raw_routes = {
        a.get("id"): a.get("routes") for a in kept_actions(log) if a.get("type") == "run_routes"
    }
    for entry, run in zip(report["run_routes"], result.runs):
        entry.update(facts.get(entry["action_id"], {"round": None, "president": None,
                                                    "president_name": None}))
        optimum = run.optimum or {}
        entry["optima"] = optimum.get("optima")
        if states and "state" in optimum:
            entry["state"] = optimum["state"]
            entry["recorded_routes"] = raw_routes.get(entry["action_id"])
    report["players"] = [
        {"id": p.id, "name": p.name} for p in sorted(result.game.players, key=lambda p: p.id)
    ]
    report["completed"] = result.completed
    return report


__all__ = ["OBJECTIVES", "audit_replay"]
