"""Where each operating turn of a game log begins (ACTIONS.md §2; RULES.md §6 "operating turn").

A corporation's operating turn is the run of kept actions (after undo/redo)
taken by that corporation, or by a private company acting for it, between the
actions of other entities. A client that shows a recorded ``run_routes`` and
asks what the company could have laid needs the board *before* the turn's
first action, not before the run: ``turn_starts`` gives that action's id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from route18xx.engine.deadline import CancelSignal
from route18xx.engine.replay import kept_actions

#: Actions that belong to no entity's turn (chat, program settings).
_NEUTRAL = ("message",)


def turn_starts(log: Mapping[str, Any], *, cancel: CancelSignal | None = None) -> dict[int, int]:
    """``run_routes`` action id → id of the first action of the operating turn it ends in.

    A private company's action (``entity_type`` ``company``) stays in the turn
    of the corporation acting before it; any other entity begins a new stretch.
    """
    starts: dict[int, int] = {}
    owner: object = None
    start: int | None = None
    for action in kept_actions(log, cancel=cancel):
        kind, action_id = action.get("type"), action.get("id")
        if not isinstance(kind, str) or kind in _NEUTRAL or kind.startswith("program_"):
            continue
        if not isinstance(action_id, int):
            continue
        if action.get("entity_type") == "company" and owner is not None:
            continue
        entity = (action.get("entity_type"), action.get("entity"))
        if entity != owner:
            owner, start = entity, action_id
        if kind == "run_routes" and start is not None:
            starts[action_id] = start
    return starts
