"""The engine's public API: the one module the front ends import (DESIGN.md §1, §5).

Front ends (``server/``: the command line, the gRPC server) call these and
nothing deeper: they take a decoded state file and return the objects
``route18xx check`` and ``route18xx solve`` print with ``--json``. The error
classes, the cancel protocol and the JSON / log readers the front ends need are
re-exported here; a test (tests/test_boundaries.py) keeps ``server/`` from
importing any other engine module.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from msgspec.structs import replace

from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.errors import (
    EngineMismatch,
    IllegalAction,
    MalformedInput,
    OutOfTime,
    Route18xxError,
    RouteLevelOnly,
    excerpt,
)
from route18xx.engine.inputs.input_file import MAX_FILE_BYTES, file_kind, read_input_file, read_json_file
from route18xx.engine.inputs.jsontext import decode_json
from route18xx.engine.facts.money import money, signed_money
from route18xx.engine.answer.budget import SolveTiming
from route18xx.engine.answer.reports import (
    STATS_KEYS, AnswerBreakdown, AnswerStats, BonusValue, BriefOptimum, CheckReport, Comparison,
    Distance, ObjectiveChoice, PinnedExplanation, RouteBreakdown, RouteCheckReport, RouteReport,
    SolveReport, StopValue, SubsidyValue, TrainComparison, Violation,
)
from route18xx.engine.declared import Declared
from route18xx.engine.routes.route_judge import VIOLATION_CODES
from route18xx.engine.titles import TITLES
from route18xx.engine.board import names as _names
from route18xx.engine.board.names import place_name
from route18xx.engine.facts.rule_versions import dated_state, parse_rules_as_of
from route18xx.engine.routes.route_judge import (
    check_route_references, judge_routes, parse_route_specs,
)
from route18xx.engine.inputs.state_file import RouteState, parse_state, require_trains
from route18xx.solver import (  # plain Python: OR-Tools loads at a solve
    OBJECTIVES, CancelToken, Objective, solve_tally,
)

if TYPE_CHECKING:  # at run time these load on first use (``__getattr__`` below)
    from route18xx.engine.views.board_view import (
        BoardView, CorporationView, HexView, NodeView, PathView, RouteWalk, state_with_move,
        tile_view,
    )
    from route18xx.engine.replay.replay import (
        load_log, replay, replay_report, state_before,
    )
    from route18xx.engine.replay.optima import run_optimum
    from route18xx.engine.replay.replay_audit import AuditOptimum, AuditReport, AuditRun
    from route18xx.engine.replay.replay_report import (
        OBJECTIVE_WORDS, ReplayReport, RunOptimum, RunReport,
    )
    from route18xx.engine.suggest.suggest_report import (
        MoveLayReport, MoveReport, RecordedTurn, SuggestReport, Suggestion,
    )
    from route18xx.engine.turn.turn_report import (
        PlanLay, PlanReport, PlanToken, RankedPlanReport, TrainAdvice, TrainsAdvice, TurnReport,
    )
    from route18xx.engine.turn.turn_compare import TurnComparison, TurnsReport
    from route18xx.engine.routes.hex_path import HexPathReading

#: Names of the API whose modules load on first use: a solve or a check never pays for
#: the game replay or the board's drawing data (issue 11, the cold path).
_LAZY: dict[str, str] = {
    **dict.fromkeys(("BoardView", "CorporationView", "HexView", "NodeView", "PathView",
                     "RouteWalk", "state_with_move", "tile_view"), "route18xx.engine.views.board_view"),
    **dict.fromkeys(("load_log", "replay", "replay_report", "state_before"), "route18xx.engine.replay.replay"),
    **dict.fromkeys(("run_optimum",), "route18xx.engine.replay.optima"),
    **dict.fromkeys(("AuditOptimum", "AuditReport", "AuditRun"),
                    "route18xx.engine.replay.replay_audit"),
    **dict.fromkeys(("OBJECTIVE_WORDS", "ReplayReport", "RunOptimum", "RunReport"),
                    "route18xx.engine.replay.replay_report"),
    **dict.fromkeys(("MoveLayReport", "MoveReport", "RecordedTurn", "SuggestReport", "Suggestion"),
                    "route18xx.engine.suggest.suggest_report"),
    **dict.fromkeys(("PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice",
                     "TrainsAdvice", "TurnReport"), "route18xx.engine.turn.turn_report"),
    **dict.fromkeys(("HexPathReading",), "route18xx.engine.routes.hex_path"),
    **dict.fromkeys(("TurnComparison", "TurnsReport"),
                    "route18xx.engine.turn.turn_compare"),
}


def __getattr__(name: str) -> Any:
    """Load a lazily imported name of the API (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

#: The objective of a call that names none: the first of ``OBJECTIVES`` (revenue + subsidy).
DEFAULT_OBJECTIVE: Objective = OBJECTIVES[0]


__all__ = [
    "VIOLATION_CODES", "AnswerBreakdown", "BonusValue", "CheckReport", "RouteBreakdown",
    "RouteCheckReport", "RouteReport", "SolveReport", "StopValue", "SubsidyValue", "Violation",
    "STATS_KEYS", "AnswerStats", "BriefOptimum", "Comparison", "Declared", "Distance",
    "ObjectiveChoice", "PinnedExplanation", "SolveTiming", "TrainComparison", "TrainsAdvice",
    "check_report", "solve_report", "dated_state", "parse_rules_as_of", "DEFAULT_OBJECTIVE",
    "AuditOptimum", "AuditReport", "AuditRun", "MoveLayReport", "MoveReport", "RecordedTurn",
    "OBJECTIVE_WORDS", "ReplayReport", "RunOptimum", "RunReport", "SuggestReport", "Suggestion",
    "run_optimum", "solve_tally", "OBJECTIVES", "BoardView", "CancelSignal", "CancelToken",
    "CorporationView", "HexView", "IllegalAction", "MalformedInput", "NodeView", "Objective",
    "OutOfTime", "PathView", "Route18xxError", "RouteLevelOnly", "RouteState", "RouteWalk", "audit_log",
    "board_view", "check_routes", "decode_json", "excerpt", "load_log", "MAX_FILE_BYTES",
    "file_kind", "read_input_file", "read_json_file", "new_cancel_token", "parse_game_log",
    "random_game_log", "read_state", "chosen_suggestion", "is_run_routes", "recorded_routes",
    "recorded_turn", "replay", "replay_game", "replay_report", "route_walks", "solve_routes",
    "state_before", "state_from_log", "state_with_move", "suggest_moves", "tile_view",
    "PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice", "TurnReport",
    "suggest_turn", "TurnComparison", "TurnsReport", "compare_turns", "money", "signed_money",
    "currency_formats", "subsidy_titles", "served_title", "titles_served", "titles_replayed", "blockers_aliases",
    "place_name", "stop_names", "company_trains", "read_hex_paths", "check_hex_paths", "HexPathReading", "warm_up_states",
]


def check_routes(
    state_raw: Mapping[str, Any] | RouteState,
    routes_raw: Any,
    *,
    cancel: CancelSignal | None = None,
) -> dict[str, Any]:
    """Judge recorded routes (the ``routes`` array of a run_routes action) on a state.

    Raises ``MalformedInput`` for a state or routes that cannot be read (also
    more routes than trains, or more connections than the board has stops); an
    illegal route is not an error: it comes back with ``legal`` false and reasons.
    ``cancel`` (a ``CancelToken``, or anything with ``cancelled`` and ``expired``)
    is polled while the routes are judged: ``OutOfTime`` when it fires.
    """
    return check_report(state_raw, routes_raw, cancel=cancel).to_json()


def check_report(
    state_raw: Mapping[str, Any] | RouteState,
    routes_raw: Any,
    *,
    cancel: CancelToken | CancelSignal | None = None,
    compare: bool = False,
    objective: str = "total",
    time_limit_s: float = 10.0,
) -> CheckReport:
    """``check_routes`` as a typed ``CheckReport``: each route's breakdown, the
    violations as data (``violation_details``: code, route, node, hex, text) and,
    with ``compare``, the comparison with the proven optimum (``comparison``: per
    train the stops the optimum adds and drops, the revenue and subsidy
    differences; see ``engine.answer.solve_answer.comparison``)."""
    from route18xx.engine.answer.explain import check_report as typed_check

    state = state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)
    check_time(cancel, "validation")
    specs = parse_route_specs(routes_raw, state.data)
    check_route_references(state, specs)
    report = typed_check(state, judge_routes(state, specs, cancel))
    if not compare:
        return report
    from route18xx.engine.answer.solve_answer import comparison

    require_trains(state)
    best = solve_report(state, objective=objective, time_limit_s=time_limit_s,
                        cancel=cancel if isinstance(cancel, CancelToken) else None,
                        objectives=False)
    return replace(report, comparison=comparison(report, best))


def read_hex_paths(
    state_raw: Mapping[str, Any] | RouteState,
    paths_raw: Any,
    *,
    field: str = "hex_paths",
    cancel: CancelSignal | None = None,
) -> list[HexPathReading]:
    """Each train's hex path (``[{"train": "3-3", "hexes": ["H10", "H12", …]}]``, the
    hexes it passes in travel order) read as the route the checker judges: cut into
    connections where the track laid lets it stop (``engine.routes.hex_path``; a hex
    that draws a stop may be run past, as on 1830's Altoona bypass, ROUTES.md §1.3).
    Where the track allows both, the reading with the fewest faults wins, then the one
    that stops where it can. ``to_json()``: ``train``, ``connections``, ``nodes`` (the
    stops as the checker reads them) and ``open`` (hexes past the last stop reached).
    ``MalformedInput`` naming ``field[i]…`` for a path that cannot be read.

    >>> from route18xx.engine.titles import TITLES
    >>> state = TITLES["1830"].warm_up_state
    >>> [r.to_json()["connections"] for r in read_hex_paths(state, [{"train": "2-0", "hexes": ["F22", "F20"]}])]
    [[['F22', 'F20']]]
    """
    from route18xx.engine.routes.hex_path import read_hex_paths as read

    return read(read_state(state_raw), paths_raw, field, cancel)


def check_hex_paths(
    state_raw: Mapping[str, Any] | RouteState,
    paths_raw: Any,
    *,
    field: str = "hex_paths",
    cancel: CancelToken | CancelSignal | None = None,
    compare: bool = False,
    objective: str = "total",
    time_limit_s: float = 10.0,
) -> tuple[CheckReport, list[HexPathReading]]:
    """Each train's hex path read (``read_hex_paths``) and the routes read judged
    (``check_report``, with ``compare`` too): the judgement beside the readings, in the
    paths' order. A path that reaches no second stop is no route; an error about a
    route names the path it was read from (``hex_paths[i]``), never ``routes[j]``.
    """
    state = read_state(state_raw)
    readings = read_hex_paths(state, paths_raw, field=field, cancel=cancel)
    read = [i for i, r in enumerate(readings) if r.route is not None]
    routes = [{k: v for k, v in readings[i].to_json().items() if k != "open"} for i in read]
    try:
        report = check_report(state, routes, cancel=cancel, compare=compare, objective=objective,
                              time_limit_s=time_limit_s)
    except MalformedInput as exc:
        match = _ROUTE_FIELD.match(exc.field)
        if match is None:
            raise
        raise MalformedInput(f"{field}[{read[int(match.group(1))]}]", exc.reason) from None
    return report, readings


#: An error's field about one route: ``routes[2].connections[0]`` → route 2.
_ROUTE_FIELD = re.compile(r"^routes\[(\d+)\]")


def solve_routes(
    state_raw: Mapping[str, Any] | RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """The optimal routes for a state, re-checked by the engine (DESIGN.md §5 solve JSON).

    Returns ``revenue``, ``subsidy``, ``proven_optimal``, ``status`` (OPTIMAL,
    FEASIBLE or UNKNOWN), ``bound``, ``objective``, ``solve_ms``, ``routes`` (per
    train: ``train``, ``revenue``, ``subsidy``, ``hexes``, ``nodes``,
    ``connections``, ``revenue_str``) and ``stats``. ``cancel`` is an optional
    ``CancelToken`` (see ``new_cancel_token``): ``cancel.cancel()`` from another
    thread stops the search and returns the best routes found so far.
    """
    from route18xx.engine.answer.optimize import solve_report as plain  # lazy: keeps `check` light

    state = state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)
    require_trains(state)
    return plain(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)


def solve_report(
    state_raw: Mapping[str, Any] | RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    pinned_routes: Any = None,
    train_sets: Any = None,
    objectives: bool = True,
) -> SolveReport:
    """The optimum as a typed ``SolveReport`` (each route with its breakdown), explained:

    * ``pinned_routes`` (a run_routes ``routes`` array, train ids as ``solve``
      numbers them): those trains run those routes; the answer is the proven
      optimum of the other trains on the track the pins leave free, with
      ``pinned`` (the optimum without pins and the pins' ``cost``). Illegal pins
      are ``MalformedInput`` naming ``pinned_routes[i]``.
    * ``train_sets`` (``[["4", "4"], ["D"]]``): ``alternatives``, the optimum of
      each set on the same board, built once; each set is checked against the
      phase (``MalformedInput`` naming ``train_sets[i]``).
    * ``objectives``: where the board pays a subsidy and the best revenue and the
      best revenue + subsidy differ, both optima and what each costs in the other.
    """
    from route18xx.engine.answer.prepared_cache import prepared_board
    from route18xx.engine.answer.prepared import Prepared
    from route18xx.engine.answer.solve_answer import explained_solve

    prep: Callable[[], Prepared] | None = None
    if isinstance(state_raw, RouteState):
        state = state_raw
        require_trains(state)
    else:  # a decoded request: read and built once per content (engine.prepared_cache)
        board = prepared_board(state_raw, require_trains)
        state, prep = board.state, board.prepared
    if train_sets is not None and not isinstance(train_sets, list):
        raise MalformedInput("train_sets", "must be a list of train lists such as [['4', '4']]")
    return explained_solve(
        state, objective=objective, time_limit_s=time_limit_s, cancel=cancel,
        pinned_routes=pinned_routes, train_sets=train_sets, objectives=objectives, prep=prep,
    )


def new_cancel_token(deadline: float | None = None) -> CancelToken:
    """A token that stops a running call when cancelled from any thread.

    With ``deadline`` (a ``time.monotonic()`` value) it also reads as cancelled
    once the deadline has passed: replay, validation and solving stop there.
    """
    return CancelToken(deadline)


def suggest_moves(
    state_raw: Mapping[str, Any] | RouteState,
    *,
    top: int = 10,
    include_tokens: bool = False,
    subtract_cost: bool = False,
    objective: str = "total",
    time_limit_s: float = 30.0,
    workers: int = 2,
    cancel: CancelToken | None = None,
    improving_only: bool = False,
    merge_equal: bool = False,
    combined: bool = False,
) -> SuggestReport:
    """Every legal tile lay (and token) ranked by the optimal income it allows.

    Returns a ``SuggestReport``: ``base_income`` (the optimum without a move) and
    ``suggestions``, best first, each with its move (``kind``, ``hex``, ``tile``,
    ``rotation``, ``city``, ``cost``), ``income``, ``gain`` and ``routes`` (see
    ``engine.suggest``); ``to_json()`` is the ``route18xx suggest --json`` object.
    Each move says in words which exits its tile connects (``text``, lays' ``exits``).
    ``improving_only`` keeps only moves that raise the score over no move (when none
    does, ``verdict`` says so: "no lay improves this run"); ``merge_equal`` merges the
    rotations of a tile with the same result (``alternatives``); ``combined`` also
    ranks the best lays each followed by a token (``combined``, ``then_token``).
    """
    from route18xx.engine.suggest.suggest import SuggestOptions
    from route18xx.engine.suggest.suggest_answer import suggest_report

    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise MalformedInput("top", f"must be a whole number >= 1, not {excerpt(top)}")
    if not time_limit_s > 0 or time_limit_s == float("inf"):  # also refuses NaN
        raise MalformedInput(
            "time_limit_s", f"must be a positive number of seconds, not {excerpt(time_limit_s)}"
        )
    state = state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)
    require_trains(state)
    options = SuggestOptions(top, include_tokens, subtract_cost, objective, time_limit_s, workers,
                             improving_only, merge_equal, combined)
    return suggest_report(state, options, cancel)


def suggest_turn(
    state_raw: Mapping[str, Any] | RouteState | None,
    *,
    top: int = 5,
    subtract_cost: bool = False,
    objective: str = "total",
    time_limit_s: float = 30.0,
    trains: bool = True,
    market: Mapping[str, Any] | None = None,
    game_log: Mapping[str, Any] | None = None,
    action_id: int | None = None,
    rules_as_of: Any = None,
    cancel: CancelToken | None = None,
) -> TurnReport:
    """The company's whole turn ranked (issue 24): every plan — the normal lay or none,
    each lay its privates allow or none, then a token or none — by the proven optimal
    income of the board it leaves; the top ``top`` each proven; with ``trains`` the
    advice on every train it may buy after the best plan (``engine.train_advice``).

    The board is ``state_raw``, or with ``game_log`` and ``action_id`` the log just
    before that action (then the depot and other companies' trains are the game's);
    ``market`` holds a state file's optional ``depot`` and ``other_trains``. A
    ``TurnReport``; ``to_json()`` is the ``route18xx suggest --turn --json`` object.
    """
    from route18xx.engine.turn.train_advice import parse_market
    from route18xx.engine.turn.turn_rank import TurnOptions
    from route18xx.engine.turn.turn_suggest import suggest_turn_report

    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise MalformedInput("top", f"must be a whole number >= 1, not {excerpt(top)}")
    if not time_limit_s > 0 or time_limit_s == float("inf"):  # also refuses NaN
        raise MalformedInput(
            "time_limit_s", f"must be a positive number of seconds, not {excerpt(time_limit_s)}"
        )
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"must be one of {list(OBJECTIVES)}, not {excerpt(objective)}")
    if game_log is not None:
        if action_id is None:
            raise MalformedInput("action_id", "a game log needs the id of an action in it")
        from route18xx.engine.turn.turn_log import market_before

        state = state_from_log(game_log, action_id, cancel=cancel, rules_as_of=rules_as_of)
        train_market = market_before(game_log, action_id, state.corporation.sym, cancel=cancel,
                                     rules_as_of=rules_as_of)
    else:
        if state_raw is None:
            raise MalformedInput("state", "is missing")
        state = read_state(state_raw)
        raw_market = market if market is not None else (
            state_raw if isinstance(state_raw, Mapping) else None)
        train_market = parse_market(state, raw_market)
    require_trains(state)
    options = TurnOptions(top, subtract_cost, objective, time_limit_s)
    return suggest_turn_report(state, train_market, options, cancel, trains=trains)


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
        _log_bug("engine bug: %s of a client's game log (turn comparison)", exc)
        raise MalformedInput("game_log", str(exc)) from None


def chosen_suggestion(
    state_raw: Mapping[str, Any] | RouteState,
    moves: list[MoveReport],
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
) -> Suggestion:
    """A move the client picked from a ranking (or a lay then a token), checked legal,
    as a ``Suggestion`` to draw (``engine.suggest.chosen_suggestion``)."""
    from route18xx.engine.suggest.suggest_player import chosen_suggestion as chosen

    state = state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)
    require_trains(state)
    return chosen(state, moves, objective=objective, time_limit_s=time_limit_s, cancel=cancel)


def recorded_turn(
    log_raw: Mapping[str, Any],
    action_id: int,
    state: RouteState,
    base_income: int,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    rules_as_of: Any = None,
) -> RecordedTurn:
    """What the player did at this turn (issue 22), beside the suggestions for it.

    The lays and token the company made in the log from action ``action_id`` to
    the end of its turn (``engine.turn_record``), applied to ``state`` (the board
    just before that action), and the optimal income for ``objective`` on the
    board they leave, with its gain over ``base_income`` (no move). A solve that
    fails leaves ``income`` and ``gain`` None.
    """
    from route18xx.engine.views.board_view import state_with_move
    from route18xx.engine.answer.optimize import optimize, routes_report
    from route18xx.engine.suggest.suggest_report import RecordedTurn
    from route18xx.engine.turn.turn_record import turn_moves

    moves = turn_moves(log_raw, action_id, cancel=cancel, rules_as_of=rules_as_of)
    after = state
    for move in moves:
        after = state_with_move(after, move)
    try:
        opt = optimize(after, objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    except (MalformedInput, EngineMismatch):
        return RecordedTurn(moves, None, None, False)
    income = opt.judgement.revenue + (opt.judgement.subsidy if objective == "total" else 0)
    return RecordedTurn(moves, income, income - base_income, opt.solution.status == "OPTIMAL",
                        routes_report(opt))


def _log_bug(message: str, *args: Any) -> None:
    """Log an engine bug that a client's log triggered, traceback included, on
    ``route18xx.engine``. ``logging`` loads only then: a solve never needs it (issue 35)."""
    import logging

    logging.getLogger("route18xx.engine").exception(message, *args)


def state_from_log(
    log_raw: Mapping[str, Any],
    action_id: int,
    *,
    turn_facts: bool = True,
    cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
) -> RouteState:
    """The state just before action ``action_id`` of an 18xx.games game log (DESIGN.md §4, §5).

    The log is replayed (``engine.replay.state_before``) up to that action; the
    company is the action's corporation, or the one operating when a private
    acts. With ``turn_facts`` (the default) the state carries the facts of the
    company's turn that move suggestions read: ``cash``, ``privates``,
    ``heng_shan_player_owned`` and ``tiles_laid``.

    Raises ``MalformedInput`` naming ``game_log`` (or a field inside it, such as
    ``game_log.players``) when the log cannot be read or replayed that far, and
    ``action_id`` when the action is not in the log, was undone, or is not taken
    during a corporation's operating turn. Each action field the engine reads is
    checked where the action is parsed (``engine.game.actions.parse_action``), so
    damage is named by field (``game_log.actions[12].rotation``). Anything else a
    replay raises is an engine bug that this log triggered: it is logged with
    its traceback on ``route18xx.engine`` and reported as ``MalformedInput
    ("game_log", "action N could not be replayed")``, naming no Python exception.

    ``cancel`` (a ``CancelToken``, see ``new_cancel_token``; give it a deadline)
    is polled once per replayed action: ``OutOfTime`` once it reads as cancelled.
    ``rules_as_of`` ("YYYY-MM-DD", DESIGN.md §9) picks the dated rules the log is
    replayed under (default: the log's own date); a malformed one is
    ``MalformedInput`` naming ``rules_as_of``. The state carries the date used.
    """
    from route18xx.engine.replay.replay import UnreplayableAction, state_before

    parse_rules_as_of(rules_as_of)

    if not isinstance(log_raw, Mapping) or not isinstance(log_raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    for i, entry in enumerate(log_raw["actions"]):
        if not isinstance(entry, Mapping):
            raise MalformedInput(f"game_log.actions[{i}]", "must be an object")
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise MalformedInput("action_id", f"must be a whole number, not {excerpt(action_id)}")
    check_time(cancel, "the replay")
    try:
        raw = state_before(log_raw, action_id, turn_facts=turn_facts, cancel=cancel,
                           rules_as_of=rules_as_of, train_ids=True)
    except MalformedInput as exc:
        if exc.field == "action_id":
            raise
        field = "game_log" if exc.field == "game" else f"game_log.{exc.field}"
        raise MalformedInput(field, exc.reason) from None
    except UnreplayableAction as exc:
        _log_bug("engine bug: %s of a client's game log (state before action %s)",
                 exc, action_id)
        raise MalformedInput("game_log", str(exc)) from None
    except Route18xxError:
        raise  # OutOfTime, IllegalAction: already say what happened
    except Exception:
        _log_bug("engine bug: a client's game log could not be replayed up to action %s",
                 action_id)
        raise MalformedInput("game_log", f"could not be replayed up to action {action_id}") from None
    try:
        return parse_state(raw)
    except MalformedInput:
        _log_bug("engine bug: the state before action %s does not read back", action_id)
        raise MalformedInput("game_log", f"action {action_id} could not be replayed") from None


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
        _log_bug("engine bug: %s of a client's game log (whole replay)", exc)
        raise MalformedInput("game_log", str(exc)) from None
    report = replay_report(result)
    runs = tuple(
        replace(run, turn_start_action_id=starts.get(run.action_id, run.action_id)
                if run.action_id is not None else None)
        for run in report.runs
    )
    return replace(report, runs=runs)


def titles_served() -> dict[str, tuple[str, ...]]:
    """The titles a state file may name, each with its rule sets (DESIGN.md §5 ``title``, ``rule_set``).

    >>> titles_served()["1888"]
    ('north', 'prototype')
    >>> sorted(titles_served())
    ['1830', '1856', '1882', '1888', '1889', '18Chesapeake']
    """
    return {t.name: tuple(t.rule_sets) for t in TITLES.values()}


def titles_replayed() -> list[str]:
    """The titles whose game logs the engine replays: every step of their operating turn is
    one the engine has and nothing else is missing at game level (``Title.game_level_missing``;
    DESIGN.md §10 "Titles at two levels"; the others are played at route level only,
    ``RouteLevelOnly``).

    >>> titles_replayed()
    ['1830', '1888']
    """
    from route18xx.engine.game.operating_round import OPERATING_STEPS

    return sorted(t.name for t in TITLES.values()
                  if set(t.operating_steps) <= set(OPERATING_STEPS) and t.game_level_missing is None)


def currency_formats() -> dict[str, str]:
    """How each title writes money, ``%s`` for the number (its data's ``currency_format``).

    >>> currency_formats()
    {'1888': '¥%s', '1830': '$%s', '1889': '¥%s', '18Chesapeake': '$%s', '1882': '$%s', '1856': '$%s'}
    """
    return {t.name: t.currency_format for t in TITLES.values()}


def subsidy_titles() -> dict[str, bool]:
    """Whether each title pays stop subsidies to the treasury (1888's mine, ROUTES.md §5.3;
    1830 has none): a fact of its data (``stop_subsidies``). Without subsidies the
    income objective and the revenue objective are the same, and no treasury is lost.

    >>> subsidy_titles()
    {'1888': True, '1830': False, '1889': False, '18Chesapeake': False, '1882': False, '1856': False}
    """
    return {t.name: bool(t.data.stop_subsidies) for t in TITLES.values()}


def served_title(name: object, field: str = "title") -> str:
    """The name of the title ``name`` is (an alias such as ``1888N`` included);
    ``MalformedInput`` naming ``field`` and the titles there are otherwise."""
    from route18xx.engine.titles import title_named

    return title_named(name, field).name


def blockers_aliases() -> tuple[str, ...]:
    """The older state-file fields titles keep for ``player_owned_blockers`` (each a
    bool, ``Title.blockers_alias``); the wire's ``State`` carries each as its own field."""
    return tuple(t.blockers_alias for t in TITLES.values() if t.blockers_alias is not None)


def warm_up() -> None:
    """Load the default title's data, OR-Tools and numpy, and solve once: no client pays for it.

    A server calls this before it reports SERVING: the first solve of a process
    otherwise spends ~0.4 s importing OR-Tools. Its solves are not a client's: they
    are not counted in ``solve_tally`` (every solve's status and time, for a server's
    metrics; re-exported here from the solver). The warm-up board is answered as
    ``SolveRoutes`` answers (``solve_report``), and CP-SAT's circuit model is run once
    by the solver's own ``warm_up``: the warm-up board's fast paths never reach
    CP-SAT, which left its ~0.1 s first use to the first hard board (issue 21).
    """
    with solve_tally.uncounted():
        for title in TITLES.values():  # each title's data read and its board answered once
            if title.warm_up_state:
                solve_report(title.warm_up_state, time_limit_s=5.0)
        importlib.import_module("route18xx.solver.search").warm_up()  # CP-SAT, numpy


def warm_up_states() -> list[dict[str, Any]]:
    """The boards a server warms its lanes on before it reports SERVING (each title's
    ``warm_up_state``, copies): a suggestion ranking on each loads what the first client's
    would, the title's derived tables included (issue 34: ready only when a call can be
    answered now)."""
    import copy

    return [copy.deepcopy(dict(t.warm_up_state)) for t in TITLES.values() if t.warm_up_state]


# -- pictures (DESIGN.md §8): the board and routes as plain data, for route18xx.draw ------


def read_state(state_raw: Mapping[str, Any] | RouteState) -> RouteState:
    """A parsed state: a decoded state file is read (``MalformedInput`` naming the field)."""
    return state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)


def board_view(state_raw: Mapping[str, Any] | RouteState) -> BoardView:
    """Every hex with its terrain, printed or laid tile (paths rotated), revenues per
    phase colour and tokens, plus the companies' colours, homes and destinations."""
    from route18xx.engine.views.board_view import board_view_of

    return board_view_of(read_state(state_raw))


def stop_names(state_raw: Mapping[str, Any] | RouteState) -> dict[str, str]:
    """Every stop on the state's board (``"H14-0"``) by its one name ("Qingdao"; the hex
    where two stops share a name: "Beijing (C9 city 1)"), as every front end writes it
    (issue 34: one name per object; ``engine.board.names``)."""
    return _names.stop_names(read_state(state_raw).board)


def company_trains(state_raw: Mapping[str, Any] | RouteState) -> list[tuple[str, str]]:
    """The company's trains, in its order, as (id, one name): ``("3-3", "3-train #1")``;
    the ids are the game's own when the state carries them, as answers name routes."""
    state = read_state(state_raw)
    ids = _names.company_train_ids([t.name for t in state.trains], state.train_ids)
    names = _names.train_names(ids)
    return [(i, names[i]) for i in ids]


def route_walks(state_raw: Mapping[str, Any] | RouteState, routes_raw: Any,
                field: str = "routes") -> list[RouteWalk]:
    """Routes (a run_routes ``routes`` array) judged, priced and walked path by path."""
    from route18xx.engine.views.board_view import route_walks_of

    return route_walks_of(read_state(state_raw), routes_raw, field)


def is_run_routes(log_raw: Mapping[str, Any], action_id: int) -> bool:
    """Action ``action_id`` of a game log is a ``run_routes`` (its routes: ``recorded_routes``)."""
    actions = log_raw.get("actions") if isinstance(log_raw, Mapping) else None
    return any(isinstance(e, Mapping) and e.get("id") == action_id
               and e.get("type") == "run_routes" for e in (actions if isinstance(actions, list) else ()))


def recorded_routes(log_raw: Mapping[str, Any], action_id: int) -> list[Any]:
    """The ``routes`` of the run_routes action ``action_id`` of a game log.

    ``MalformedInput`` naming ``action_id`` when that action is not a run_routes.
    """
    actions = log_raw.get("actions") if isinstance(log_raw, Mapping) else None
    for entry in actions if isinstance(actions, list) else ():
        if isinstance(entry, Mapping) and entry.get("id") == action_id:
            if entry.get("type") != "run_routes":
                raise MalformedInput(
                    "action_id", f"action {action_id} is a {excerpt(entry.get('type'))}, "
                    "not a run_routes: it records no routes")
            routes = entry.get("routes")
            if not isinstance(routes, list):
                raise MalformedInput(f"game_log.actions[id={action_id}].routes", "must be a list")
            return routes
    raise MalformedInput("action_id", f"action {action_id} is not in the log")

# -- the audit of many logs (issue 15) -------------------------------------------------


def parse_game_log(data: bytes) -> dict[str, Any]:
    """An 18xx.games game log from the bytes of its file; ``MalformedInput("game_log")``
    when they are not JSON (``engine.jsontext.decode_json``) or hold no ``actions`` list."""
    from route18xx.engine.inputs.jsontext import decode_json

    raw = decode_json(data, "game_log")
    if not isinstance(raw, dict) or not isinstance(raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    return raw


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
        _log_bug("engine bug: %s of a game log under audit", exc)
        raise MalformedInput("game_log", str(exc)) from None
    except Route18xxError:
        raise
    except Exception:
        _log_bug("engine bug: a game log under audit could not be replayed")
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
