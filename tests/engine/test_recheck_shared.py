"""The re-check's shortcuts read routes exactly as the general reading does (issue 21).

``engine.route_rebuild`` reads a route whose connections each have one candidate
chain (every solver route) by ``_pairwise_one``, and orders candidates by a tile's
node order held by the tile; ``engine.route_judge`` reads a route's stops once
(``StopFacts``) and the report (``engine.explain``) explains from that reading.
Each is held here against the general form it replaces, on the 123 real decisions'
recorded routes and variants of them that the site refuses or reads differently.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from route18xx.engine.routes.chains import Chain, find_chains
from route18xx.engine.answer.explain import route_breakdown
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.routes.route_judge import judge_routes, parse_route_specs, read_stops
from route18xx.engine.routes.route_rebuild import _node_rank, _pairwise, _pairwise_one
from route18xx.engine.inputs.state_file import RouteState, parse_state
from tests.conftest import load_json, state_files


def _variants(connections: tuple[tuple[str, ...], ...]) -> list[tuple[tuple[str, ...], ...]]:
    """A route's connections, reversed, walked backwards, and with a connection repeated
    (the last three: pairs that disagree or share a path)."""
    backwards = tuple(tuple(reversed(c)) for c in reversed(connections))
    return [connections, tuple(reversed(connections)), backwards,
            connections + connections[:1], connections[:1] + connections]


def _recorded() -> list[tuple[RouteState, list[tuple[tuple[str, ...], ...]]]]:
    out = []
    for path in state_files():
        data = load_json(path)
        state = parse_state(data["state"])
        specs = parse_route_specs(data["reference"]["recorded_routes"], state.data)
        out.append((state, [v for s in specs for v in _variants(s.connections)]))
    return out


def test_one_candidate_per_connection_reads_as_the_pairwise_reading() -> None:
    """Same chains and stops, or the same refusal, with and without earlier routes' paths."""
    read = refused = 0
    for state, routes in _recorded():
        earlier: set[tuple[str, int]] = set()
        for connections in routes:
            options = [find_chains(state.board, c) for c in connections]
            if len(options) < 2 or any(len(o) != 1 for o in options):
                continue
            chains = [o[0] for o in options]
            for taken in (set(), set(earlier)):
                general = _pairwise(options, frozenset(), set(taken))
                assert _pairwise_one(chains, set(taken)) == general, connections
                read += general is not None
                refused += general is None
            earlier.update(p for c in chains for p in c.paths)
    assert read > 300 and refused > 300  # both outcomes are exercised


def test_a_tiles_node_order_is_where_its_paths_first_reach_each_node() -> None:
    """18xx.games ``Tile#nodes``: nodes in the order the paths list them; a node no path
    reaches after every reached one (rank 100 + its index)."""
    checked = set()
    for path in state_files()[::10]:
        board = parse_state(load_json(path)["state"]).board
        for hex_id in game_data("1888").hexes:
            tile = board.tile_on(hex_id).tile
            listed = [e.index for p in tile.paths for e in (p.a, p.b) if not e.is_edge]
            for node in tile.nodes:
                expected = listed.index(node.index) if node.index in listed else 100 + node.index
                assert _node_rank(board, f"{hex_id}-{node.index}") == expected
                checked.add((tile.name, node.index, expected))
    assert len(checked) > 40 and any(rank > node for _, node, rank in checked)


@pytest.mark.parametrize("path", state_files()[::20], ids=lambda p: p.stem)
def test_the_breakdown_explains_the_judges_stops_and_rereads_changed_ones(path: object) -> None:
    data = load_json(path)  # type: ignore[arg-type]
    state = parse_state(data["state"])
    judgement = judge_routes(state, parse_route_specs(data["reference"]["recorded_routes"], state.data))
    for route in judgement.routes:
        assert route.known is not None and route.known == read_stops(state.board, route.stops)
        assert route.facts(state.board) is route.known
        # another board (even one equal to it) is read afresh
        assert route.facts(parse_state(data["state"]).board) is not route.known
        # a game's snapshot (a deep copy) shares the board, never copies it
        copied = copy.deepcopy(route)
        assert copied.known is not None and copied.facts(state.board) is copied.known
        unread = replace(route, known=None)
        assert route_breakdown(state, route) == route_breakdown(state, unread)
        assert route.hexes == unread.hexes
        # stops set by hand after the judge read them: the report reads them afresh
        moved = copy.copy(route)
        moved.stops = list(reversed(route.stops))
        fresh = replace(moved, known=None)
        assert route_breakdown(state, moved) == route_breakdown(state, fresh)
        assert [s.node for s in route_breakdown(state, moved).stops] == moved.stops
        assert moved.hexes == fresh.hexes


def test_a_chain_made_by_hand_is_read_by_the_same_rules() -> None:
    """``_pairwise_one`` on hand-made chains: a shared node joins; a shared or taken path,
    or pairs that meet at different nodes, refuse."""
    a = Chain("B6-0", "C9-0", (("B6", 0),), (), frozenset())
    b = Chain("C9-0", "D10-0", (("D10", 0),), (), frozenset())
    clash = Chain("C9-0", "D10-0", (("B6", 0),), (), frozenset())
    assert _pairwise_one([a, b], set()) == ([a, b], ["B6-0", "C9-0", "D10-0"])
    assert _pairwise_one([a, clash], set()) is None
    assert _pairwise_one([a, b], {("D10", 0)}) is None
    # a third connection from the middle again: the pairs disagree, not one walk
    branch = Chain("C9-0", "E11-0", (("E11", 0),), (), frozenset())
    assert _pairwise_one([a, b, branch], set()) is None
    assert _pairwise([[a], [b], [branch]], frozenset(), set()) is None
