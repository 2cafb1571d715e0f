"""Whole game logs at the engine's API (``engine.api``, DESIGN.md §5 replay, issue 15, 24):
a log replayed and reported, each turn beside the best plan, the audit of a log, and random
games written as logs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from msgspec.structs import replace

from route18xx.engine.door.logs import log_bug
from route18xx.engine.errors import MalformedInput, Route18xxError, excerpt
from route18xx.engine.facts.rule_versions import parse_rules_as_of
from route18xx.solver import OBJECTIVES, CancelToken

if TYPE_CHECKING:  # at run time these load on first use
    from route18xx.engine.replay.replay_audit import AuditReport
    from route18xx.engine.replay.replay_report import ReplayReport
    from route18xx.engine.turn.turn_compare import TurnsReport


def replay_game(
    log_raw: Mapping[str, Any],
    *,
    solve: bool = True,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    rules_as_of: Any = None,
) -> ReplayReport:
    """A whole game log replayed: a ``ReplayReport`` (``to_json()``: the ``route18xx
    replay --json`` object, DESIGN.md §5).

    Each run also carries ``turn_start_action_id``, the first action of the
    operating turn it ends (``engine.turns``): the board a move suggestion for
    that turn starts from. With ``solve`` every run gets its optimum, each solve
    limited to ``time_limit_s`` and to what is left before ``cancel``'s deadline.
    Raises ``MalformedInput`` naming ``game_log`` when the log cannot be read.
    The log is replayed under the rules in force on ``rules_as_of`` ("YYYY-MM-DD";
    default: the log's own date, DESIGN.md §9); the report's ``rules_version`` and
    ``rules_as_of`` say which. A malformed date is ``MalformedInput("rules_as_of")``.
    """
    from route18xx.engine.replay.replay import UnreplayableAction, replay, replay_report

    parse_rules_as_of(rules_as_of)
    from route18xx.engine.replay.optima import solve_hook
    from route18xx.engine.replay.turns import turn_starts

    if not isinstance(log_raw, Mapping) or not isinstance(log_raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    for i, entry in enumerate(log_raw["actions"]):
        if not isinstance(entry, Mapping):
            raise MalformedInput(f"game_log.actions[{i}]", "must be an object")
    hook = solve_hook(objective, time_limit_s, cancel) if solve else None
    try:
        result = replay(log_raw, solve=hook, cancel=cancel, rules_as_of=rules_as_of)
        starts = turn_starts(log_raw, cancel=cancel)
    except MalformedInput as exc:
        field = "game_log" if exc.field == "game" else f"game_log.{exc.field}"
        raise MalformedInput(field, exc.reason) from None
    except UnreplayableAction as exc:
        log_bug("engine bug: %s of a client's game log (whole replay)", exc)
        raise MalformedInput("game_log", str(exc)) from None
    report = replay_report(result)
    runs = tuple(
        replace(run, turn_start_action_id=starts.get(run.action_id, run.action_id)
                if run.action_id is not None else None)
        for run in report.runs
    )
    return replace(report, runs=runs)


def compare_turns(
    log_raw: Mapping[str, Any],
    *,
    objective: str = "total",
    time_limit_s: float = 30.0,
    runs: Iterable[int] | None = None,
    cancel: CancelToken | None = None,
    rules_as_of: Any = None,
) -> TurnsReport:
    """Each operating turn of a game log beside the best whole-turn plan (issue 24): what
    the player laid, tokened and bought, what the run earned, the optimum on the board
    the player left, and the best plan's income at the turn's start
    (``engine.turn_compare``). ``runs`` limits it to those ``run_routes`` action ids;
    ``time_limit_s`` bounds each turn's ranking. ``to_json()`` is the ``turns`` object
    of ``route18xx replay --turns --json``.
    """
    from route18xx.engine.replay.replay import UnreplayableAction
    from route18xx.engine.turn.turn_compare import compare_turns as compare

    parse_rules_as_of(rules_as_of)
    if not time_limit_s > 0 or time_limit_s == float("inf"):  # also refuses NaN
        raise MalformedInput(
            "time_limit_s", f"must be a positive number of seconds, not {excerpt(time_limit_s)}"
        )
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"must be one of {list(OBJECTIVES)}, not {excerpt(objective)}")
    if not isinstance(log_raw, Mapping) or not isinstance(log_raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    for i, entry in enumerate(log_raw["actions"]):
        if not isinstance(entry, Mapping):
            raise MalformedInput(f"game_log.actions[{i}]", "must be an object")
    try:
        return compare(log_raw, objective=objective, time_limit_s=time_limit_s,
                       runs=None if runs is None else set(runs), cancel=cancel,
                       rules_as_of=rules_as_of)
    except MalformedInput as exc:
        field = "game_log" if exc.field == "game" else f"game_log.{exc.field}"
        raise MalformedInput(field, exc.reason) from None
    except UnreplayableAction as exc:
        log_bug("engine bug: %s of a client's game log (turn comparison)", exc)
        raise MalformedInput("game_log", str(exc)) from None


def audit_log(
    log_raw: Mapping[str, Any], *, time_limit_s: float = 10.0, states: bool = False,
    rules_as_of: Any = None,
) -> AuditReport:
    """Replay a log, judging every run_routes and solving it for both objectives.

    An ``AuditReport``: the ``ReplayReport`` (same figures for objective ``total``)
    with, per run, ``round``, ``president``, ``president_name`` and ``optima``
    (``total`` and ``revenue``); see ``engine.replay_audit.audit_replay``. A log
    that cannot be read (not 1888, no players, damaged) is ``MalformedInput``
    naming ``game_log``; an engine bug it triggers is logged and reported the
    same way, so that an audit of thousands of logs goes on. ``rules_as_of``
    replays it under the rules of that date instead of the log's own (DESIGN.md §9).
    """
    from route18xx.engine.replay.replay import UnreplayableAction
    from route18xx.engine.replay.replay_audit import audit_replay

    parse_rules_as_of(rules_as_of)
    if not isinstance(log_raw, Mapping) or not isinstance(log_raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    try:
        return audit_replay(log_raw, time_limit_s=time_limit_s, states=states,
                            rules_as_of=rules_as_of)
    except MalformedInput as exc:
        field = "game_log" if exc.field == "game" else f"game_log.{exc.field}"
        raise MalformedInput(field, exc.reason) from None
    except UnreplayableAction as exc:
        log_bug("engine bug: %s of a game log under audit", exc)
        raise MalformedInput("game_log", str(exc)) from None
    except Route18xxError:
        raise
    except Exception:
        log_bug("engine bug: a game log under audit could not be replayed")
        raise MalformedInput("game_log", "could not be replayed (engine bug, logged)") from None


def random_game_log(
    seed: int, players: int, *, stingy: bool = False, rule_set: str, title: str,
    until_first_run: bool = False,
) -> dict[str, Any] | None:
    """A whole random game of ``title`` (``engine.game.playout``) as an 18xx.games log
    with id ``seed``; with ``until_first_run``, the game only up to its first run of a
    route (a game in progress: a server's warm-up log).

    None when the random players got stuck (a position they find no legal move in).
    """
    from route18xx.engine.game.agent import Stuck
    from route18xx.engine.game.playout import play_and_log

    try:
        return play_and_log(seed, players, stingy=stingy, rule_set=rule_set, title=title,
                            until_first_run=until_first_run)[1]
    except Stuck:
        return None
