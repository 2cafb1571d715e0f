"""Hex marks are data (issue 25): ``engine/data/<title>/hex_marks.json`` names the hexes
that print a mark, the drawing draws each mark it knows. Witness: the 18xx.games map of
1888 (tests/data/reference), whose ``great_wall`` flag marks the Great Wall hexes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from route18xx.draw import render_svg
from route18xx.draw.hexes import MARKS
from route18xx.engine.titles import TITLES
from tests.conftest import LOGS_DIR

SVG = "{http://www.w3.org/2000/svg}"
REFERENCE_MAP = LOGS_DIR.parent / "reference" / "1888" / "map.json"
#: The printed map with LYR's home token (F16, no wall hex); below, a tile on C7 (a wall hex).
STATE = {"title": "1888", "rule_set": "north", "phase": "2", "corporation": "LYR", "trains": ["2"],
         "tiles": [], "tokens": [{"hex": "F16", "city": 0, "corporation": "LYR"}]}


def _walled(state: dict[str, object]) -> set[str]:
    root = ET.fromstring(render_svg(state, routes="none"))
    return {g.get("data-hex") or "" for g in root.iter(f"{SVG}g") if g.get("class") == "hex"
            and any(p.get("class") == "wall" for p in g.iter(f"{SVG}path"))}


def test_the_wall_is_drawn_on_the_reference_great_wall_hexes_until_a_tile_covers_it() -> None:
    wall = {h["id"] for h in json.loads(REFERENCE_MAP.read_text("utf-8"))["hexes"] if h["great_wall"]}
    assert len(wall) == 15  # RULES.md §7.4: the Great Wall's fifteen hexes
    assert _walled(STATE) == wall
    laid = dict(STATE, tiles=[{"hex": "C7", "tile": "9", "rotation": 1}])
    assert _walled(laid) == wall - {"C7"}


def test_every_mark_of_every_title_has_a_drawing() -> None:
    marks = {m for t in TITLES.values() for h in t.data.hexes.values() for m in h.marks}
    assert marks == {"wall"} and marks <= set(MARKS)
    assert not any(h.marks for h in TITLES["1830"].data.hexes.values())
