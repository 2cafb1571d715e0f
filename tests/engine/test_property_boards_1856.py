"""Property test on 1856 boards (issue 36): CP-SAT optimum == brute-force optimum, and the
engine accepts and prices every answer the same — the 1882 test
(``test_property_boards_1882.py``) on 1856, whose routes earn the port marker's $20 (a stop
on the marked hex: a ``PairBonus`` whose two sets are that hex's stops) and the bridge and
tunnel rights' $10 a hex.

Boards grow from the real states of the fixture logs whose optimum earns such a bonus
(``tests/data/golden/1856``): 0–6 more random legal lays of the company, 1 to the phase's
limit of trains the phase sells, and now and then the port marker moved to another port hex
the company reaches or a right added.
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
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.inputs.state_file import RouteState, parse_state
from tests.engine.grown_boards import assert_all_agree, draw_trains

EXAMPLES = max(20, int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300")) // 10)
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1856" / "verdicts.json.gz"


def _bonus_states() -> list[dict[str, Any]]:
    """The real states whose optimum earns a port or a right (their breakdowns say so)."""
    raw = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    out = []
    for fixture in raw["fixtures"]:
        for run in fixture["runs"]:
            state = run["state"]
            mine = any(a.get("corporation") == state["corporation"] for a in state.get("assignments", ()))
            if mine or state.get("hex_bonuses"):
                out.append({k: v for k, v in state.items() if k not in ("train_ids", "tiles_laid")})
    return out


BASES = _bonus_states()
#: The hexes with a port symbol (the GLSC's ``assign_hexes``).
PORTS = ("C14", "D19", "E18", "F17", "F9", "H17", "H7", "H5", "J17", "J5", "K2", "M18", "O18")


@st.composite
def boards(draw: st.DrawFn) -> RouteState:
    data = game_data("1856")
    base = dict(draw(st.sampled_from(BASES)))
    board = parse_state(base).board
    corp, phase = base["corporation"], base["phase"]
    for _ in range(draw(st.integers(0, 6))):
        lays = legal_tile_lays(board, corp, phase=phase, rule_set=base["rule_set"])
        if not lays:
            break
        lay = draw(st.sampled_from(lays))
        board = board.with_tile(lay.hex, data.tiles[lay.tile], lay.rotation)
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        extra["hex_bonuses"] = draw(st.sampled_from([
            [], [{"hexes": ["B13"], "value": 10}], [{"hexes": ["P17", "P19"], "value": 10}],
            [{"hexes": ["B13"], "value": 10}, {"hexes": ["P17", "P19"], "value": 10}]]))
    if draw(st.booleans()):
        port = draw(st.sampled_from(PORTS))
        extra["assignments"] = [{"hex": port, "assignment": "GLSC"},
                                {"corporation": corp, "assignment": "GLSC"}]
    limit = data.phases[[p.name for p in data.phases].index(phase)].train_limit
    raw = {**base, **extra, "trains": draw_trains(draw, phase, limit),
           "tiles": [{"hex": h, "tile": p.tile.name, "rotation": p.rotation}
                     for h, p in board.placed.items()]}
    return parse_state(raw)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_1856_boards(state: RouteState) -> None:
    assert_all_agree(state)


def test_the_bases_hold_a_bonus() -> None:
    assert len(BASES) >= 50
    problem = build_problem(parse_state(BASES[0])).problem
    assert problem.bonuses and all(b.first == b.second for b in problem.bonuses)
