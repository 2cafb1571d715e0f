"""A route's ``nodes`` are a hint, read as 18xx.games reads them (issue 19, HISTORY.md §1.1).

Both route readers (check requests and game logs) share ``engine.route_reading``:
``nodes`` may be absent, ``HEX-INDEX`` or ``HEX-TILENAME-INDEX``; a stale or
unreadable hint is never refused. ``engine.route_rebuild`` uses hints only to
break ties between candidate chains: most matches wins, ties and no match take
the site's first candidate.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from route18xx.engine.routes.route_bounds import route_bounds
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.api import check_routes
from route18xx.engine.board.board import Board
from route18xx.engine.routes.chains import Chain
from route18xx.engine.errors import MalformedInput
from route18xx.engine.game.actions import RunRoutes, parse_action
from route18xx.engine.routes.route_judge import parse_route_specs
from route18xx.engine.routes.route_reading import hinted_nodes, read_route
from route18xx.engine.routes.route_rebuild import rebuild_route
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import STATES_DIR, load_json

BEIJING_2 = "1888_game_end_bankrupt-126"  # JZR, phase 2, C9 with two cities
PHASE_3 = "129026-138"  # LYR, phase 3, trains 2 + 2


def _real(name: str) -> dict[str, Any]:
    return copy.deepcopy(load_json(STATES_DIR / f"{name}.json"))  # type: ignore[no-any-return]


# ---- reading --------------------------------------------------------------------------


def test_both_forms_read_as_node_ids_and_the_rest_is_skipped() -> None:
    assert hinted_nodes(["C9-0", "C9-C9-1", "B6-56-1", "A19-0"]) == {"C9-0", "C9-1", "B6-1", "A19-0"}
    assert hinted_nodes(["", "C9", "C9-", "-0", "C9-x", "c9-0", "C9-0-", "Z-1"]) == frozenset()


@pytest.mark.parametrize(
    "nodes",
    [None, [], ["C9-0", "B6-1"], ["C9-C9-0", "B6-56-1"], ["H14-7", "Z99-0", "junk", "F16"]],
    ids=["absent", "empty", "hex-index", "hex-tilename-index", "stale"],
)
def test_any_hint_is_read_and_kept_as_written(nodes: list[str] | None) -> None:
    raw: dict[str, Any] = {"train": "2-0", "connections": [["C9", "C7", "B6"]], "revenue": 80}
    if nodes is not None:
        raw["nodes"] = nodes
    from_log = parse_action({"type": "run_routes", "entity": "JZR", "entity_type": "corporation",
                             "routes": [raw]})
    assert isinstance(from_log, RunRoutes)
    data = game_data("1888")
    from_check = parse_route_specs([raw], data)
    assert from_log.routes == tuple(from_check) == (read_route(raw, "r", route_bounds(data)),)
    assert list(from_log.routes[0].nodes) == (nodes or [])  # re-serialised unchanged
    assert from_log.routes[0].as_json()["nodes"] == (nodes or [])


@pytest.mark.parametrize(
    ("nodes", "field", "words"),
    [
        ("C9-0", "routes[0].nodes", "must be a list"),
        (["C9-0", 5], "routes[0].nodes[1]", "node id"),
        (["C9-0", "C" * 65], "routes[0].nodes[1]", "1 to 64 characters"),
        (["C9-0"] * 5000, "routes[0].nodes", "at most"),
    ],
    ids=["not-a-list", "not-a-string", "too-long", "too-many"],
)
def test_the_hint_lists_shape_is_still_checked(nodes: Any, field: str, words: str) -> None:
    raw = {"train": "2-0", "connections": [["C9", "C7", "B6"]], "nodes": nodes}
    with pytest.raises(MalformedInput) as err:
        parse_route_specs([raw], game_data("1888"))
    assert err.value.field == field and words in err.value.reason


@pytest.mark.parametrize(
    "nodes",
    [["C9-1", "B6-0"], ["C9-C9-0", "B6-56-1"], ["Z99-0", "H14-7"], ["?!"], []],
    ids=["other-city", "tilename", "unknown", "unreadable", "empty"],
)
def test_a_checked_route_is_judged_alike_whatever_its_hint(nodes: list[str]) -> None:
    """The judge reads the connections; the hint never makes a route illegal or unreadable."""
    state = _real(BEIJING_2)
    routes = state["reference"]["recorded_routes"]
    expected = check_routes(state["state"], routes)
    assert expected["legal"] and expected["revenue"] == 80
    for route in routes:
        route["nodes"] = nodes
    assert check_routes(state["state"], routes) == expected


# ---- rebuilding: the site's tie-break ---------------------------------------------------


def _board() -> Board:
    return parse_state(_real(BEIJING_2)["state"]).board


def _chain(start: str, end: str, *paths: tuple[str, int]) -> Chain:
    return Chain(start, end, tuple(paths), (), frozenset())


# Two ways from B6 to D10 through Beijing (C9), one by each of its cities.
VIA_0 = [_chain("B6-0", "C9-0", ("B6", 0)), _chain("C9-0", "D10-0", ("D10", 0))]
VIA_1 = [_chain("B6-0", "C9-1", ("B6", 1)), _chain("C9-1", "D10-0", ("D10", 1))]
OPTIONS = [[VIA_0[0], VIA_1[0]], [VIA_0[1], VIA_1[1]]]


def _stops(options: list[list[Chain]], hints: set[str]) -> list[str]:
    rebuilt = rebuild_route(_board(), "JZR", options, frozenset(hints))
    assert rebuilt is not None
    return rebuilt[1]


@pytest.mark.parametrize("city", ["C9-0", "C9-1"])
def test_the_hinted_middle_node_wins(city: str) -> None:
    assert _stops(OPTIONS, {city}) == ["B6-0", city, "D10-0"]
    assert _stops([o[::-1] for o in OPTIONS], {city}) == ["B6-0", city, "D10-0"]


def test_most_matches_win() -> None:
    """Three nodes are counted per pair: the outer two and the middle one."""
    assert _stops(OPTIONS, {"C9-1", "B6-0"})[1] == "C9-1"
    assert _stops(OPTIONS, {"C9-0", "B6-0", "D10-0"})[1] == "C9-0"


@pytest.mark.parametrize(
    "hints", [set(), {"C9-0", "C9-1"}, {"B6-0", "D10-0"}, {"Q1-0"}],
    ids=["none", "tie", "tie-on-the-ends", "no-match"],
)
def test_ties_and_no_match_take_the_sites_first_candidate(hints: set[str]) -> None:
    """The first in the site's order, whatever order the candidates came in."""
    first = _stops(OPTIONS, set())
    assert first == _stops([o[::-1] for o in OPTIONS], set())
    assert _stops(OPTIONS, hints) == first


def test_a_pair_sharing_a_path_is_not_a_candidate() -> None:
    clash = [_chain("B6-0", "C9-0", ("X1", 0)), _chain("C9-0", "D10-0", ("X1", 0))]
    options = [[clash[0], VIA_1[0]], [clash[1], VIA_1[1]]]
    assert _stops(options, {"C9-0"})[1] == "C9-1"


def test_one_connection_takes_the_first_chain_with_a_token_and_free_track() -> None:
    """JZR's token is in C9; the hint is not read for a single connection (as the site)."""
    board = _board()
    city = next(c for c in ("C9-0", "C9-1") if "JZR" in board.tokens_in("C9", int(c[-1])))
    other = "C9-1" if city == "C9-0" else "C9-0"
    untokened = _chain("B6-1", other, ("C7", 0))
    tokened = _chain("B6-1", city, ("C7", 1))
    picked = rebuild_route(board, "JZR", [[untokened, tokened]], frozenset({other}))
    assert picked is not None and picked[0] == [tokened]
    taken = rebuild_route(board, "JZR", [[untokened, tokened]], frozenset(), taken={("C7", 1)})
    # None is free with a token: the site's first, the end its tile's paths reach first.
    tile = board.tile_on("C9").tile
    first_city = next(e.index for p in tile.paths for e in (p.a, p.b) if not e.is_edge)
    expected = tokened if city == f"C9-{first_city}" else untokened
    assert taken is not None and taken[0] == [expected]
