"""1882's map in pictures (issue 36): flat-topped, its off-boards' yellow and brown values,
and a route's legend naming the Hudson Bay bonus (not a destination bonus: 1882 has none).

The state: the board before the SC's run at action 478 of the shared log 5585
(``tests/data/golden/1882``): its 6-train from Hudson Bay B12 to Western Canada I1, $250 of
stops and the $100 bonus.
"""

from __future__ import annotations

import gzip
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from route18xx.draw import render_svg
from tests.draw.hexmath import SVG

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1882" / "verdicts.json.gz"
STATE: dict[str, Any] = next(
    r["state"] for f in json.loads(gzip.decompress(GOLDEN.read_bytes()))["fixtures"]
    if f["fixture"] == "5585" for r in f["runs"] if r["action_id"] == 478)


def test_the_map_is_flat_and_the_off_boards_print_their_values() -> None:
    root = ET.fromstring(render_svg(STATE, routes="none"))
    assert root.get("data-layout") == "flat"
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "hex"]) == 74
    seen = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "hex" and g.get("data-hex") in ("B2", "I1", "B12"):
            seen[g.get("data-hex")] = [tuple("".join(t.itertext()) for t in b.findall(f"{SVG}text"))
                                       for b in g.iter(f"{SVG}g") if b.get("class") == "revenue"]
    assert seen == {"B2": [("30", "60")], "I1": [("40", "80")], "B12": [("40", "50")]}


def test_the_legend_names_the_hudson_bay_bonus() -> None:
    root = ET.fromstring(render_svg(STATE, routes="optimal"))
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "optimal 6-train: 6 stops $250 + Hudson Bay bonus $100 = revenue $350" in texts
    assert not any("destination" in t for t in texts)


def test_the_letters_name_the_rows() -> None:
    """1882's hexes are placed with the letter as the doubled-height row and the number as
    the column (18xx.games ``AXES = {x: :number, y: :letter}``), and the grid labels say so:
    letters at the sides, numbers above and below."""
    import math

    from tests.draw.hexmath import flat_hex_center, layout_of

    root = ET.fromstring(render_svg(STATE, routes="none"))
    size, ox, oy = layout_of(root)
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "hex":
            continue
        polygon = g.find(f"{SVG}polygon")
        assert polygon is not None
        nums = [float(n) for n in polygon.get("points", "").replace(",", " ").split()]
        centre = (sum(nums[0::2]) / 6, sum(nums[1::2]) / 6)
        want = flat_hex_center(g.get("data-hex", ""), size, ox, oy, letter_rows=True)
        assert math.dist(centre, want) < 0.06, g.get("data-hex")
    grid = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "grid")
    labels = {"".join(t.itertext()) for t in grid.iter(f"{SVG}text")}
    assert {"A", "B", "O", "1", "12", "13"} <= labels
