"""Undo/redo resolution (ACTIONS.md §2.2) is linear and gives the same kept actions as
the plain quadratic walk the specification describes (issue 9)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from route18xx.engine.replay.replay import kept_actions, replay
from tests.game.conftest import load


def spec_kept_actions(actions: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """ACTIONS.md §2.2 word for word: clear kept entries, push and pop groups (quadratic)."""
    kept: list[Mapping[str, Any] | None] = [None] * len(actions)
    groups: list[list[tuple[int, Mapping[str, Any]]]] = []
    for i, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                j = i - 1
                while j >= 0 and (kept[j] is None or kept[j].get("type") == "message"):  # type: ignore[union-attr]
                    j -= 1
                start = max(j, 0)
            elif target == 0:
                start = 0
            elif any(a.get("id") == target for a in actions):
                start = max(p for p, a in enumerate(actions) if a.get("id") == target) + 1
            else:
                start = next((p for p, a in enumerate(actions) if a.get("id", -1) > target), i)
            group = []
            for j in range(start, i):
                entry = kept[j]
                if entry is not None and entry.get("type") != "message":
                    group.append((j, entry))
                    kept[j] = None
            groups.append(group)
        elif kind == "redo":
            if groups:
                for j, entry in groups.pop():
                    kept[j] = entry
        elif kind == "message":
            kept[i] = action
        else:
            groups.clear()
            kept[i] = action
    return [a for a in kept if a is not None]


ENTRY = st.one_of(
    st.just({"type": "pass"}),
    st.just({"type": "message"}),
    st.just({"type": "undo"}),
    st.just({"type": "redo"}),
    st.builds(lambda k: {"type": "undo", "action_id": k}, st.integers(0, 60)),
)


@given(st.lists(ENTRY, max_size=60), st.booleans())
@settings(max_examples=400, deadline=None)
def test_kept_actions_agrees_with_the_specification(entries: list[dict[str, Any]], gaps: bool) -> None:
    # ids increase, with gaps (ACTIONS.md §2.1) so that some undo targets are missing
    actions = [dict(e, id=(2 * n + 1 if gaps else n + 1)) for n, e in enumerate(entries)]
    got = [a["id"] for a in kept_actions({"actions": actions})]
    assert got == [a["id"] for a in spec_kept_actions(actions)]


def test_undo_to_an_unordered_missing_id_goes_back_to_the_first_later_id() -> None:
    actions: list[dict[str, Any]] = [
        {"type": "pass", "id": 3}, {"type": "pass", "id": 10}, {"type": "pass", "id": 5},
        {"type": "pass", "id": 20}, {"type": "undo", "id": 21, "action_id": 7},
    ]
    assert [a["id"] for a in kept_actions({"actions": actions})] == [3]
    assert spec_kept_actions(actions) == [actions[0]]


def _with_undos(log: Mapping[str, Any], undos: int, redos: int) -> dict[str, Any]:
    entity = log["actions"][-1]["entity"]
    tail = [{"type": "undo", "entity": entity, "entity_type": "player"} for _ in range(undos)]
    tail += [{"type": "redo", "entity": entity, "entity_type": "player"} for _ in range(redos)]
    first = max(a["id"] for a in log["actions"]) + 1
    for n, entry in enumerate(tail):
        entry["id"] = first + n
    out = copy.copy(dict(log))
    out["actions"] = list(log["actions"]) + tail
    return out


def test_sixteen_thousand_undos_resolve_to_nothing_kept() -> None:
    """Issue 9: 16 000 undos appended to 129026 (7.5 s when each rescanned the log)."""
    log = load("129026")
    kept = kept_actions(_with_undos(log, 16_000, 0))
    assert [a for a in kept if a.get("type") != "message"] == []


def test_sixteen_thousand_undos_and_redos_replay_to_the_recorded_scores() -> None:
    log = load("129026")
    damaged = _with_undos(log, 16_000, 16_000)
    assert kept_actions(damaged) == kept_actions(log)
    result = replay(damaged)
    assert result.errors == [] and result.scores_match
