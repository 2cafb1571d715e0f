"""The game's facts a state file carries beside its board (STATE-FILES.md) are checked
(``engine.inputs.state_game``): a state cannot say one game in one field and another in the
next. Expected values are the 18xx.games settings the golden states were written from."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.state_file import parse_state

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


def _first(title: str, **wanted: Any) -> dict[str, Any]:
    data = json.loads(gzip.decompress((GOLDEN / title / "verdicts.json.gz").read_bytes()))
    return dict(next(r["state"] for f in data["fixtures"] for r in f["runs"]
                     if all(r["state"].get(k) == v for k, v in wanted.items())))


@pytest.mark.parametrize("title", ["1888", "1830", "1889", "18Chesapeake", "1882", "1856"])
def test_every_golden_state_reads_with_its_game_facts(title: str) -> None:
    data = json.loads(gzip.decompress((GOLDEN / title / "verdicts.json.gz").read_bytes()))
    states = [r["state"] for f in data["fixtures"] for r in f["runs"]]
    assert states and all("optional_rules" in s and "players" in s for s in states)
    for state in states:
        parse_state(state)


def _refused(state: dict[str, Any], field: str) -> str:
    with pytest.raises(MalformedInput) as caught:
        parse_state(state)
    assert caught.value.field == field, (caught.value.field, caught.value.reason)
    return caught.value.reason


def test_optional_rules_must_select_the_rule_set() -> None:
    """1888's ``north`` option is the north rule set: a prototype state cannot list it."""
    state = _first("1888", rule_set="prototype")
    assert "north" in _refused({**state, "optional_rules": ["north"]}, "optional_rules")
    north = _first("1888", rule_set="north")
    assert "prototype" in _refused({**north, "optional_rules": []}, "optional_rules")
    assert _refused({**north, "optional_rules": "north"}, "optional_rules")


def test_players_within_the_rule_sets_range() -> None:
    state = _first("1830")
    for players in (1, 7, "4", True):
        assert "from 2 to 6" in _refused({**state, "players": players}, "players")
    parse_state({**state, "players": 6})


def test_only_corporations_run_in_these_titles() -> None:
    state = _first("1882")
    assert "minor" in _refused({**state, "corporation_type": "minor"}, "corporation_type")


def test_reservations_name_the_map_and_the_companies() -> None:
    state = _first("1830")
    good = {"hex": "E5", "city": 0, "corporation": "CPR"}
    parse_state({**state, "reservations": [good]})
    _refused({**state, "reservations": [{**good, "hex": "Z99"}]}, "reservations[0].hex")
    _refused({**state, "reservations": [{**good, "corporation": "XX"}]},
             "reservations[0].corporation")
    _refused({**state, "reservations": [{**good, "city": -1}]}, "reservations[0].city")
    _refused({**state, "reservations": {"hex": "E5"}}, "reservations")
