"""18Chesapeake's map in pictures (issue 36): flat-topped like 1889's, read back with the
flat hex math of ``tests.draw.hexmath`` (written apart from ``route18xx.draw``).

* Every one of the 63 hexes (g_18_chesapeake/map.rb ``HEXES``: 48 white, 7 red, 6 gray,
  2 yellow) is drawn flat-topped where doubled-height coordinates put it.
* Off-boards print their four colours' values (``yellow_40|green_50|brown_60|gray_80`` on
  Pittsburgh B2 and West Virginia Coal B14, ``yellow_40|green_60|brown_80|gray_100`` on Ohio
  A7 and New York L2, ``yellow_30|...|gray_60`` on Norfolk H14); A13, the second hex of West
  Virginia Coal, prints none (``hide:1``).
* The optimal route is drawn and its revenue named: N&W's 3-train from Lynchburg C13 to A13.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from route18xx.draw import render_svg
from tests.draw.hexmath import SVG, flat_hex_center, layout_of

STATE: dict[str, Any] = {
    "title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "N&W",
    "trains": ["3"],
    "tiles": [{"hex": "C13", "tile": "15", "rotation": 1}, {"hex": "B12", "tile": "8", "rotation": 5}],
    "tokens": [{"hex": "C13", "city": 0, "corporation": "N&W"}],
}


def test_every_hex_is_flat_topped_where_its_id_puts_it() -> None:
    root = ET.fromstring(render_svg(STATE, routes="none"))
    size, ox, oy = layout_of(root)
    assert root.get("data-layout") == "flat"
    hexes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hex"]
    assert len(hexes) == 63
    for g in hexes:
        polygon = g.find(f"{SVG}polygon")
        assert polygon is not None
        nums = [float(n) for n in polygon.get("points", "").replace(",", " ").split()]
        corners = list(zip(nums[0::2], nums[1::2]))
        top = min(y for _, y in corners)
        assert len([c for c in corners if abs(c[1] - top) < 0.01]) == 2, g.get("data-hex")
        centre = (sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6)
        assert math.dist(centre, flat_hex_center(g.get("data-hex", ""), size, ox, oy)) < 0.06


def test_off_boards_print_four_colours() -> None:
    root = ET.fromstring(render_svg(STATE, routes="optimal"))
    seen = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "hex" and g.get("data-hex") in ("B2", "A7", "A13", "B14", "H14", "L2"):
            seen[g.get("data-hex")] = [tuple("".join(t.itertext()) for t in b.findall(f"{SVG}text"))
                                       for b in g.iter(f"{SVG}g") if b.get("class") == "revenue"]
    assert seen == {"B2": [("40", "50", "60", "80")], "B14": [("40", "50", "60", "80")],
                    "A7": [("40", "60", "80", "100")], "L2": [("40", "60", "80", "100")],
                    "H14": [("30", "40", "50", "60")], "A13": []}
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "optimal revenue: $80" in texts  # C13 $30 + West Virginia Coal's green $50
