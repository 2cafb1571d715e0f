"""Every state a real game reaches passes the rules-level checks (issue 9).

Walks both logs: before every ``run_routes`` the state passes ``parse_state``
and the recorded routes are judged legal by ``check_routes``; before every
action a corporation takes in its operating turn, the state with its turn facts
(``turn_facts=True``) is accepted too.
"""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine.api import check_routes
from route18xx.engine.replay.replay import kept_actions, states_before
from route18xx.engine.inputs.state_file import parse_state
from tests.game.conftest import LOG_NAMES, load


def _corporation_actions(log: dict[str, Any], kind: str | None = None) -> list[dict[str, Any]]:
    return [
        a
        for a in kept_actions(log)
        if a.get("entity_type") == "corporation" and (kind is None or a.get("type") == kind)
    ]


@pytest.mark.parametrize("log_name", LOG_NAMES)
def test_every_run_routes_state_and_its_routes_pass(log_name: str) -> None:
    log = load(log_name)
    actions = _corporation_actions(log, "run_routes")
    assert actions
    states = states_before(log, [a["id"] for a in actions])
    for action in actions:
        state = parse_state(states[action["id"]])
        report = check_routes(state, action["routes"])
        assert report["legal"], (action["id"], report["violations"])


@pytest.mark.parametrize("log_name", LOG_NAMES)
def test_every_operating_state_with_turn_facts_passes(log_name: str) -> None:
    log = load(log_name)
    ids = [a["id"] for a in _corporation_actions(log)]
    assert len(ids) > 100
    states = states_before(log, ids, turn_facts=True)
    for action_id in ids:
        try:
            parse_state(states[action_id])
        except Exception as exc:  # pragma: no cover - the message names the action
            raise AssertionError(f"action {action_id}: {exc}") from exc
