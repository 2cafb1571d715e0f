"""Property test on generated 1830 boards (issue 25 item 2): CP-SAT optimum == brute-force
optimum == the engine witness's optimum, and the engine accepts and prices every answer
the same — the 1888 test (``test_property_boards.py``) on the second title.

Boards grow on regions of the 1830 map around the places its route rules are about:
Altoona's bypass (H12), the off-board groups Gulf (I1 + J2) and Canada (A9 + A11), New
York's two cities (G19) and the OO hexes (1830 ROUTES.md §1.3, §3.3, §3.5): from the
company's station, 2–12 random legal tile lays of the phase, other companies' tokens
(some cities full, so they block), 1–4 trains the phase sells within its train limit.
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
    "altoona": ("H10", "H12", "H14", "H16", "G11", "G13", "I11", "I13", "I15", "H8"),
    "gulf": ("I1", "J2", "I3", "J4", "H2", "H4", "I5", "H6", "G3", "G5"),
    "canada": ("A9", "A11", "B10", "B12", "C9", "C11", "B14", "C13"),
    "new_york": ("G19", "F20", "F22", "G17", "H18", "F18", "E19", "G21", "F24", "H20"),
    "oo": ("D10", "E11", "E9", "D8", "D12", "E13", "F10", "F12", "E5", "E7", "F6"),
}
CORPS = ("PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M")


@st.composite
def boards(draw: st.DrawFn) -> RouteState:
    """Grow track as a game would: legal lays from the company's station, in one region."""
    region = REGIONS[draw(st.sampled_from(sorted(REGIONS)))]
    phase = draw(st.sampled_from("23456D"))
    return grown_in_region(draw, "1830", region, CORPS, phase)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_1830_boards(state: RouteState) -> None:
    assert_all_agree(state, WITNESS_MAX_RUNS)
