"""Move and turn suggestions at the engine's API (``engine.api``, issues 22, 24): every
legal lay (and token) ranked, whole turns ranked with train advice, a move the client
picked, and what the player did at a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from route18xx.engine.door.boards import read_state
from route18xx.engine.door.logs import state_from_log
from route18xx.engine.errors import EngineMismatch, MalformedInput, excerpt
from route18xx.engine.inputs.state_file import RouteState, parse_state, require_trains
from route18xx.solver import OBJECTIVES, CancelToken

if TYPE_CHECKING:  # at run time these load on first use
    from route18xx.engine.suggest.suggest_report import (
        MoveReport, RecordedTurn, SuggestReport, Suggestion,
    )
    from route18xx.engine.turn.turn_report import TurnReport


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
