"""1889's flat-topped map in pictures (issue 36), read back with the flat hex math of
``tests.draw.hexmath`` (written apart from ``route18xx.draw``).

* Every hex is drawn flat-topped where doubled-height coordinates put it: its two top
  corners level, its centre at ``flat_hex_center`` of its id.
* A route is drawn through exactly its hexes (the D from Tokushima K8 to Naruto L7, across
  K8's north-east edge: 18xx.games ``Hex::DIRECTIONS[:flat]`` edge 4 = (+1, −1)).
* Off-boards print their yellow, brown and diesel values (g_1889/map.rb:
  ``yellow_30|brown_60|diesel_100`` on Imabari F1), the diesel one as "D100".
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from route18xx.draw import render_svg
from tests.draw.hexmath import SVG, flat_hex_center, layout_of, polyline

#: A D of the Awa Railroad at home in Tokushima (K8, tile 57 turned to face Naruto L7).
STATE: dict[str, Any] = {
    "title": "1889", "rule_set": "standard", "phase": "D", "corporation": "AR", "trains": ["D"],
    "tiles": [{"hex": "K8", "tile": "57", "rotation": 1}],
    "tokens": [{"hex": "K8", "city": 0, "corporation": "AR"}],
}


def _points(text: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in text.replace(",", " ").split()]
    return list(zip(nums[0::2], nums[1::2]))


def test_every_hex_is_flat_topped_where_its_id_puts_it() -> None:
    root = ET.fromstring(render_svg(STATE, routes="none"))
    size, ox, oy = layout_of(root)
    assert root.get("data-layout") == "flat"  # data-origin-x/y: the centre of the hex at (0, 0)
    hexes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hex"]
    assert len(hexes) == 52  # g_1889/map.rb HEXES: 42 white, 2 yellow, 4 gray, 3 red, 1 green
    for g in hexes:
        polygon = g.find(f"{SVG}polygon")
        assert polygon is not None
        corners = _points(polygon.get("points", ""))
        assert len(corners) == 6
        top = min(y for _, y in corners)
        level = [c for c in corners if abs(c[1] - top) < 0.01]
        assert len(level) == 2, (g.get("data-hex"), corners)  # a flat top: two corners level
        cx = sum(x for x, _ in corners) / 6
        cy = sum(y for _, y in corners) / 6
        want = flat_hex_center(g.get("data-hex", ""), size, ox, oy)
        assert math.dist((cx, cy), want) < 0.06, g.get("data-hex")  # the SVG rounds to 0.1


def test_the_d_route_is_drawn_through_its_two_hexes() -> None:
    root = ET.fromstring(render_svg(STATE, routes="optimal"))
    size, ox, oy = layout_of(root)
    (route,) = [e for e in root.iter(f"{SVG}path") if e.get("class") == "route"]
    points = polyline(route.get("d", ""))
    centers = {h: flat_hex_center(h, size, ox, oy) for h in ("K8", "L7", "J9", "K6", "L9")}

    def nearest(p: tuple[float, float]) -> str:
        return min(centers, key=lambda h: math.dist(centers[h], p))

    assert nearest(points[0]) in ("K8", "L7") and nearest(points[-1]) in ("K8", "L7")
    assert {nearest(p) for p in points} == {"K8", "L7"}
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert any("revenue ¥100" in t for t in texts)  # K8 ¥20 + Naruto's diesel ¥80


def test_off_boards_print_their_diesel_value() -> None:
    root = ET.fromstring(render_svg(STATE, routes="none"))
    seen = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "hex" and g.get("data-hex") in ("F1", "J1", "L7"):
            (box,) = [b for b in g.iter(f"{SVG}g") if b.get("class") == "revenue"]
            seen[g.get("data-hex")] = tuple("".join(t.itertext()) for t in box.findall(f"{SVG}text"))
    assert seen == {"F1": ("30", "60", "D100"), "J1": ("20", "40", "D80"), "L7": ("20", "40", "D80")}
