"""route18xx solver — a game-agnostic exact route optimizer (DESIGN.md §3).

Public API: ``solve(problem, ...) -> Solution`` over a ``RouteProblem``;
``validate`` checks a solution against its problem; ``brute_force`` is the
exhaustive reference for small boards; ``CancelToken`` stops a running solve.
"""

from __future__ import annotations

from solver.cancel import CancelToken
from solver.errors import InvalidProblem
from solver.model import METHODS, OBJECTIVES, Method, Objective
from solver.problem import (
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
from solver.search import solve

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
