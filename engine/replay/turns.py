"""Where each operating turn of a game log begins (ACTIONS.md §2; RULES.md §6 "operating turn").

A corporation's operating turn is the run of kept actions (after undo/redo)
taken by that corporation, or by a private company it owns acting for it, between
the actions of other entities. A client that shows a recorded ``run_routes`` and
asks what the company could have laid needs the board *before* the turn's
first action, not before the run: ``turn_starts`` gives that action's id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from route18xx.engine.deadline import CancelSignal
from route18xx.engine.replay.replay import kept_actions

#: Actions that belong to no entity's turn (chat, program settings).
_NEUTRAL = ("message",)


def acting_entity(action: Mapping[str, Any], owners: dict[str, str],
                  current: object) -> object:
    """Whose turn ``action`` is taken in: the corporation owning the private that acts
    (the last ``buy_company`` of it, RULES.md §7: a private acts for its owning
    corporation, in that corporation's turn), else the stretch's owner when the
    owner is unknown, else the acting entity itself. Records a ``buy_company``."""
    entity = (action.get("entity_type"), action.get("entity"))
    if action.get("type") == "buy_company" and isinstance(action.get("company"), str):
        owners[action["company"]] = str(action.get("entity"))
    if action.get("entity_type") == "company":
        corp = owners.get(str(action.get("entity")))
        if corp is not None:
            return ("corporation", corp)
        if current is not None:
            return current
    return entity


def turn_starts(log: Mapping[str, Any], *, cancel: CancelSignal | None = None) -> dict[int, int]:
    """``run_routes`` action id → id of the first action of the operating turn it ends in.

    A private company's action belongs to the turn of the corporation that bought
    it (``acting_entity``): so a turn may begin with a private's lay (129026: the
    Heng Shan lay at 248 begins HJR's turn that runs at 251). Any other entity
    begins a new stretch.
    """
    starts: dict[int, int] = {}
    owner: object = None
    owners: dict[str, str] = {}
    start: int | None = None
    for action in kept_actions(log, cancel=cancel):
        kind, action_id = action.get("type"), action.get("id")
        if not isinstance(kind, str) or kind in _NEUTRAL or kind.startswith("program_"):
            continue
        if not isinstance(action_id, int):
            continue
        entity = acting_entity(action, owners, owner)
        if entity != owner:
            owner, start = entity, action_id
        if kind == "run_routes" and start is not None:
            starts[action_id] = start
    return starts
