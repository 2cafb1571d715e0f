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

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route18xx.engine.inputs.state_file import RouteState
from tests.engine.grown_boards import assert_all_agree, grown_in_region

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
    region = REGIONS[draw(st.sampled_from(REGION_DRAWS))]
    phase = draw(st.sampled_from("23456DD"))  # phase D twice as often: the gray values
    return grown_in_region(draw, "18Chesapeake", region, CORPS, phase)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_cpsat_equals_brute_force_and_the_engine_agrees_on_18chesapeake_boards(state: RouteState) -> None:
    assert_all_agree(state, WITNESS_MAX_RUNS)
