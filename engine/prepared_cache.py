"""Boards prepared once per content (issue 21: the warm ``SolveRoutes`` answer).

A solve request carries a whole state file; reading it (``state_file.parse_state``:
the board, the company, the rules checks) and building its ``RouteProblem``
(``problem_builder.build_problem``: the company's reach, the stops and track)
depend on nothing but that content. A board asked again — the same company
before and after a what-if, a page polling, a benchmark — takes its ``Prepared``
from here; every answer is still solved and re-judged whole by the one
validator (``route_judge.judge_routes``), and the solver keeps its own
per-problem data (``solver/derived.py``).

The state is read before the answer starts (as a request always was); its problem
is built on first use inside the answer (``PreparedBoard.prepared``), so a board
seen first still counts that work in ``solve_ms``.

The key is the state's canonical JSON text (sorted keys: about 0.1 ms for a
full 1888 state), so equal content is one entry whatever the key order, and
any change (a tile, a token, a train) is another. A state that does not read
is never stored: its error is raised again on every call. What entries hold is
frozen (``RouteState``, ``BuiltProblem``); callers derive new ones by ``replace``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from route18xx.engine.state_file import RouteState, parse_state
from route18xx.engine.whatif import Prepared, prepare
from route18xx.solver import Lru

class PreparedBoard:
    """A state read once; its problem built on first use (``prepared``), inside the
    answer that needs it, so ``solve_ms`` still counts it on a board seen first."""

    def __init__(self, state: RouteState) -> None:
        self.state = state
        self._prep: Prepared | None = None

    def prepared(self) -> Prepared:
        prep = self._prep
        if prep is None:  # two threads at once only build it twice
            prep = self._prep = prepare(self.state)
        return prep


#: Boards by state content (``solver/derived.py``'s LRU).
PREPARED: Lru[PreparedBoard] = Lru()


def state_key(raw: Mapping[str, Any]) -> str | None:
    """The canonical JSON text of a decoded state, or None when it is not plain JSON
    (then nothing is cached: the board is read as it is)."""
    try:
        return json.dumps(raw, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None


def prepared_board(
    raw: Mapping[str, Any], check: Callable[[RouteState], None] = lambda state: None
) -> PreparedBoard:
    """``raw`` read and passed to ``check``, once per content (``MalformedInput`` as
    ``parse_state`` or ``check`` raises it, every time)."""

    def compute() -> PreparedBoard:
        state = parse_state(raw)
        check(state)
        return PreparedBoard(state)

    key = state_key(raw)
    return compute() if key is None else PREPARED.get(key, compute)
