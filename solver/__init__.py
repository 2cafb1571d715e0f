"""route18xx solver — a game-agnostic exact route optimizer (DESIGN.md §3).

Public API:

* ``solve(problem, *, objective="total", time_limit_s=10.0, workers=1, seed=0,
  cancel=None, method="auto") -> Solution`` (``solver/search.py``);
* ``CancelToken`` stops a running solve from another thread (``solver/cancel.py``);
* ``solver.validate.validate(problem, solution, objective=None) -> list[str]``;
* ``solver.bruteforce.brute_force(problem, *, objective="total") -> Solution``,
  the exhaustive reference for small boards.

Pipeline: ``reduce.py`` (drop unreachable track and dead ends, contract
chains) → ``model.py`` (circuits from ``trainvars.py``/``constraints.py``, or
listed routes from ``routes.py`` for limited trains) → ``search.py``.
"""

from __future__ import annotations

from route18xx.solver.cancel import CancelToken
from route18xx.solver.errors import InvalidProblem
from route18xx.solver.model import METHODS, OBJECTIVES, Method, Objective
from route18xx.solver.problem import (
    NO_SIDE,
    Junction,
    PairBonus,
    RouteProblem,
    RouteResult,
    Segment,
    Solution,
    SolveStats,
    Stop,
    Train,
)
from route18xx.solver.search import solve

__all__ = [
    "METHODS",
    "NO_SIDE",
    "OBJECTIVES",
    "CancelToken",
    "InvalidProblem",
    "Junction",
    "Method",
    "Objective",
    "PairBonus",
    "RouteProblem",
    "RouteResult",
    "Segment",
    "Solution",
    "SolveStats",
    "Stop",
    "Train",
    "solve",
]
