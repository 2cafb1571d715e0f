"""1856's map in pictures (issue 36): flat-topped, its off-boards' yellow, brown and black
values (the black one white on a black box), and a route's legend naming the port marker.

The state: the board before LPS's run at action 67 of the shared log 1856_game_end_bank
(``tests/data/golden/1856``): two 2-trains from Maudaumin C14, which holds LPS's port marker,
to Sarnia B13: $50 of stops and the marker's $20 each.
"""

from __future__ import annotations

import gzip
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from route18xx.draw import render_svg
from tests.draw.hexmath import SVG

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1856" / "verdicts.json.gz"
STATE: dict[str, Any] = next(
    r["state"] for f in json.loads(gzip.decompress(GOLDEN.read_bytes()))["fixtures"]
    if f["fixture"] == "1856_game_end_bank" for r in f["runs"] if r["action_id"] == 67)


def test_off_boards_print_their_black_value() -> None:
    root = ET.fromstring(render_svg(STATE, routes="none"))
    assert root.get("data-layout") == "flat"
    boxes = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "hex" and g.get("data-hex") in ("A20", "P17"):
            boxes[g.get("data-hex")] = [[("".join(t.itertext()), t.get("fill")) for t in b.findall(f"{SVG}text")]
                                        for b in g.iter(f"{SVG}g") if b.get("class") == "revenue"]
    assert boxes["A20"] == [[("30", "#000"), ("50", "#000"), ("60", "#fff")]]  # yellow_30|brown_50|black_60
    assert [v for v, _ in boxes["P17"][0]] == ["30", "40"]  # Buffalo: yellow_30|brown_40


def test_the_legend_names_the_port_marker() -> None:
    root = ET.fromstring(render_svg(STATE, routes="optimal"))
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "optimal 2-train #1: 2 stops $50 + port marker $20 = revenue $70" in texts
    assert "optimal revenue: $140" in texts
