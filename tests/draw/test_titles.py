"""Issue 22: hover help on the board — a ``<title>`` on every hex and route; issue 25:
for both titles, each in its own money.

Witnesses apart from the drawing: the printed names of the reference maps
(tests/data/reference/<title>/map.json, copies of the 18xx.games engine's dumps), the
logs' own recorded revenues (run 728 of 129026; run 458 of 1830 log 26855), and the
tokens of the state (who is where).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from route18xx.draw import render_svg
from route18xx.engine import api
from tests.conftest import LOGS_DIR

NS = "{http://www.w3.org/2000/svg}"
REFERENCE = LOGS_DIR.parent / "reference"


def _board(title: str) -> tuple[Any, list[dict[str, Any]]]:
    """A late board of the title and its recorded routes (from the log or the 1830 states)."""
    if title == "1888":
        log = json.loads((LOGS_DIR / "129026.json").read_text())
        return api.state_from_log(log, 728), api.recorded_routes(log, 728)
    states = json.loads((LOGS_DIR.parent / "1830" / "states.json").read_text())["states"]
    board = next(s for s in states if s["name"] == "26855-458")
    return board["state"], board["routes"]


@pytest.mark.parametrize("title, sign", [("1888", "¥"), ("1830", "$")])
def test_every_hex_and_route_has_a_title_that_names_what_is_there(title: str, sign: str) -> None:
    state, recorded = _board(title)
    root = ET.fromstring(render_svg(state, routes="both", recorded=recorded))
    names = {h["id"]: h["location_name"] for h in json.loads(
        (REFERENCE / title / "map.json").read_text())["hexes"]}
    hexes = [g for g in root.iter(f"{NS}g") if g.get("class") == "hex"]
    assert len(hexes) == len(names)
    tokens: dict[str, list[str]] = {}
    for t in api.read_state(state).board.tokens.items():
        (hex_id, _), corps = t
        tokens.setdefault(hex_id, []).extend(corps)
    for g in hexes:
        hover = g.find(f"{NS}title")
        assert hover is not None and hover.text
        hex_id = g.get("data-hex") or ""
        assert hover.text.startswith(hex_id)
        if names.get(hex_id):  # as players spell it (engine.api.place_name: "Harbour")
            assert api.place_name(names[hex_id]) in hover.text
        for corp in tokens.get(hex_id, []):
            assert corp in hover.text
        other = "$" if sign == "¥" else "¥"
        assert other not in hover.text, hover.text
    routes = {p.get("data-kind"): p for p in root.iter(f"{NS}path") if p.get("class") == "route"}
    rec = routes["recorded"].find(f"{NS}title")
    assert rec is not None and rec.text is not None
    # the train by its one name, the engine's (issue 34: "3-train", not "3-0")
    train = dict(api.company_trains(state)).get(recorded[0]["train"])
    assert train and rec.text.startswith(f"recorded {train}:"), rec.text
    assert f"revenue {sign}{recorded[0]['revenue']}" in rec.text
    opt = routes["optimal"].find(f"{NS}title")
    assert opt is not None and opt.text is not None
    if title == "1888":  # the mine (ROUTES.md §5.3); 1830 has none
        assert "mine subsidy ¥40" in opt.text
    else:
        assert "subsidy" not in opt.text and f"revenue {sign}" in opt.text
