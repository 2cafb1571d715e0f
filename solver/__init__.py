"""route18xx solver — a game-agnostic exact route optimizer (DESIGN.md §3).

Public API:

* ``solve(problem, *, objective="total", time_limit_s=10.0, workers=1, seed=0,
  cancel=None, method="auto") -> Solution`` (``solver/search.py``);
* ``solve_both(problem, *, objective="total", time_limit_s=10.0, cancel=None)
  -> (Solution, Solution) | None``: both objectives from one search where that
  settles them (a lone train, ``solver/both.py``), else None;
* ``warm_up()``: load CP-SAT and run its circuit model once (a server's start);
* ``solve_tally``: every solve's status and time, while counting is on (a
  server's metrics, ``solver/runtime/tally.py``);
* ``CancelToken`` stops a running solve from another thread (``solver/runtime/cancel.py``);
* ``Lru`` and ``clear_caches()``: the caches of derived data, kept per problem
  content (``solver/runtime/derived.py``); ``clear_caches`` empties them all (benchmarks
  of a board seen first);
* ``reduce_problem(problem) -> ReducedGraph``, the graph the model is built on
  (``solver/graph/reduce.py``): callers key caches on it (two boards with the same
  reduced graph have the same optimum);
* ``solver.validate.validate(problem, solution, objective=None) -> list[str]``;
* ``solver.bruteforce.brute_force(problem, *, objective="total") -> Solution``,
  the exhaustive reference for small boards.

Pipeline: ``reduce.py`` (drop unreachable track and dead ends, contract
chains) → ``model.py`` (circuits from ``trainvars.py``/``constraints.py``, or
listed routes from ``routes.py`` for limited trains) → ``search.py``.

``solve`` loads OR-Tools, so it is imported on first use: the rest (the problem schema, ``CancelToken``, the reduction)
is plain Python, and ``route18xx check`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from route18xx.solver.runtime.cancel import CancelToken
from route18xx.solver.errors import InvalidProblem
from route18xx.solver.objective import METHODS, OBJECTIVES, Method, Objective
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
from route18xx.solver.runtime.derived import Lru, clear_caches
from route18xx.solver.graph.reduce import ReducedGraph, reduce_problem
from route18xx.solver.runtime.tally import SolveTally, solve_tally
from route18xx.solver.tuning import DEFAULT_OPTIONS, SolveOptions

if TYPE_CHECKING:
    from route18xx.solver.both import solve_both
    from route18xx.solver.search import solve, warm_up

__all__ = [
    "DEFAULT_OPTIONS",
    "SolveOptions",
    "METHODS",
    "NO_SIDE",
    "OBJECTIVES",
    "CancelToken",
    "InvalidProblem",
    "Junction",
    "Lru",
    "Method",
    "Objective",
    "PairBonus",
    "ReducedGraph",
    "RouteProblem",
    "RouteResult",
    "Segment",
    "Solution",
    "SolveStats",
    "SolveTally",
    "Stop",
    "Train",
    "clear_caches",
    "reduce_problem",
    "solve",
    "solve_both",
    "solve_tally",
    "warm_up",
]

_LAZY = {"solve": "route18xx.solver.search", "warm_up": "route18xx.solver.search",
         "solve_both": "route18xx.solver.both"}


def __getattr__(name: str) -> Any:
    """Import the OR-Tools parts of the API when first asked for (PEP 562)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'route18xx.solver' has no attribute {name!r}")
