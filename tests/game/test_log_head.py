"""A game log's fields of the wrong type are refused naming the field (issue 34).

``"settings": "x"`` or ``5`` failed deep in the replay (``AttributeError``): ReplayGame
answered INTERNAL and the audit called the log an engine bug. Every field the engine
reads outside the actions (``engine.inputs.log_head``, ``log_players``, ``title_named``)
now takes any JSON value: the log is read, or refused as ``MalformedInput`` naming the
field inside ``game_log``. The property runs on the log's first operating turns, so that
each example replays in milliseconds.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine import api
from route18xx.engine.api import MalformedInput
from tests.conftest import LOGS_DIR, load_json

FULL = load_json(LOGS_DIR / "129026.json")
#: The log up to its second run (action 73): two runs, every kind of field the head holds.
SHORT: dict[str, Any] = {**FULL, "actions": [a for a in FULL["actions"] if a["id"] <= 75]}
FIRST_RUN = 68

#: The fields outside the actions that the engine reads, as paths into the log.
FIELDS = [("title",), ("players",), ("actions",), ("settings",), ("settings", "optional_rules"),
          ("result",), ("status",), ("created_at",)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
    | st.text(max_size=8) | st.sampled_from(["north", "finished", "1888", "2023-07-17"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)

CALLS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "replay": lambda log: api.replay_game(log, solve=False),
    "state": lambda log: api.state_from_log(log, FIRST_RUN, turn_facts=False),
}


def with_field(log: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(log)
    holder = out
    for key in path[:-1]:
        if not isinstance(holder.get(key), dict):
            holder[key] = {}
        holder = holder[key]
    holder[path[-1]] = value
    return out


def _names(exc: MalformedInput, path: tuple[str, ...], call: str) -> bool:
    """The refusal names the field (or, for a log whose actions changed, the action asked for)."""
    named = f"game_log.{path[0]}" in exc.field or (path == ("actions",) and exc.field == "game_log")
    return named or (call == "state" and exc.field == "action_id")


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(FIELDS), value=json_values, call=st.sampled_from(list(CALLS)))
def test_any_value_of_a_log_field_is_read_or_refused_naming_it(
    path: tuple[str, ...], value: Any, call: str
) -> None:
    log = with_field(SHORT, path, value)
    try:
        CALLS[call](log)
    except MalformedInput as exc:
        assert _names(exc, path, call), (path, value, str(exc))


@pytest.mark.parametrize("settings_value", ["x", 5, 2.5, True, ["north"]])
@pytest.mark.parametrize("call", list(CALLS))
def test_settings_that_are_not_an_object_are_malformed_settings(settings_value: Any, call: str) -> None:
    with pytest.raises(MalformedInput) as info:
        CALLS[call](with_field(SHORT, ("settings",), settings_value))
    assert info.value.field == "game_log.settings", str(info.value)


@pytest.mark.parametrize(("value", "field"), [
    ("north", "game_log.settings.optional_rules"),
    (5, "game_log.settings.optional_rules"),
    ({"north": True}, "game_log.settings.optional_rules"),
    (["north", 5], "game_log.settings.optional_rules[1]"),
])
def test_optional_rules_are_a_list_of_names(value: Any, field: str) -> None:
    """``"optional_rules": "north"`` was read letter by letter: the prototype rules, silently."""
    with pytest.raises(MalformedInput) as info:
        api.replay_game(with_field(SHORT, ("settings", "optional_rules"), value), solve=False)
    assert info.value.field == field, str(info.value)


def test_the_audit_calls_a_log_with_string_settings_malformed_not_an_engine_bug() -> None:
    with pytest.raises(MalformedInput) as info:
        api.audit_log(with_field(SHORT, ("settings",), "x"), time_limit_s=1)
    assert info.value.field == "game_log.settings" and "engine bug" not in str(info.value)


def test_null_or_missing_settings_are_no_options() -> None:
    log = with_field(SHORT, ("settings",), None)
    del log["status"], log["result"], log["created_at"]
    assert api.replay_game(log, solve=False).to_json()["rule_set"] == "prototype"
