"""Boards prepared once per content (engine/answer/prepared_cache.py, issue 21): the same
answer as a board read afresh, a changed board never answered from the old one, and
a bad board refused on every call."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.answer.prepared_cache import PREPARED, state_key
from route18xx.engine.inputs.state_file import parse_state
from route18xx.solver import clear_caches
from tests.conftest import STATES_DIR

#: Phase 6, HJR runs 4 + 5 on a board with the mine (two solves per answer).
STATE = "129026-447"


def _state(name: str) -> dict[str, Any]:
    return dict(json.loads((STATES_DIR / f"{name}.json").read_text())["state"])


def _answer(report: api.SolveReport) -> dict[str, Any]:
    out = report.to_json()
    for timing in ("solve_ms", "stats"):
        out.pop(timing)
    return out


def test_key_ignores_field_order_and_refuses_what_is_not_plain_data() -> None:
    raw = _state(STATE)
    assert state_key(raw) == state_key(dict(reversed(list(raw.items()))))
    assert state_key(copy.deepcopy(raw)) == state_key(json.loads(json.dumps(raw)))
    assert state_key({"x": object()}) is None
    assert state_key({"x": [1, {"y": set}]}) is None
    assert state_key({1: "a", "b": 2}) is None  # fields that do not sort: not a state


def test_key_tells_apart_what_json_text_tells_apart() -> None:
    """Two states share a key only when equal value for value and type for type: a
    rotation ``true`` or ``1.0`` is refused by ``parse_state`` where ``1`` is read, so
    it must never find the board read from ``1`` (Python's ``==`` and ``hash`` would)."""
    raw = _state(STATE)
    keys = {state_key(raw)}
    for value in (True, 1.0, "1", [1], 1 + 2**70, -0.0, 0.0, 0):
        changed = copy.deepcopy(raw)
        changed["tiles"][0]["rotation"] = value
        keys.add(state_key(changed))
    assert raw["tiles"][0]["rotation"] != 0  # else the 0 above is no change
    swapped = copy.deepcopy(raw)
    swapped["tiles"][:2] = swapped["tiles"][1::-1]  # tiles in another laying order
    keys.add(state_key(swapped))
    keys.add(state_key({**raw, "cash": 0}))
    assert None not in keys and len(keys) == 11


def test_cached_answer_equals_a_fresh_one_and_follows_changes() -> None:
    clear_caches()
    raw = _state(STATE)
    fresh = _answer(api.solve_report(parse_state(raw)))  # a RouteState: not cached
    first = _answer(api.solve_report(raw))
    hits = PREPARED.hits
    second = _answer(api.solve_report(copy.deepcopy(raw)))
    assert PREPARED.hits == hits + 1
    assert fresh == first == second
    # the company loses its 5: another board, another answer (the 4 alone)
    fewer = copy.deepcopy(raw)
    fewer["trains"] = [t for t in fewer["trains"] if t != "5"]
    assert len(fewer["trains"]) == len(raw["trains"]) - 1
    alone = _answer(api.solve_report(fewer))
    assert alone == _answer(api.solve_report(parse_state(fewer)))
    assert [r["train"] for r in alone["routes"]] != [r["train"] for r in first["routes"]]


def test_a_bad_board_is_refused_every_time() -> None:
    raw = _state(STATE)
    raw["trains"] = []
    size = len(PREPARED)
    for _ in range(2):
        with pytest.raises(api.MalformedInput) as err:
            api.solve_report(raw)
        assert err.value.field == "trains"
    assert len(PREPARED) == size


def test_the_problem_is_built_inside_the_first_answer_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the board happens before the answer; building its problem within it (so
    ``solve_ms`` counts it on a board seen first), once per content."""
    from route18xx.engine.answer import prepared_cache

    clear_caches()
    built: list[str] = []
    real = prepared_cache.prepare

    def counting(state: Any) -> Any:
        built.append(state.corporation.sym)
        return real(state)

    monkeypatch.setattr(prepared_cache, "prepare", counting)
    raw = _state(STATE)
    board = prepared_cache.prepared_board(raw)
    assert built == []  # read, not built
    api.solve_report(raw)
    api.solve_report(copy.deepcopy(raw))
    assert built == [board.state.corporation.sym]
