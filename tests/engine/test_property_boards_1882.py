"""Property test on 1882 boards (issue 36): CP-SAT optimum == brute-force optimum, and the
engine accepts and prices every answer the same — the 1889 test
(``test_property_boards_1889.py``) on 1882, whose routes earn the Hudson Bay bonus (a stop at
Western Canada I1 or Northern Alberta B2 and one at Hudson Bay B12: $100, the solver's
``PairBonus``) and run through cities holding CN's neutral stations.

The bonus needs track across the whole map, so boards grow from the real states of the
fixture logs whose optimum earns it (``tests/data/golden/1882``): 0–6 more random legal lays
of the company (the phase's tiles, two a turn as 1882 lays them or not: any legal lay), 1 to
the phase's limit of trains the phase sells, and now and then a neutral station turned into
another company's token (so that the city blocks).
``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of examples (default here: a tenth of it, 30).
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import RouteState, parse_state
from tests.engine.grown_boards import assert_all_agree, draw_trains

EXAMPLES = max(20, int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300")) // 10)
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1882" / "verdicts.json.gz"


def _bonus_states() -> list[dict[str, Any]]:
    """The real states whose optimum earns the Hudson Bay bonus."""
    raw = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    out = []
    for fixture in raw["fixtures"]:
        for run in fixture["runs"]:
            for route in run["optimum"]["total"]["routes"]:
                hexes = {n.split("-")[0] for n in route["nodes"]}
                if hexes & {"I1", "B2"} and "B12" in hexes:
                    out.append({k: v for k, v in run["state"].items() if k not in ("train_ids", "tiles_laid")})
                    break
    return out


BASES = _bonus_states()


@st.composite
def boards(draw: st.DrawFn) -> RouteState:
    data = game_data("1882")
    base = dict(draw(st.sampled_from(BASES)))
    board = parse_state(base).board
    corp, phase = base["corporation"], base["phase"]
    for _ in range(draw(st.integers(0, 6))):
        lays = legal_tile_lays(board, corp, phase=phase, rule_set="standard")
        if not lays:
            break
        lay = draw(st.sampled_from(lays))
        board = board.with_tile(lay.hex, data.tiles[lay.tile], lay.rotation)
    tokens = list(base["tokens"])
    if draw(st.booleans()):
        tokens = [dict(t, corporation="CNR") if t["corporation"] == "CN" and
                  not any(o["hex"] == t["hex"] and o["corporation"] == "CNR" for o in tokens) else t
                  for t in tokens]
    limit = data.phases[[p.name for p in data.phases].index(phase)].train_limit
    raw = {**base, "trains": draw_trains(draw, phase, limit), "tokens": tokens,
           "tiles": [{"hex": h, "tile": p.tile.name, "rotation": p.rotation}
                     for h, p in board.placed.items()]}
    try:
        return parse_state(raw)
    except MalformedInput:  # a CNR token beyond its three: keep the neutral stations
        return parse_state({**raw, "tokens": base["tokens"]})


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_1882_boards(state: RouteState) -> None:
    assert_all_agree(state)


def test_the_bases_earn_the_bonus() -> None:
    assert len(BASES) >= 20
    problem = build_problem(parse_state(BASES[0])).problem
    assert [b.value for b in problem.bonuses] == [100]
