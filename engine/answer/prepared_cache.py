"""Boards prepared once per content (issue 21: the warm ``SolveRoutes`` answer).

A solve request carries a whole state file; reading it (``state_file.parse_state``:
the board, the company, the rules checks) and building its ``RouteProblem``
(``problem_builder.build_problem``: the company's reach, the stops and track)
depend on nothing but that content. A board asked again — the same company
before and after a what-if, a page polling, a benchmark — takes its ``Prepared``
from here; every answer is still solved and re-judged whole by the one
validator (``route_judge.judge_routes``), and the solver keeps its own
per-problem data (``solver/runtime/derived.py``).

The state is read before the answer starts (as a request always was); its problem
is built on first use inside the answer (``PreparedBoard.prepared``), so a board
seen first still counts that work in ``solve_ms``.

The key is the state's content as ``marshal`` bytes (``state_key``: about 0.025 ms
for a full 1888 state, a quarter of its sorted JSON text), so equal content is one
entry whatever the order of the state's own fields, and any change (a tile, a
token, a train, ``1`` for ``true`` or ``1.0``) is another. A state that does not read
is never stored: its error is raised again on every call. What entries hold is
frozen (``RouteState``, ``BuiltProblem``); callers derive new ones by ``replace``.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping
from typing import Any

from route18xx.engine.inputs.state_file import RouteState, parse_state
from route18xx.engine.answer.prepared import Prepared, prepare
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


#: Boards by state content (``solver/runtime/derived.py``'s LRU).
PREPARED: Lru[PreparedBoard] = Lru()


#: marshal's format 2: exact types (``True``, ``1`` and ``1.0`` differ; a subclass is
#: refused), and no back-references or interning flags, which later formats write from
#: how objects happen to be shared (a copy of a request would be another key).
_KEY_FORMAT = 2


def state_key(raw: Mapping[str, Any]) -> bytes | None:
    """A decoded state's content as bytes that decode back to it (so two states share a
    key only when equal, value for value and type for type), its fields in sorted
    order; None when it holds what is not plain data (then nothing is cached: the
    board is read as it is). Objects inside it are keyed in their own order: the same
    tile written ``{rotation, hex, tile}`` is another key (read again, never confused).
    A value that is not an object (``[]``, ``null``: issue 34) has no key: ``parse_state``
    refuses it as ``MalformedInput``."""
    if not isinstance(raw, Mapping):
        return None
    try:
        return marshal.dumps(sorted(raw.items()), _KEY_FORMAT)
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
