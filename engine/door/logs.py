"""A client's 18xx.games game log at the engine's API (``engine.api``, DESIGN.md §4, §5):
the board just before one of its actions, its recorded routes, the log read from bytes.
An engine bug a client's log triggers is logged here and reported as bad input."""

from __future__ import annotations

from typing import Any, Mapping

from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.errors import MalformedInput, Route18xxError, excerpt
from route18xx.engine.facts.rule_versions import parse_rules_as_of
from route18xx.engine.inputs.state_file import RouteState, parse_state


def log_bug(message: str, *args: Any) -> None:
    """Log an engine bug that a client's log triggered, traceback included, on
    ``route18xx.engine``. ``logging`` loads only then: a solve never needs it (issue 35)."""
    import logging

    logging.getLogger("route18xx.engine").exception(message, *args)


def state_from_log(
    log_raw: Mapping[str, Any],
    action_id: int,
    *,
    turn_facts: bool = True,
    cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
) -> RouteState:
    """The state just before action ``action_id`` of an 18xx.games game log (DESIGN.md §4, §5).

    The log is replayed (``engine.replay.state_before``) up to that action; the
    company is the action's corporation, or the one operating when a private
    acts. With ``turn_facts`` (the default) the state carries the facts of the
    company's turn that move suggestions read: ``cash``, ``privates``,
    ``heng_shan_player_owned`` and ``tiles_laid``.

    Raises ``MalformedInput`` naming ``game_log`` (or a field inside it, such as
    ``game_log.players``) when the log cannot be read or replayed that far, and
    ``action_id`` when the action is not in the log, was undone, or is not taken
    during a corporation's operating turn. Each action field the engine reads is
    checked where the action is parsed (``engine.game.actions.parse_action``), so
    damage is named by field (``game_log.actions[12].rotation``). Anything else a
    replay raises is an engine bug that this log triggered: it is logged with
    its traceback on ``route18xx.engine`` and reported as ``MalformedInput
    ("game_log", "action N could not be replayed")``, naming no Python exception.

    ``cancel`` (a ``CancelToken``, see ``new_cancel_token``; give it a deadline)
    is polled once per replayed action: ``OutOfTime`` once it reads as cancelled.
    ``rules_as_of`` ("YYYY-MM-DD", DESIGN.md §9) picks the dated rules the log is
    replayed under (default: the log's own date); a malformed one is
    ``MalformedInput`` naming ``rules_as_of``. The state carries the date used.
    """
    from route18xx.engine.replay.replay import UnreplayableAction, state_before

    parse_rules_as_of(rules_as_of)

    if not isinstance(log_raw, Mapping) or not isinstance(log_raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    for i, entry in enumerate(log_raw["actions"]):
        if not isinstance(entry, Mapping):
            raise MalformedInput(f"game_log.actions[{i}]", "must be an object")
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise MalformedInput("action_id", f"must be a whole number, not {excerpt(action_id)}")
    check_time(cancel, "the replay")
    try:
        raw = state_before(log_raw, action_id, turn_facts=turn_facts, cancel=cancel,
                           rules_as_of=rules_as_of, train_ids=True)
    except MalformedInput as exc:
        if exc.field == "action_id":
            raise
        field = "game_log" if exc.field == "game" else f"game_log.{exc.field}"
        raise MalformedInput(field, exc.reason) from None
    except UnreplayableAction as exc:
        log_bug("engine bug: %s of a client's game log (state before action %s)",
                 exc, action_id)
        raise MalformedInput("game_log", str(exc)) from None
    except Route18xxError:
        raise  # OutOfTime, IllegalAction: already say what happened
    except Exception:
        log_bug("engine bug: a client's game log could not be replayed up to action %s",
                 action_id)
        raise MalformedInput("game_log", f"could not be replayed up to action {action_id}") from None
    try:
        return parse_state(raw)
    except MalformedInput:
        log_bug("engine bug: the state before action %s does not read back", action_id)
        raise MalformedInput("game_log", f"action {action_id} could not be replayed") from None


def is_run_routes(log_raw: Mapping[str, Any], action_id: int) -> bool:
    """Action ``action_id`` of a game log is a ``run_routes`` (its routes: ``recorded_routes``)."""
    actions = log_raw.get("actions") if isinstance(log_raw, Mapping) else None
    return any(isinstance(e, Mapping) and e.get("id") == action_id
               and e.get("type") == "run_routes" for e in (actions if isinstance(actions, list) else ()))


def recorded_routes(log_raw: Mapping[str, Any], action_id: int) -> list[Any]:
    """The ``routes`` of the run_routes action ``action_id`` of a game log.

    ``MalformedInput`` naming ``action_id`` when that action is not a run_routes.
    """
    actions = log_raw.get("actions") if isinstance(log_raw, Mapping) else None
    for entry in actions if isinstance(actions, list) else ():
        if isinstance(entry, Mapping) and entry.get("id") == action_id:
            if entry.get("type") != "run_routes":
                raise MalformedInput(
                    "action_id", f"action {action_id} is a {excerpt(entry.get('type'))}, "
                    "not a run_routes: it records no routes")
            routes = entry.get("routes")
            if not isinstance(routes, list):
                raise MalformedInput(f"game_log.actions[id={action_id}].routes", "must be a list")
            return routes
    raise MalformedInput("action_id", f"action {action_id} is not in the log")


def parse_game_log(data: bytes) -> dict[str, Any]:
    """An 18xx.games game log from the bytes of its file; ``MalformedInput("game_log")``
    when they are not JSON (``engine.jsontext.decode_json``) or hold no ``actions`` list."""
    from route18xx.engine.inputs.jsontext import decode_json

    raw = decode_json(data, "game_log")
    if not isinstance(raw, dict) or not isinstance(raw.get("actions"), list):
        raise MalformedInput("game_log", "is not an 18xx.games game log (no 'actions' list)")
    return raw
