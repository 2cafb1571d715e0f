"""Issue 22: hover help on the board — a ``<title>`` on every hex and route.

Witnesses apart from the drawing: the printed names of the reference map
(tests/data/reference), the log's own recorded revenue of run 728 of 129026, and
the tokens of the state file (who is where).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from route18xx.draw import render_svg
from route18xx.engine import api
from tests.conftest import LOGS_DIR

NS = "{http://www.w3.org/2000/svg}"


def test_every_hex_and_route_has_a_title_that_names_what_is_there() -> None:
    log = json.loads((LOGS_DIR / "129026.json").read_text())
    state = api.state_from_log(log, 728)
    recorded = api.recorded_routes(log, 728)
    root = ET.fromstring(render_svg(state, routes="both", recorded=recorded))
    names = {h["id"]: h["location_name"] for h in json.loads(
        (LOGS_DIR.parent / "reference" / "1888" / "map.json").read_text())["hexes"]}
    hexes = [g for g in root.iter(f"{NS}g") if g.get("class") == "hex"]
    assert len(hexes) == len(names)
    tokens: dict[str, list[str]] = {}
    for t in api.read_state(state).board.tokens.items():
        (hex_id, _), corps = t
        tokens.setdefault(hex_id, []).extend(corps)
    for g in hexes:
        title = g.find(f"{NS}title")
        assert title is not None and title.text
        hex_id = g.get("data-hex") or ""
        assert title.text.startswith(hex_id)
        if names.get(hex_id):
            assert names[hex_id] in title.text
        for corp in tokens.get(hex_id, []):
            assert corp in title.text
    routes = {p.get("data-kind"): p for p in root.iter(f"{NS}path") if p.get("class") == "route"}
    rec = routes["recorded"].find(f"{NS}title")
    assert rec is not None and rec.text is not None
    assert rec.text.startswith("recorded D-0:")
    assert f"revenue ¥{recorded[0]['revenue']}" in rec.text
    opt = routes["optimal"].find(f"{NS}title")
    assert opt is not None and opt.text is not None and "mine subsidy ¥40" in opt.text
