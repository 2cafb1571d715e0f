"""Fuzzing ``state_from_log`` with damaged real logs (issue 9).

Whatever a client sends, the answer is a state or one of the engine's own
errors (``MalformedInput``, ``IllegalAction``, ``OutOfTime``), never another
exception, and messages never name a Python exception or quote more than a
short excerpt of the input. Mutations: delete, duplicate or swap actions;
change a field's value or type (top level, inside a route, inside an
auto-action); drop a key; huge strings and numbers.

``ROUTE18XX_FUZZ_EXAMPLES`` raises the number of examples (default 200).
"""

from __future__ import annotations

import copy
import logging
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.api import state_from_log
from route18xx.engine.errors import IllegalAction, MalformedInput, OutOfTime
from tests.game.conftest import LOG_NAMES, load

EXAMPLES = int(os.environ.get("ROUTE18XX_FUZZ_EXAMPLES", "200"))

#: Values a damaged field may take: other types, out-of-range numbers, huge ones.
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 5, 6, 7, 99, 10**6, -(10**9), 10**30, 10**5000, 1.5, 2.0,
    float("nan"), float("inf"), "", "0", "x", "G15", "57", "57-0", "LYR", "LYR_0", "LYR_9",
    "2-0", "payout", "Z" * 100_000, "H12-0-0", "-", [], [1], ["x"], [["A1"]], {}, {"a": 1},
    [{"train": "2-0"}],
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside an action (into lists and nested objects)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            out.append(prefix + (key,))
            out.extend(_paths(inner, prefix + (key,)))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out.append(prefix + (i,))
            out.extend(_paths(inner, prefix + (i,)))
    return out


def _mutate(actions: list[Any], data: st.DataObject, upto: int) -> None:
    kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "set", "drop", "set", "set"]))
    k = data.draw(st.integers(0, max(upto - 1, 0)))
    if kind == "delete":
        del actions[k]
    elif kind == "duplicate":
        actions.insert(k, copy.deepcopy(actions[k]))
    elif kind == "swap" and k + 1 < len(actions):
        actions[k], actions[k + 1] = actions[k + 1], actions[k]
    else:
        action = actions[k] = copy.deepcopy(actions[k])
        paths = [p for p in _paths(action) if kind == "set" or isinstance(p[-1], str)]
        if not paths:
            return
        path = data.draw(st.sampled_from(paths))
        parent = action
        for step in path[:-1]:
            parent = parent[step]
        if kind == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(st.sampled_from(ODD_VALUES))


class Collect(logging.Handler):
    """Keeps the engine-bug records ``state_from_log`` logs (issue 9: bugs stay visible)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@given(st.data())
@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("ROUTE18XX_FUZZ_EXAMPLES") is None,
)
def test_damaged_logs_give_a_state_or_an_engine_error(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(LOG_NAMES))
    log = load(name)
    run_ids = [a["id"] for a in log["actions"] if a.get("type") == "run_routes"]
    target = data.draw(st.sampled_from(run_ids))
    upto = next(i for i, a in enumerate(log["actions"]) if a.get("id") == target)
    actions = list(log["actions"])
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(actions, data, upto)
    damaged = dict(log, actions=actions)
    bugs = Collect()
    logger = logging.getLogger("route18xx.engine")
    logger.addHandler(bugs)
    try:
        state_from_log(damaged, target)
    except (MalformedInput, IllegalAction, OutOfTime) as exc:
        message = str(exc)
        assert "Error" not in message and "Traceback" not in message, message
        assert len(message) < 600, message
    finally:
        logger.removeHandler(bugs)
    # a damaged log is the client's fault, and the engine says which field: no engine bug
    assert not bugs.records, logging.Formatter().formatException(bugs.records[0].exc_info)  # type: ignore[arg-type]


def _damaged(name: str, action_id: int, **fields: Any) -> tuple[dict[str, Any], int]:
    log = load(name)
    actions = list(log["actions"])
    index = next(i for i, a in enumerate(actions) if a.get("id") == action_id)
    actions[index] = dict(actions[index], **fields)
    return dict(log, actions=actions), index


def test_a_bad_rotation_is_named_by_its_field() -> None:
    log = load("129026")
    lay = next(a for a in log["actions"] if a.get("type") == "lay_tile")
    damaged, index = _damaged("129026", lay["id"], rotation=9)
    try:
        state_from_log(damaged, 138)
    except MalformedInput as exc:
        assert exc.field == f"game_log.actions[{index}].rotation"
        assert exc.reason == "must be a whole number from 0 to 5, not 9"
    else:
        raise AssertionError("a rotation of 9 was accepted")


def test_a_huge_value_is_quoted_as_an_excerpt() -> None:
    log = load("129026")
    buy = next(a for a in log["actions"] if a.get("type") == "buy_shares")
    damaged, index = _damaged("129026", buy["id"], shares=["Z" * 100_000])
    try:
        state_from_log(damaged, 138)
    except MalformedInput as exc:
        assert exc.field == f"game_log.actions[{index}].shares[0]"
        assert len(exc.reason) < 200
    else:
        raise AssertionError("a 100 000-character certificate id was accepted")


def test_an_engine_bug_is_logged_and_reported_without_its_exception_name(
    monkeypatch: Any, caplog: Any
) -> None:
    import route18xx.engine.game.game as game_module

    def broken(self: Any, action: Any) -> None:
        raise KeyError("x")

    monkeypatch.setattr(game_module.Game, "_process_one", broken)
    log = load("129026")
    first = next(a["id"] for a in log["actions"] if isinstance(a.get("id"), int))
    with caplog.at_level(logging.ERROR, logger="route18xx.engine"):
        try:
            state_from_log(log, 138)
        except MalformedInput as exc:
            assert exc.field == "game_log"
            assert exc.reason == f"action {first} could not be replayed"
            assert "KeyError" not in str(exc)
        else:
            raise AssertionError("the bug went unreported")
    assert any("KeyError" in (r.exc_text or "") or r.exc_info for r in caplog.records)
