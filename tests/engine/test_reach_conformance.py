"""What a company reaches, for its tile lays and tokens, is what some legal route reaches
(issue 33: one home for the route rules; ROUTES.md §3, RULES.md §6.5 #3, §6.6).

The reference is ``engine.routes.route_walk.legal_reach``: every legal partial route from
the company's token cities, walked one by one from the route rules. Against it:

* ``engine.board.network.reach`` (the decisions' walk, ``engine.board.token_reach``)
  reaches exactly the same nodes, paths and hex-edge ends;
* ``engine.board.network.walk`` (the route problem's walk) reaches at least as much (its
  extra track is never on a legal route; the solver's rules keep routes legal);
* a tile lay is connected exactly when it touches a hex edge a legal route reaches.

On every real state of every title (1889's flat-topped map included), and on generated
boards of every map: tiles of every
colour dropped at random on a cluster of hexes (switches whose two track pieces meet at
one edge, double cities, off-boards, the harbour and the mine included), tokens of several
companies (some cities full, so they block). ``ROUTE18XX_REACH_EXAMPLES`` raises the
number of generated boards (default 60 per title; a long run: 2000).
"""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.board.board import Board
from route18xx.engine.board.network import reach, walk
from route18xx.engine.board.tile_lay import legal_tile_lays, reached_sides
from route18xx.engine.board.tile_rules import standing_problem
from route18xx.engine.board.token_place import check_token, legal_token_placements
from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import RouteState, parse_state
from route18xx.engine.routes.route_walk import legal_reach
from tests.conftest import STATES_DIR

EXAMPLES = int(os.environ.get("ROUTE18XX_REACH_EXAMPLES", "60"))
DATA_1830 = STATES_DIR.parent / "1830" / "states.json"


def _corps(board: Board) -> list[str]:
    return sorted({c for held in board.tokens.values() for c in held if c})


def _agree(board: Board) -> int:
    """Every company with a token: reach == the reference, walk ⊇ it; returns how many."""
    checked = 0
    for corp in _corps(board):
        legal = legal_reach(board, corp)
        net = reach(board, corp)
        assert (net.nodes, net.paths, net.edges) == (legal.nodes, legal.paths, legal.edges), corp
        fast = walk(board, corp)
        assert fast.nodes >= legal.nodes, corp
        assert {p.key for p in fast.paths.values()} >= legal.paths, corp
        checked += 1
    return checked


# --- the reversing junction (ROUTES.md §3.7), a board built from the rules -------------

#: NYC's home E19 (tile 57) leads west into E17, a switch (tile 25 at rotation 2: two track
#: pieces meeting at its edge towards D16). One piece joins E19's side to that edge, the
#: other joins F16's side, a city with a free slot (tile 57), to it. Across the edge, D16
#: holds a curve that leads nowhere. A route E19 → E17 → D16 must cross into D16 and stops there; to
#: reach F16 it would have to turn back at E17's edge into the other piece: a reversal,
#: the (hex, edge) key E17/edge used twice. So NYC reaches no F16, and may not token it.
REVERSING = {
    "title": "1830", "rule_set": "standard", "phase": "4", "corporation": "NYC",
    "trains": ["4"],
    "tiles": [
        {"hex": "E19", "tile": "57", "rotation": 1},
        {"hex": "E17", "tile": "25", "rotation": 2},
        {"hex": "D16", "tile": "7", "rotation": 4},
        {"hex": "F16", "tile": "57", "rotation": 0},
    ],
    "tokens": [{"hex": "E19", "city": 0, "corporation": "NYC"}],
}


def test_a_reversing_junction_leads_nowhere() -> None:
    board = parse_state(REVERSING).board
    net = reach(board, "NYC")
    assert ("F16", 0) not in net.nodes
    assert ("F16", 0) not in legal_reach(board, "NYC").nodes
    assert {h for h, _ in net.paths} == {"E19", "E17", "D16"}  # the piece to F16 untaken
    assert not [t for t in legal_token_placements(board, "NYC") if t.hex == "F16"]
    with pytest.raises(IllegalAction) as refused:
        check_token(board, "NYC", "F16", 0)
    assert refused.value.code == "not_reachable"
    # The other way round it is the same reversal: from a token in F16, E19 is not reached
    # (both pieces of E17 lead to its edge towards D16, and on into D16's curve).
    from_f16 = Board(board.placed, {("F16", 0): ("PRR",)}, board.data)
    assert ("E19", 0) not in reach(from_f16, "PRR").nodes
    assert {h for h, _ in reach(from_f16, "PRR").paths} == {"F16", "E17", "D16"}
    assert _agree(from_f16) == 1 and _agree(board) == 1


def test_a_route_does_not_turn_back_at_a_city() -> None:
    """A route may not leave a city by the path it came in by (§3.7): with D16's curve
    leading back to the switch's far piece through another hex, F16 is reached only if a
    route can go on; here it cannot, and the walks agree with the reference."""
    raw: dict[str, Any] = json.loads(json.dumps(REVERSING))
    raw["tiles"][2] = {"hex": "D16", "tile": "8", "rotation": 3}
    assert _agree(parse_state(raw).board) == 1


# --- every real state ------------------------------------------------------------------

def _real_states() -> list[RouteState]:
    states = [parse_state(json.loads(p.read_text())["state"])
              for p in sorted(STATES_DIR.glob("*.json"))]
    states += [parse_state(case["state"]) for case in json.loads(DATA_1830.read_text())["states"]]
    return states + _golden_states("1889")


def _golden_states(title: str) -> list[RouteState]:
    """The boards of a title's golden verdicts: before every recorded run of its real logs,
    as the 18xx.games engine held them (issue 36)."""
    path = STATES_DIR.parent / "golden" / title / "verdicts.json.gz"
    data = json.loads(gzip.decompress(path.read_bytes()))
    return [parse_state(run["state"]) for fixture in data["fixtures"] for run in fixture["runs"]]


@pytest.mark.parametrize("title", ["18Chesapeake", "1882", "1856"])
def test_every_real_board_of_a_route_level_title_agrees_with_the_reference(title: str) -> None:
    states = _golden_states(title)
    checked = sum(_agree(state.board) for state in states)
    assert checked >= len(states)  # at least the running company on every board


def test_every_real_state_agrees_with_the_reference() -> None:
    checked = sum(_agree(state.board) for state in _real_states())
    assert checked > 1000  # every company with a token on every board


# --- generated boards ------------------------------------------------------------------

def _cluster(board: Board, centre: str, size: int) -> list[str]:
    found, frontier = [centre], [centre]
    while frontier and len(found) < size:
        hex_id = frontier.pop(0)
        for edge in range(6):
            across = board.across(hex_id, edge)
            if across is not None and across[0] not in found:
                found.append(across[0])
                frontier.append(across[0])
    return found[:size]


@st.composite
def random_boards(draw: st.DrawFn, title: str) -> Board:
    """Tiles of any colour dropped where they can stand, at random, on a cluster of
    hexes; tokens of two to four companies in its cities, some full."""
    data = game_data(title)
    board = Board({}, {}, data)
    centre = draw(st.sampled_from(sorted(data.hexes)))
    hexes = _cluster(board, centre, draw(st.integers(4, 12)))
    tiles = sorted(data.tiles.values(), key=lambda t: t.name)
    for hex_id in hexes:
        if not draw(st.integers(0, 3)):
            continue  # a hex left as printed
        fits = [(tile, rotation) for tile in tiles for rotation in range(6)
                if standing_problem(board, hex_id, tile, rotation) is None]
        if fits:
            tile, rotation = draw(st.sampled_from(fits))
            board = board.with_tile(hex_id, tile, rotation)
    corps = draw(st.lists(st.sampled_from(sorted(data.corporations)), min_size=2, max_size=4,
                          unique=True))
    tokens: dict[tuple[str, int], tuple[str, ...]] = {}
    for hex_id in hexes:
        for city in board.tile_on(hex_id).tile.cities:
            on_hex = {c for (h, _), cs in tokens.items() if h == hex_id for c in cs}
            free = [c for c in corps if c not in on_hex]
            held = draw(st.lists(st.sampled_from(free), min_size=min(1, len(free)),
                                 max_size=min(city.slots, len(free)), unique=True)) if free else []
            if held:
                tokens[(hex_id, city.index)] = tuple(held)
    return Board(board.placed, tokens, data)


@pytest.mark.parametrize("title", ["1888", "1830", "1889", "18Chesapeake", "1882", "1856"])
def test_generated_boards_agree_with_the_reference(title: str) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(random_boards(title))
    def check(board: Board) -> None:
        _agree(board)

    check()


def test_a_lay_is_connected_exactly_when_a_legal_route_reaches_its_edge() -> None:
    """RULES.md §6.5 #3: every legal lay is on a hex with a side some legal route reaches
    (from the hex or from across the side)."""
    checked = 0
    for state in _real_states()[::6]:
        board, corp = state.board, state.corporation.sym
        legal = legal_reach(board, corp)
        for lay in legal_tile_lays(board, corp, phase=state.phase.name,
                                   rule_set=state.rule_set.name):
            assert any((lay.hex, e) in legal.edges
                       or (board.across(lay.hex, e) or ("", -1)) in legal.edges
                       for e in range(6)), (corp, lay)
            checked += 1
    assert checked > 100


def test_reached_sides_are_the_references() -> None:
    for state in _real_states()[::9]:
        board, corp = state.board, state.corporation.sym
        legal = legal_reach(board, corp)
        net = reach(board, corp)
        for hex_id in sorted(board.data.hexes):
            want = frozenset(e for e in range(6) if (hex_id, e) in legal.edges
                             or (board.across(hex_id, e) or ("", -1)) in legal.edges)
            assert reached_sides(board, net, hex_id) == want
