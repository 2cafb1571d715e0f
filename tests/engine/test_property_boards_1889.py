"""Property test on generated 1889 boards (issue 36): CP-SAT optimum == brute-force
optimum == the engine witness's optimum, and the engine accepts and prices every answer
the same — the 1830 test (``test_property_boards_1830.py``) on the third title, whose
off-boards pay a D its diesel value (``Train.stop_values``) on a flat-topped map.

Boards grow on regions of the 1889 map around its three off-boards — Imabari F1, Sakaide
& Okayama J1, Naruto & Awaji L7 (g_1889/map.rb ``yellow|brown|diesel`` values) — and
Kotohira's H tiles: from the company's station, 2–12 random legal tile lays of the phase,
other companies' tokens (some cities full, so they block), 1–4 trains the phase sells
within its train limit (in phase D now and then a D).
``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of examples (default here: a tenth of it, 30).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.inputs.state_file import RouteState
from tests.engine.grown_boards import assert_all_agree, grown_in_region

EXAMPLES = max(20, int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300")) // 10)
WITNESS_MAX_RUNS = 2000

REGIONS: dict[str, tuple[str, ...]] = {
    "imabari": ("F1", "E2", "F3", "G4", "D3", "E4", "F5", "H3", "G6", "H5"),
    "sakaide": ("J1", "I2", "J3", "I4", "H3", "K4", "J5", "H5", "I6", "K6"),
    "naruto": ("L7", "K8", "K6", "J9", "J7", "J5", "K4", "I8", "J11", "I10", "I6"),
}
CORPS = ("AR", "IR", "SR", "KO", "TR", "KU", "UR")


@st.composite
def boards(draw: st.DrawFn) -> RouteState:
    """Grow track as a game would: legal lays from the company's station, in one region."""
    region = REGIONS[draw(st.sampled_from(sorted(REGIONS)))]
    phase = draw(st.sampled_from("23456DDD"))  # phase D thrice as often: the diesel value
    return grown_in_region(draw, "1889", region, CORPS, phase)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_1889_boards(state: RouteState) -> None:
    assert_all_agree(state, WITNESS_MAX_RUNS)
