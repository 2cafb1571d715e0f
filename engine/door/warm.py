"""What a server runs before it reports SERVING, at the engine's API (``engine.api``;
issue 21, 34): the engine loaded and its boards answered once, no client paying for it."""

from __future__ import annotations

import importlib
from typing import Any

from route18xx.engine.door.solve import solve_report
from route18xx.engine.titles import TITLES
from route18xx.solver import solve_tally


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
