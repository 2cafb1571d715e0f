"""Reading a state's tiles and tokens (engine/inputs/board_file.py, issue 21): the flat path
for well-formed items reads every board exactly as the checks alone do, and a bad
item gets the same error (field and reason) either way.

The witness is the same module with its flat path switched off (the facts it looks
up emptied), so every item is read check by check, as before the flat path existed.
Boards are real states mutated item by item by Hypothesis (derandomized);
``ROUTE18XX_BOARD_FILE_EXAMPLES`` sets how many (default 150).
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.inputs import board_file
from route18xx.engine.board import state_rules as rules
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import GameData, game_data
from route18xx.engine.facts.rule_versions import rules_as_of
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import STATES_DIR, load_json, state_files

EXAMPLES = int(os.environ.get("ROUTE18XX_BOARD_FILE_EXAMPLES", "150"))
STATES = [load_json(p)["state"] for p in state_files()[::6]]


class Name(str):
    """A string that is not exactly ``str`` (read by the checks, never by the flat path)."""


def _nothing(data: GameData, key: Any) -> dict[str, Any]:
    return {}


def _no_tokens(data: GameData) -> dict[str, int]:
    return {}


def _none_laid(data: GameData) -> dict[Any, Any]:
    return {}


def _no_fact(*args: Any) -> None:
    return None


@contextmanager
def _checks_only() -> Iterator[None]:
    """``board_file`` with the flat path's facts emptied: every item read check by check,
    every tile judged on the board."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(board_file, "_accepted_tiles", _nothing)
        patch.setattr(board_file, "_laid_tiles", _none_laid)
        patch.setattr(board_file, "_laid_tile", _no_fact)
        patch.setattr(board_file, "_token_counts", _no_tokens)
        yield


def _outcome(raw: dict[str, Any]) -> tuple[str, Any]:
    try:
        state = parse_state(raw)
    except MalformedInput as err:
        return "error", (err.field, err.reason)
    return "board", (state.board.placed, state.board.tokens)


VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [True, False, 1.0, 6, -1, 2**40, "1", None, [], {}, "Z99", "H12", "C9", "L40b", "57",
     "611", "8", "9", "LYR", "JHR", Name("8"), Name("H12"), 0, 1, 2, 5]
)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    raw: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(STATES)))
    for _ in range(draw(st.integers(1, 3))):
        array = draw(st.sampled_from(["tiles", "tokens"]))
        items = raw[array]
        if not items:
            continue
        i = draw(st.integers(0, len(items) - 1))
        if type(items[i]) is not dict or not items[i]:  # an earlier mutation's
            continue
        how = draw(st.sampled_from(["set", "drop", "copy", "repeat", "shape", "extra"]))
        if how == "set":
            field = draw(st.sampled_from(sorted(items[i])))
            items[i][field] = draw(VALUES)
        elif how == "drop":
            items[i].pop(draw(st.sampled_from(sorted(items[i]))))
        elif how == "copy":  # another item's field: a hex listed twice, a second token
            j = draw(st.integers(0, len(items) - 1))
            field = draw(st.sampled_from(sorted(items[i])))
            items[i][field] = items[j].get(field) if isinstance(items[j], dict) else None
        elif how == "repeat":  # the same item again: past the supply, into a full city
            items.insert(draw(st.integers(0, len(items))), dict(items[i]))
        elif how == "shape":
            items[i] = draw(st.sampled_from(
                [[], "tile", None, MappingProxyType(items[i]), dict(reversed(items[i].items()))]
            ))
        else:
            items[i]["note"] = draw(VALUES)
    return raw


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_flat_path_reads_as_the_checks_do(raw: dict[str, Any]) -> None:
    fast = _outcome(raw)
    with _checks_only():
        checked = _outcome(raw)
    assert fast == checked


def test_the_witness_can_tell_the_paths_apart() -> None:
    """The comparison above fails when the flat path accepts what a check refuses: a flat
    path that ignored the supply would place a tile past it."""
    raw = copy.deepcopy(STATES[0])
    data, name = game_data("1888"), raw["tiles"][0]["tile"]
    supply = data.tiles[name].counts[raw["rule_set"]]  # type: ignore[index]
    free = [h for h in data.hexes if h not in {t["hex"] for t in raw["tiles"]}]
    raw["tiles"] += [{"hex": h, "tile": name, "rotation": 0} for h in free[:supply]]

    def unlimited(data: GameData, key: Any) -> dict[str, int]:
        return {name: 99 for name in data.tiles}

    with _checks_only():
        checked = _outcome(raw)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(board_file, "_accepted_tiles", unlimited)
        loose = _outcome(raw)
    assert checked[0] == "error" and "supply has" in checked[1][1]
    assert loose != checked


def test_both_paths_read_real_states_whole() -> None:
    for raw in STATES:
        assert _outcome(raw)[0] == "board"
        with _checks_only():
            assert _outcome(raw) == _outcome(raw)


def test_the_depot_count_per_rule_version() -> None:
    """RULES.md §2.7: trains.json has two 6-trains; HISTORY.md §2: the depot held 17
    D-trains until 2026-05-13, unlimited after."""
    data = game_data("1888")
    phase_d = data.phase("D")
    assert phase_d is not None
    six, d = data.trains["6"], data.trains["D"]
    with pytest.raises(MalformedInput, match=r"the depot has 2 6-trains .*this is the 3rd"):
        rules.check_train(2, six, phase_d, data, 2)
    rules.check_train(1, six, phase_d, data, 1)
    old = rules_as_of(date(2025, 1, 1), "1888")
    with pytest.raises(MalformedInput, match=r"the depot has 17 D-trains .*this is the 18th"):
        rules.check_train(0, d, phase_d, data, 17, old)
    rules.check_train(0, d, phase_d, data, 16, old)
    rules.check_train(0, d, phase_d, data, 17, rules_as_of(date(2026, 6, 1), "1888"))
    rules.check_train(0, d, phase_d, data, 17)  # no version: trains.json's count (none)


#: 129026-138: phase 3 (yellow and green tiles), LYR; tile 15 on H14 (one city, LYR's
#: token), tile 57 on G11 (one slot, ZDR's token). Errors worked out from RULES.md by hand.
EDITS = [
    (("tiles", 0, "rotation", 6), "tiles[0].rotation", "6 is outside 0-5"),
    (("tiles", 0, "rotation", True), "tiles[0].rotation", "must be a int, not bool"),
    (("tiles", 0, "rotation", 1.0), "tiles[0].rotation", "must be a int, not float"),
    (("tiles", 0, "tile", "611"), "tiles[0].tile", "tile 611 is brown; phase 3 allows yellow, green"),
    (("tiles", 0, "tile", "X1"), "tiles[0].tile", "unknown tile 'X1'"),
    (("tiles", 1, "hex", "F14"), "tiles[1].hex", "hex F14 is listed twice"),
    (("tiles", 1, "hex", Name("F14")), "tiles[1].hex", "hex F14 is listed twice"),
    (("tokens", 0, "city", 7), "tokens[0].city", "tile 15 on H14 has no city 7"),
    (("tokens", 5, None, {"hex": "G11", "city": 0, "corporation": "HJR"}), "tokens[5].city",
     "city G11-0 is full: 1 slot(s), held by ZDR"),
    (("tokens", 5, None, {"hex": "H14", "city": 0, "corporation": "LYR"}),
     "tokens[5].corporation", "LYR already has a token on H14"),
    # no tile there, a node with no slots (a town, an off-board): the flat path reads
    # the board's tiles by hex and each tile's city slots, and leaves these to the checks
    (("tokens", 5, None, {"hex": "Z99", "city": 0, "corporation": "HJR"}), "tokens[5].hex",
     "unknown hex 'Z99'"),
    (("tokens", 5, None, {"hex": "A17", "city": 0, "corporation": "HJR"}), "tokens[5].city",
     "tile A17 on A17 has no city 0 (its cities: [])"),
    (("tokens", 5, None, {"hex": "A1", "city": 0, "corporation": "HJR"}), "tokens[5].city",
     "tile A1 on A1 has no city 0 (its cities: [])"),
    (("tiles", 0, None, MappingProxyType({"hex": "F14", "tile": "8", "rotation": 4})), None, ""),
    (("tokens", 0, "hex", Name("H14")), None, ""),
]


@pytest.mark.parametrize(("edit", "field", "reason"), EDITS)
def test_each_error_is_the_same_on_both_paths(
    edit: tuple[str, int, str | None, Any], field: str | None, reason: str
) -> None:
    raw = copy.deepcopy(load_json(state_files()[0])["state"])
    array, index, key, value = edit
    if key is None:
        items = raw[array]
        items[index:index + 1] = [value]
    else:
        raw[array][index][key] = value
    fast = _outcome(raw)
    with _checks_only():
        assert _outcome(raw) == fast
    if field is None:  # read whole, as the unedited state
        assert fast == _outcome(load_json(state_files()[0])["state"])
    else:
        assert fast[0] == "error" and fast[1][0] == field and reason in fast[1][1], fast


def test_a_tile_judged_before_is_judged_again_beside_a_laid_red_hex() -> None:
    """RULES.md §6.5 #4: tile 8 on G3 at rotation 4 points into the red H2 (its edge 3),
    whose printed track and the L39 tile at rotation 5 leave by edges 3 and 4 (a late
    1888 board). With L39 turned to rotation 0 (edges 4 and 5) the tile on G3 points at
    no track: the first tile that cannot stand, when G3 is listed first, is G3's, even
    after boards without L39 where the same tile stood."""
    real = load_json(STATES_DIR / "1888_game_end_bankrupt-164.json")["state"]
    assert {"hex": "H2", "tile": "L39", "rotation": 5} in real["tiles"]
    assert {"hex": "G3", "tile": "8", "rotation": 4} in real["tiles"]
    others = [t for t in real["tiles"] if t["hex"] != "H2"]
    turned = dict(real, tiles=others + [{"hex": "H2", "tile": "L39", "rotation": 0}])
    g3 = next(i for i, t in enumerate(others) if t["hex"] == "G3")
    for _ in range(2):
        assert _outcome(dict(real, tiles=others))[0] == "board"
        assert _outcome(real)[0] == "board"
        kind, (field, reason) = _outcome(turned)
        assert (kind, field) == ("error", f"tiles[{g3}]"), reason
        assert "tile 8 rotation 4 cannot stand on G3" in reason
        assert "into red hex H2 which has no track on that side" in reason


def _no_holdings(data: GameData) -> dict[str, frozenset[str]]:
    return {}


def test_held_trains_read_as_the_phase_checks_do() -> None:
    """``check_train``'s data-derived shortcut (the types a phase holds) passes exactly
    what its phase checks pass and refuses nothing they would not: every phase, train
    type, dated rule version and count, with the shortcut and without."""
    from route18xx.engine.facts.rule_versions import rule_changes

    data = game_data("1888")
    versions = [None] + [rules_as_of(c.day, "1888") for c in rule_changes("1888")]

    def outcome(*args: Any) -> str | None:
        try:
            rules.check_train(*args)
        except MalformedInput as err:
            return f"{err.field}: {err.reason}"
        return None

    seen = set()
    for phase in data.phases:
        for train in data.trains.values():
            for version in versions:
                for owned in (0, 1, 16, 17):
                    args = (3, train, phase, data, owned, version)
                    fast = outcome(*args)
                    with pytest.MonkeyPatch.context() as patch:
                        patch.setattr(rules, "_held_in", _no_holdings)
                        assert outcome(*args) == fast
                    seen.add(fast is None)
    assert seen == {True, False}


def test_todays_rules_follow_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state without ``rules_as_of`` is read under today's rules in UTC (HISTORY.md §2):
    the D-train count of 17 until 2026-05-13, none after, as the clock moves on."""
    from route18xx.engine.inputs import state_file
    from route18xx.engine.facts.rule_versions import today

    assert state_file._rules_today("1888") is rules_as_of(today(), "1888")
    for day, d_count in ((date(2025, 1, 1), 17), (date(2026, 5, 12), 17), (date(2026, 5, 13), None)):
        noon = (day - date(1970, 1, 1)).days * 86400 + 12 * 3600
        monkeypatch.setattr(time, "time", lambda noon=noon: noon)
        assert state_file._rules_today("1888") is rules_as_of(day, "1888")
        assert state_file._rules_today("1888").train_counts.get("D", "unset") == d_count


def test_bad_tiles_never_grow_the_data_memo() -> None:
    """Only hexes, tiles and rotations of the game are held (``_laid_tiles``): a client
    naming made-up ones is refused each time and leaves nothing behind."""
    data = game_data("1888")
    memo = data.derived(board_file._laid_tiles)
    raw = copy.deepcopy(STATES[0])
    _outcome(raw)
    size = len(memo)
    for hex_id, tile, rotation in (("Z99", "8", 0), ("F14", "X1", 0), ("F14", "8", 6),
                                   ("F14", "8", -1), ("F14" * 40, "8", 1)):
        bad = copy.deepcopy(raw)
        bad["tiles"][0] = {"hex": hex_id, "tile": tile, "rotation": rotation}
        assert _outcome(bad)[0] == "error"
    assert len(memo) == size
