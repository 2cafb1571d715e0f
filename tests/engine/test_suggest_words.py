"""Issue 22 (e): suggestions a player acts on.

* Exits in words: the names come from the map's own geometry (the neighbour
  offsets of ``engine.hexgrid``: a neighbour below is S, to the right E), not
  from the table the words are printed from; tile 9 (a straight) joins opposite
  sides in every rotation, tile 57's city two opposite ones.
* No "+¥0" line: with ``improving_only`` every listed move raises the income, and
  a board where no lay does says "no lay improves this run" (found by ranking
  every lay without the option: all gains ≤ 0).
* Equal results merged: ``merge_equal`` keeps each (tile, hex, income) once with
  its other rotations as alternatives, and loses no move of the plain ranking.
* Lay + token: each pair is a legal lay then a legal token, priced by a fresh
  solve of the board they leave.
* What the player did: run 231 of game 129026 (LYR's turn from action 229) laid
  tile 29 on H10 at rotation 3 and placed a token in the city of tile 15-1 (laid
  on G11 at action 179), as the log says.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from route18xx.engine import api
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.hexgrid import EDGE_OFFSETS
from route18xx.engine.suggest.move_words import EDGE_NAMES, tile_exits
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.suggest.suggest import applied, candidate_moves
from tests.conftest import LOGS_DIR

LOG: dict[str, Any] = json.loads((LOGS_DIR / "129026.json").read_text())


def test_edge_names_follow_the_map_geometry() -> None:
    for edge, name in enumerate(EDGE_NAMES):
        dx, dy = EDGE_OFFSETS[edge]
        expected = ("S" if dy > 0 else "N" if dy < 0 else "") + ("E" if dx > 0 else "W")
        assert name == expected, (edge, dx, dy)


def test_a_straight_joins_opposite_sides_in_every_rotation() -> None:
    tiles = game_data("1888").tiles
    opposite = {"SW": "NE", "W": "E", "NW": "SE"}
    for rotation in range(6):
        (straight,) = tile_exits(tiles["9"], rotation, "pointy")
        a, b = straight.split("–")
        assert opposite.get(a) == b or opposite.get(b) == a
        (city,) = tile_exits(tiles["57"], rotation, "pointy")
        assert city.endswith(" (city)") and city.removesuffix(" (city)") == straight


def test_no_plus_zero_lines_and_the_verdict_when_nothing_improves() -> None:
    for start in (229,):
        state = api.state_from_log(LOG, start)
        plain = api.suggest_moves(state, top=200)
        only = api.suggest_moves(state, top=200, improving_only=True)
        improving = [s for s in plain.suggestions if s.gain > 0]
        assert [s.move for s in only.suggestions] == [s.move for s in improving]
        assert all(s.gain > 0 for s in only.suggestions)
        assert (only.verdict == "") == bool(improving)
    flat = next((r for r in _all_lay_rankings() if all(s.gain <= 0 for s in r[1].suggestions)), None)
    assert flat is not None, "a turn where no lay improves the run"
    start, report = flat
    only = api.suggest_moves(api.state_from_log(LOG, start), top=200, improving_only=True)
    assert only.suggestions == () and only.verdict == "no lay improves this run"


def _all_lay_rankings() -> list[tuple[int, api.SuggestReport]]:
    """Rankings of the first turns of 129026 with trains, until one where nothing improves."""
    runs = api.replay_game(LOG, solve=False).runs
    out = []
    for run in runs[:40]:
        start = run.turn_start_action_id or run.action_id or 0
        report = api.suggest_moves(api.state_from_log(LOG, start), top=200)
        out.append((start, report))
        if all(s.gain <= 0 for s in report.suggestions):
            break
    return out


def test_equal_rotations_are_one_suggestion_and_no_move_is_lost() -> None:
    state = api.state_from_log(LOG, 528)
    plain = api.suggest_moves(state, top=200)
    merged = api.suggest_moves(state, top=200, merge_equal=True)
    listed = [s.move for s in merged.suggestions] + [
        m for s in merged.suggestions for m in s.alternatives]
    assert sorted(map(repr, listed)) == sorted(repr(s.move) for s in plain.suggestions)
    keys = [(s.move.hex, s.move.tile, s.income) for s in merged.suggestions if s.move.kind == "tile"]
    assert len(keys) == len(set(keys)) < len(plain.suggestions)
    assert any(s.alternatives for s in merged.suggestions)


def test_lay_then_token_pairs_are_legal_and_priced_by_a_fresh_solve() -> None:
    state = api.state_from_log(LOG, 229)
    report = api.suggest_moves(state, top=3, combined=True)
    assert report.combined
    corp = state.corporation.sym
    for s in report.combined:
        assert s.then_token is not None and s.then_token.kind == "token"
        (lay,) = [m for m in candidate_moves(state) if m.report(state.data).lays == s.move.lays]
        after = replace(state, board=applied(state.board, lay, corp))
        (token,) = [m for m in candidate_moves(after, include_tokens=True)
                    if m.kind == "token" and (m.hex, m.city) == (s.then_token.hex, s.then_token.city)]
        final = replace(after, board=applied(after.board, token, corp))
        opt = optimize(final)
        assert s.income == opt.judgement.revenue + opt.judgement.subsidy
        assert s.move.cost == lay.cost + token.cost


def test_what_the_player_did_is_read_from_the_log() -> None:
    state = api.state_from_log(LOG, 229)
    base = api.suggest_moves(state, top=1).base_income
    turn = api.recorded_turn(LOG, 229, state, base)
    by_id = {a["id"]: a for a in LOG["actions"]}
    turn_actions = [a for i, a in sorted(by_id.items()) if 229 <= i < 231]
    laid = [a for a in turn_actions if a["type"] == "lay_tile"]
    (token,) = [a for a in turn_actions if a["type"] == "place_token"]
    tile_id = token["city"].rsplit("-", 1)[0]  # "15-1-0": city 0 of tile 15-1
    token_hex = [a["hex"] for i, a in sorted(by_id.items())
                 if i < 229 and a["type"] == "lay_tile" and a["tile"] == tile_id][-1]
    assert [(m.kind, m.hex, m.tile, m.rotation) for m in turn.moves] == [
        ("tile", a["hex"], a["tile"].rsplit("-", 1)[0], a["rotation"]) for a in laid
    ] + [("token", token_hex, None, None)]
    assert turn.moves[1].cost == 60 and turn.income is not None and turn.gain == turn.income - base


def test_each_layouts_edge_names_follow_its_offsets() -> None:
    """Pointy (1888, 1830) and flat (1889) hexes: each edge is named after the way its
    neighbour lies (``hexgrid.EDGE_OFFSETS_BY_LAYOUT``, 18xx.games ``Hex::DIRECTIONS``)."""
    from route18xx.engine.facts.hexgrid import EDGE_NAMES_BY_LAYOUT, EDGE_OFFSETS_BY_LAYOUT

    for layout, offsets in EDGE_OFFSETS_BY_LAYOUT.items():
        for edge, (dx, dy) in offsets.items():
            expected = ("S" if dy > 0 else "N" if dy < 0 else "") + ("E" if dx > 0 else "W" if dx < 0 else "")
            assert EDGE_NAMES_BY_LAYOUT[layout][edge] == expected, (layout, edge)
    data = game_data("1889")
    for hex_def in data.hexes.values():  # the map's own neighbours lie at the flat offsets
        for edge, other in hex_def.neighbors.items():
            dx, dy = EDGE_OFFSETS_BY_LAYOUT[data.layout][edge]
            assert (data.hexes[other].x, data.hexes[other].y) == (hex_def.x + dx, hex_def.y + dy)
