"""1888's ``heng_shan_player_owned`` is the title's alias of ``player_owned_blockers``
(issue 25): mapped in one place (``Title.blockers_alias``), read into the general field,
written back as the alias when it can say it, refused naming the field when not a bool."""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.state_file import parse_state, to_state_file

#: ROUTES.md §7 example 1 (LYR's 2-train), with the turn facts of a state file.
STATE: dict[str, Any] = {
    "title": "1888", "rule_set": "north", "phase": "2", "corporation": "LYR", "trains": ["2"],
    "tiles": [], "tokens": [{"hex": "F16", "city": 0, "corporation": "LYR"}],
}


@pytest.mark.parametrize(("flag", "owned"), [(True, ("HS",)), (False, ())])
def test_the_alias_reads_as_every_blocker_or_none(flag: bool, owned: tuple[str, ...]) -> None:
    # RULES.md §7.3: Heng Shan is 1888's one private that blocks a hex (C5)
    state = parse_state({**STATE, "heng_shan_player_owned": flag})
    assert state.player_owned_blockers == owned
    assert to_state_file(state)["heng_shan_player_owned"] is flag
    assert "player_owned_blockers" not in to_state_file(state)
    assert parse_state(to_state_file(state)).player_owned_blockers == owned


def test_the_list_says_more_than_the_alias() -> None:
    both = parse_state({**STATE, "heng_shan_player_owned": True, "player_owned_blockers": []})
    assert both.player_owned_blockers == ()
    assert parse_state(STATE).player_owned_blockers is None


def test_an_alias_that_is_no_bool_is_refused_by_its_name() -> None:
    with pytest.raises(MalformedInput) as err:
        parse_state({**STATE, "heng_shan_player_owned": "yes"})
    assert err.value.field == "heng_shan_player_owned"


def test_1830_has_no_alias_and_writes_the_list() -> None:
    state = parse_state({
        "title": "1830", "rule_set": "standard", "phase": "3", "corporation": "PRR",
        "trains": ["3"], "tiles": [], "tokens": [{"hex": "H12", "city": 0, "corporation": "PRR"}],
        "player_owned_blockers": ["SV", "CS"],
    })
    out = to_state_file(state)
    assert out["player_owned_blockers"] == ["SV", "CS"] and "heng_shan_player_owned" not in out


def test_1888_alias_in_an_1830_state_is_refused_by_its_name() -> None:
    with pytest.raises(MalformedInput) as err:
        parse_state({
            "title": "1830", "rule_set": "standard", "phase": "3", "corporation": "PRR",
            "trains": ["3"], "tiles": [], "tokens": [{"hex": "H12", "city": 0, "corporation": "PRR"}],
            "heng_shan_player_owned": True,
        })
    assert err.value.field == "heng_shan_player_owned"
    assert "player_owned_blockers" in err.value.reason
