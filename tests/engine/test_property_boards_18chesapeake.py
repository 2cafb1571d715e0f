"""Property test on generated 18Chesapeake boards (issue 36): CP-SAT optimum == brute-force
optimum == the engine witness's optimum, and the engine accepts and prices every answer
the same — the 1889 test (``test_property_boards_1889.py``) on 18Chesapeake, whose
off-boards come in areas a route stops at once (``groups``: Pittsburgh A3 + B2, West
Virginia Coal A13 + B14) and pay in four colours, on a flat-topped map.

Boards grow on regions of the 18Chesapeake map around its off-boards — Pittsburgh (the PLE's
home A3 is one of its hexes), Ohio A7, West Virginia Coal, Norfolk H14, New York L2
(g_18_chesapeake/map.rb ``yellow|green|brown|gray`` values): from the company's station,
2–12 random legal tile lays of the phase, other companies' tokens (some cities full, so they
block), 1–4 trains the phase sells within its train limit (in phase D now and then a D).
``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of examples (default here: a tenth of it, 30).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.answer.optimize import optimize, route_spec, train_ids
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.routes.route_judge import judge_routes
from route18xx.engine.inputs.state_file import RouteState, parse_state
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.answer.witness import witness
from route18xx.solver.witnesses.bruteforce import brute_force
from tests.engine.grown_boards import draw_tokens, draw_trains

EXAMPLES = max(20, int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300")) // 10)
WITNESS_MAX_RUNS = 2000

REGIONS: dict[str, tuple[str, ...]] = {
    "pittsburgh": ("A3", "B2", "B4", "C3", "C5", "D4", "D2", "B6"),
    "coal": ("A13", "B14", "B12", "C13", "C11", "D12", "B10"),
    "norfolk": ("H14", "G13", "H12", "F12", "G11", "E13", "F14", "E11", "F10", "G9"),
    "new_york": ("L2", "K1", "K3", "J2", "J4", "K5", "L4", "I3", "J6", "I5", "H2"),
}
#: The two off-board areas' regions thrice as often as the others (``groups``).
REGION_DRAWS = ("pittsburgh", "coal") * 3 + ("norfolk", "new_york")
CORPS = ("PRR", "PLE", "SRR", "B&O", "C&O", "LV", "C&A", "N&W")


@st.composite
def boards(draw: st.DrawFn) -> RouteState:
    """Grow track as a game would: legal lays from the company's station, in one region."""
    data = game_data("18Chesapeake")
    region = REGIONS[draw(st.sampled_from(REGION_DRAWS))]
    phase = draw(st.sampled_from("23456DD"))  # phase D twice as often: the gray values
    corp = draw(st.sampled_from(CORPS))
    cities = [(h, c.index) for h in region if h in data.hexes for c in data.hexes[h].preprinted.cities]
    home = draw(st.sampled_from(cities))
    board = Board({}, {home: (corp,)}, data)
    for _ in range(draw(st.integers(2, 12))):
        lays = [lay for lay in legal_tile_lays(board, corp, phase=phase, rule_set="standard")
                if lay.hex in region]
        if not lays:
            break
        lay = draw(st.sampled_from(lays))
        board = board.with_tile(lay.hex, data.tiles[lay.tile], lay.rotation)
    # a company places at most its tokens (RULES.md §2.5)
    tokens = draw_tokens(draw, board, region, corp, CORPS, within_token_counts=True)
    limit = data.phases[[p.name for p in data.phases].index(phase)].train_limit
    trains = draw_trains(draw, phase, limit)
    raw: dict[str, Any] = {
        "title": "18Chesapeake", "rule_set": "standard", "phase": phase, "corporation": corp,
        "trains": trains,
        "tiles": [{"hex": h, "tile": p.tile.name, "rotation": p.rotation} for h, p in board.placed.items()],
        "tokens": tokens,
    }
    return parse_state(raw)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_18chesapeake_boards(state: RouteState) -> None:
    built = build_problem(state)
    exact = brute_force(built.problem, objective="total")
    opt = optimize(state, objective="total")  # raises EngineMismatch if the engine disagrees
    assert opt.solution.status == "OPTIMAL"
    assert opt.solution.objective == exact.objective
    assert opt.judgement.revenue == opt.solution.objective and opt.judgement.subsidy == 0
    ids = train_ids(state)
    specs = [route_spec(built, r, ids[r.train]) for r in exact.routes]
    judged = judge_routes(state, specs)
    assert judged.violations == []
    assert judged.revenue == exact.revenue
    found = witness(state, objective="total", max_runs=WITNESS_MAX_RUNS)
    if found is not None:
        assert found.objective == opt.solution.objective
