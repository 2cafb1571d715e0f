"""The optimal-routes calls of the engine's API (``engine.api``, DESIGN.md §5 solve): the
plain answer, the explained one, and the cancel token a caller stops them with."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from route18xx.engine.answer.reports import SolveReport
from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.state_file import RouteState, parse_state, require_trains
from route18xx.solver import OBJECTIVES, CancelToken, Objective  # plain Python: OR-Tools loads at a solve


#: The objective of a call that names none: the first of ``OBJECTIVES`` (revenue + subsidy).
DEFAULT_OBJECTIVE: Objective = OBJECTIVES[0]


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
