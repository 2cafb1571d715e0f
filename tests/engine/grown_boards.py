"""What the property tests' board growers share (``test_property_boards.py`` for 1888,
``test_property_boards_<title>.py`` for the others): the trains of each phase, other
companies' tokens on the grown track, the train set drawn, a board grown in one region of a
map, and the check that the solver, the brute force and the engine agree on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from route18xx.engine.answer.optimize import optimize, route_spec, train_ids
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.answer.witness import witness
from route18xx.engine.board.board import Board
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import RouteState, parse_state
from route18xx.engine.routes.route_judge import judge_routes
from route18xx.solver.witnesses.bruteforce import brute_force, candidates

#: Trains a company can own in each phase, in both titles (RULES.md §8, §9.2; 1830 RULES.md
#: §8, §9: 2s rust on the first 4, 3s on the first 6, 4s on the first D).
PHASE_TRAINS: dict[str, tuple[str, ...]] = {
    "2": ("2",), "3": ("2", "3"), "4": ("3", "4"), "5": ("3", "4", "5"),
    "6": ("4", "5", "6"), "D": ("5", "6", "D"),
}


def draw_tokens(draw: st.DrawFn, board: Board, region: Sequence[str], corp: str,
                corps: Sequence[str], *, within_token_counts: bool = False) -> list[dict[str, Any]]:
    """``corp``'s station where the upgrades left it, then other companies' tokens in the
    region's cities (some cities full, so they block). ``within_token_counts``: a company
    places no more tokens than it has."""
    data = board.data
    ((home_hex, home_city),) = board.token_cities(corp)  # upgrades may renumber the city
    tokens = [{"hex": home_hex, "city": home_city, "corporation": corp}]
    others = [c for c in corps if c != corp]
    for hex_id in region:
        if hex_id not in data.hexes:
            continue
        for city in board.tile_on(hex_id).tile.cities:
            on_hex = {t["corporation"] for t in tokens if t["hex"] == hex_id}
            if within_token_counts:
                on_hex |= {c for c in others if sum(t["corporation"] == c for t in tokens)
                           >= len(data.corporations[c].token_prices)}
            held = sum(1 for t in tokens if (t["hex"], t["city"]) == (hex_id, city.index))
            fill = draw(st.integers(0, city.slots - held))
            for other in draw(st.permutations([c for c in others if c not in on_hex]))[:fill]:
                tokens.append({"hex": hex_id, "city": city.index, "corporation": other})
    return tokens


def draw_trains(draw: st.DrawFn, phase: str, limit: int) -> list[str]:
    """1 to ``limit`` trains the phase allows; in phase D, now and then a D among them."""
    trains = draw(st.lists(st.sampled_from(PHASE_TRAINS[phase]), min_size=1, max_size=limit))
    if phase == "D" and "D" not in trains and draw(st.booleans()):
        trains[-1] = "D"
    return trains


def grown_in_region(draw: st.DrawFn, title: str, region: Sequence[str], corps: Sequence[str],
                    phase: str) -> RouteState:
    """A state grown as a game would: a company of ``corps`` stationed in ``region``, 2–12
    legal tile lays of ``phase`` there, other companies' tokens (each at most its token
    count, RULES.md §2.5) and a train set of the phase within its train limit."""
    data = game_data(title)
    corp = draw(st.sampled_from(corps))
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
    tokens = draw_tokens(draw, board, region, corp, corps, within_token_counts=True)
    limit = data.phases[[p.name for p in data.phases].index(phase)].train_limit
    raw: dict[str, Any] = {
        "title": title, "rule_set": "standard", "phase": phase, "corporation": corp,
        "trains": draw_trains(draw, phase, limit),
        "tiles": [{"hex": h, "tile": p.tile.name, "rotation": p.rotation} for h, p in board.placed.items()],
        "tokens": tokens,
    }
    return parse_state(raw)


#: The most route combinations a generated board may give the brute force.
BRUTE_FORCE_COMBINATIONS = 3 * 10**8


def assert_all_agree(state: RouteState, witness_max_runs: int | None = None) -> None:
    """CP-SAT's optimum == the brute force's, the engine judges and prices both the same (no
    subsidy: a title without one), and, given ``witness_max_runs``, the engine witness's
    optimum equals them where it finishes within that many runs."""
    built = build_problem(state)
    # The brute force tries every combination of routes: a board where that is past a few
    # hundred million is set aside (it hung a loaded CI run on a generated 1856 board with
    # three trains), not solved slowly.
    assume(len(candidates(built.problem)) ** len(built.problem.trains) <= BRUTE_FORCE_COMBINATIONS)
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
    if witness_max_runs is not None:
        found = witness(state, objective="total", max_runs=witness_max_runs)
        if found is not None:
            assert found.objective == opt.solution.objective
