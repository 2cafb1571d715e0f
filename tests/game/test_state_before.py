"""``state_before`` reproduces every real state file cut from the shared logs (DESIGN.md §5)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.errors import MalformedInput
from route18xx.engine.replay.replay import state_before, states_before
from tests.game.conftest import load, states_dir


def _as_sets(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": state["title"],
        "rule_set": state["rule_set"],
        "phase": state["phase"],
        "corporation": state["corporation"],
        "trains": sorted(state["trains"]),
        "tiles": sorted((t["hex"], t["tile"], t["rotation"]) for t in state["tiles"]),
        "tokens": sorted((t["hex"], t["city"], t["corporation"]) for t in state["tokens"]),
    }


def _state_files() -> dict[str, list[tuple[int, Path]]]:
    by_log: dict[str, list[tuple[int, Path]]] = defaultdict(list)
    for path in sorted(states_dir().glob("*.json")):
        log, _, action = path.stem.rpartition("-")
        by_log[log].append((int(action), path))
    return by_log


def test_every_state_file_is_reproduced() -> None:
    files = _state_files()
    assert sum(len(v) for v in files.values()) == 123
    for log_name, entries in files.items():
        got = states_before(load(log_name), [a for a, _ in entries])
        for action_id, path in entries:
            want = json.loads(path.read_text("utf-8"))["state"]
            assert _as_sets(got[action_id]) == _as_sets(want), path.name


@pytest.mark.parametrize(
    "log_name, action_id", [("129026", 138), ("129026", 728), ("1888_game_end_bankrupt", 300)]
)
def test_state_before_single_action(log_name: str, action_id: int) -> None:
    path = states_dir() / f"{log_name}-{action_id}.json"
    want = json.loads(path.read_text("utf-8"))["state"]
    assert _as_sets(state_before(load(log_name), action_id)) == _as_sets(want)


def test_state_before_an_undone_or_unknown_action_is_malformed_input() -> None:
    log = load("129026")
    with pytest.raises(MalformedInput, match="undone"):
        state_before(log, 316)
    with pytest.raises(MalformedInput, match="no action"):
        state_before(log, 99999)


def test_state_before_a_stock_round_action_names_no_corporation() -> None:
    with pytest.raises(MalformedInput, match="not taken while a corporation operates"):
        state_before(load("129026"), 44)
