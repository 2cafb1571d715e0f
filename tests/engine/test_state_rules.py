"""Rules-level refusals of a state file and of routes (issue 9).

Each refusal is built from a real state by a minimal edit. The expected field
and reason fragment come from the rules (RULES.md §2.4, §2.5, §6.5, §6.7,
§6.9, §6.12, §7, §8, §9; ROUTES.md §3, §6), written out here by hand, never
read from the code under test.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from benchmarks.conftest import worst_cases
from route18xx.engine.api import check_routes
from route18xx.engine.errors import MalformedInput, OutOfTime
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import STATES_DIR, load_json

PHASE_2 = "129026-68"  # LYR, phase 2, trains 2 + 2, tokens F16 and H14 (LYR), F6 (HJR)
PHASE_3 = "129026-138"  # LYR, phase 3, trains 2 + 2
PHASE_4 = "129026-251"  # HJR, phase 4, trains 3 + 4
PHASE_5 = "129026-399"  # LYR, phase 5, trains 3 + 4
PHASE_D = "129026-728"  # SSL, phase D
BEIJING_2 = "1888_game_end_bankrupt-126"  # JZR, phase 2, C9 with two cities


def _real(name: str) -> dict[str, Any]:
    return copy.deepcopy(load_json(STATES_DIR / f"{name}.json"))  # type: ignore[no-any-return]


def _state(name: str, **changes: Any) -> dict[str, Any]:
    state: dict[str, Any] = _real(name)["state"]
    state.update(changes)
    return state


def _refused(raw: dict[str, Any]) -> MalformedInput:
    with pytest.raises(MalformedInput) as err:
        parse_state(raw)
    return err.value


# ---- trains -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "trains", "field", "words"),
    [
        # the first 4-train starts phase 4 and rusts every 2 (RULES.md §8, §9.2)
        (PHASE_4, ["3", "2"], "trains[1]", "a 2-train rusts when phase 4 begins"),
        (PHASE_D, ["4"], "trains[0]", "a 4-train rusts when phase D begins"),
        # the first 5-train starts phase 5: none in phase 4 (RULES.md §8)
        (PHASE_4, ["3", "5"], "trains[1]", "first sold in phase 5"),
        (PHASE_2, ["3"], "trains[0]", "first sold in phase 3"),
        # train limit: 3 in phase 4, 2 from phase 5 (RULES.md §6.9 #3)
        (PHASE_4, ["3", "4", "4", "4"], "trains[3]", "phase 4 allows 3 trains per company"),
        (PHASE_5, ["3", "4", "5"], "trains[2]", "phase 5 allows 2 trains per company"),
        (PHASE_2, ["2"] * 5, "trains", "no phase allows a company more than 4"),
    ],
)
def test_trains_the_phase_cannot_hold(
    name: str, trains: list[str], field: str, words: str
) -> None:
    err = _refused(_state(name, trains=trains))
    assert err.field == field
    assert words in err.reason


def test_trains_at_the_limit_and_not_rusted_are_accepted() -> None:
    assert len(parse_state(_state(PHASE_4, trains=["3", "4", "4"])).trains) == 3
    assert len(parse_state(_state(PHASE_3, trains=["2", "2", "3", "3"])).trains) == 4


def test_100000_trains_are_refused_on_the_length_alone() -> None:
    """The first entry is no train at all: read one by one, the list would fail on
    ``trains[0]``; refused on its length, the field is ``trains`` (no item was read)."""
    raw = _state(PHASE_D, trains=["XX"] + ["D"] * 99_999)
    err = _refused(raw)
    assert err.field == "trains"


# ---- tiles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hex_id", "tile", "words"),
    [
        # phase 2 yellow; 3-4 + green; 5-6 + brown; D + gray (RULES.md §6.5 #1, §8)
        (PHASE_2, "G15", "51", "phase 2 allows yellow tiles only"),
        (PHASE_2, "H14", "14", "phase 2 allows yellow tiles only"),
        (PHASE_4, "F6", "8893", "phase 4 allows yellow, green tiles"),
    ],
)
def test_tile_colours_the_phase_does_not_allow(
    name: str, hex_id: str, tile: str, words: str
) -> None:
    raw = _state(name)
    index = next(i for i, t in enumerate(raw["tiles"]) if t["hex"] == hex_id)
    raw["tiles"][index]["tile"] = tile
    err = _refused(raw)
    assert err.field == f"tiles[{index}].tile"
    assert words in err.reason


def test_terracotta_tile_before_corporations_may_own_privates() -> None:
    """L39 is laid only by the owner of Terracotta Army, a corporation from phase 3
    (RULES.md §6.12, §7.2)."""
    raw = _state(PHASE_2)
    raw["tiles"].append({"hex": "H2", "tile": "L39", "rotation": 5})
    err = _refused(raw)
    assert err.field == f"tiles[{len(raw['tiles']) - 1}].tile"
    assert "phase 3" in err.reason


# ---- tokens -------------------------------------------------------------------------


def test_a_fourth_lyr_station_token() -> None:
    """LYR has 3 station tokens (RULES.md §2.5); PHASE_2 shows two of them."""
    raw = _state(PHASE_2)
    raw["tokens"].append({"hex": "G11", "city": 0, "corporation": "LYR"})
    assert len(parse_state(raw).board.token_cities("LYR")) == 3
    raw["tokens"].append({"hex": "D10", "city": 0, "corporation": "LYR"})
    err = _refused(raw)
    assert err.field == f"tokens[{len(raw['tokens']) - 1}]"
    assert "LYR has 3 station tokens" in err.reason and "4th" in err.reason


def test_more_tokens_than_all_companies_own() -> None:
    """3+3+4+4+4+3+3+3 = 27 station tokens in all (RULES.md §2.5)."""
    raw = _state(PHASE_2)
    raw["tokens"] = [{"hex": "Z99", "city": 0, "corporation": "LYR"}] + raw["tokens"] * 10_000
    err = _refused(raw)  # on the length alone: the unknown hex of tokens[0] is never read
    assert err.field == "tokens" and "27" in err.reason


# ---- privates and the turn's lays ----------------------------------------------------


def test_a_private_listed_twice() -> None:
    err = _refused(_state(PHASE_4, privates=["HS", "HS"]))
    assert err.field == "privates[1]" and "privates[0]" in err.reason


def test_40000_copies_of_heng_shan() -> None:
    raw = _state(PHASE_4, privates=["XX"] + ["HS"] * 39_999)
    err = _refused(raw)  # on the length alone: the unknown privates[0] is never read
    assert err.field == "privates" and "6" in err.reason  # six privates (RULES.md §2.4)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (PHASE_2, "from phase 3"),  # corporations buy privates in phases 3-4 (RULES.md §6.12)
        (PHASE_5, "phase 5"),  # the first 5-train closes every private (RULES.md §7.7)
    ],
)
def test_privates_outside_phases_3_and_4(name: str, words: str) -> None:
    err = _refused(_state(name, privates=["TA"]))
    assert err.field == "privates[0]" and words in err.reason


@pytest.mark.parametrize(
    ("laid", "field", "words"),
    [
        ([{"hex": "H14"}, {"hex": "H14"}], "tiles_laid[1]", "listed twice"),
        # one tile action per turn (RULES.md §6.5)
        ([{"hex": "H14"}, {"hex": "G15"}], "tiles_laid[1]", "one tile action per turn"),
        # Terracotta Army lays L39 once (RULES.md §7.2)
        ([{"hex": "H2", "private": "TA"}, {"hex": "G3", "private": "TA"}],
         "tiles_laid[1].private", "TA lays 1"),
        # at most 1 + TA 1 + HS 1 + CW 2 + YRF 2 = 7 lays (RULES.md §6.5, §7)
        ([{"hex": "H14"}] * 8, "tiles_laid", "at most 7"),
    ],
)
def test_impossible_turn_records(laid: list[dict[str, str]], field: str, words: str) -> None:
    err = _refused(_state(PHASE_4, tiles_laid=laid))
    assert err.field == field and words in err.reason


def test_a_great_wall_pair_and_a_normal_lay_are_accepted() -> None:
    laid = [{"hex": "D4", "private": "CW"}, {"hex": "C3", "private": "CW"}, {"hex": "E3"}]
    assert len(parse_state(_state(PHASE_4, tiles_laid=laid)).tiles_laid) == 3


# ---- routes -------------------------------------------------------------------------


def _routes(name: str) -> list[dict[str, Any]]:
    return _real(name)["reference"]["recorded_routes"]  # type: ignore[no-any-return]


def test_more_routes_than_trains() -> None:
    """Each train runs at most once (RULES.md §6.7): PHASE_3's LYR has two trains."""
    routes = _routes(PHASE_3)
    routes.append(copy.deepcopy(routes[0]) | {"train": "2-2"})
    with pytest.raises(MalformedInput) as err:
        check_routes(_state(PHASE_3), routes)
    assert err.value.field == "routes"


def test_a_connection_repeated_10000_times_is_refused_at_once() -> None:
    routes = _routes(PHASE_3)
    routes[0]["connections"] = [["Z99", "Z98"]] + routes[0]["connections"] * 10_000
    with pytest.raises(MalformedInput) as err:  # on the length alone: Z99 is never read
        check_routes(_state(PHASE_3), routes)
    assert err.value.field == "routes[0].connections"


def test_a_stale_node_hint_is_not_refused() -> None:
    """``nodes`` are a hint (HISTORY.md §1.1): naming C9, where F16-H14 does not stop,
    changes nothing; the route is judged by its connections."""
    routes = _routes(PHASE_3)
    expected = check_routes(_state(PHASE_3), routes)
    routes[0]["nodes"] = ["F16-0", "C9-0"]
    assert check_routes(_state(PHASE_3), routes) == expected
    assert expected["legal"]


def test_a_hint_naming_another_city_of_the_hex_changes_nothing() -> None:
    """JZR runs from Beijing's city 0; a hint naming C9-1 (JHR's city) cannot move
    the route there: the track of the connection reaches city 0 only."""
    routes = _routes(BEIJING_2)
    expected = check_routes(_state(BEIJING_2), routes)
    assert expected["legal"]
    routes[0]["nodes"] = ["C9-1", "B6-1"]
    assert check_routes(_state(BEIJING_2), routes) == expected


class _Cancelled:
    cancelled = True
    expired = True


def test_check_routes_stops_when_cancelled() -> None:
    with pytest.raises(OutOfTime):
        check_routes(_state(PHASE_3), _routes(PHASE_3), cancel=_Cancelled())


# ---- messages quote at most 80 characters of a client's value ------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.update(trains=["Z" * 100_000]),
        lambda s: s.update(phase="Z" * 100_000),
        lambda s: s["tiles"].append({"hex": "Z" * 100_000, "tile": "8", "rotation": 0}),
        lambda s: s.update(privates=["Z" * 100_000]),
    ],
)
def test_messages_quote_an_excerpt(edit: Any) -> None:
    raw = _state(PHASE_4)
    edit(raw)
    err = _refused(raw)
    assert len(err.reason) < 400


def test_benchmark_worst_cases_are_legal_boards() -> None:
    for name, raw in worst_cases().items():
        assert parse_state(raw).trains, name
