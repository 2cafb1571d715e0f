"""A replayed run's optimum (issue 15): the hook a replay calls at every ``run_routes``.

The replay itself holds no solver: ``engine.api.replay_game`` and the audit pass it
``solve_hook``'s function, which solves the board before each run and keeps its figures
as a ``RunOptimum``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.answer.optimize import optimize
from route18xx.engine.deadline import check_time
from route18xx.engine.inputs.state_file import RouteState, require_trains
from route18xx.engine.replay.replay_report import RunOptimum

if TYPE_CHECKING:
    from route18xx.engine.replay.replay import SolveHook
    from route18xx.solver import CancelToken


def run_optimum(
    state: RouteState,
    *,
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
) -> RunOptimum:
    """A replayed run's optimum: the figures ``solve_routes`` reports for ``state``."""
    require_trains(state)
    return RunOptimum.of(
        optimize(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel), objective)


def solve_hook(
    objective: str = "total", time_limit_s: float = 10.0, cancel: CancelToken | None = None
) -> SolveHook:
    """The hook ``replay(log, solve=...)`` calls at every run: ``run_optimum``, each solve
    limited to ``time_limit_s`` and to what is left before ``cancel``'s deadline."""

    def optimum(state: RouteState) -> RunOptimum:
        check_time(cancel, "the replay's solves")
        # the token's deadline ends the search; the limit alone sets its plan (issue 21)
        return run_optimum(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)

    return optimum
