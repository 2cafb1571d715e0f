"""Issue 36: the page solves and draws a real board of every flat-topped route-level title
pasted as a state file — 18Chesapeake, 1882 and 1856 (1889 has ``test_page_1889.py``) — at a
desk (1440×900) and on a phone (390×844).

Each board is a golden state: the board before a recorded ``run_routes`` as the 18xx.games
engine held it (``tests/data/golden/<title>/verdicts.json.gz``). The revenue shown must be
the one the engine accepted for our optimum there; every hex of the title's map is drawn,
flat-topped, and the routes are drawn.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.web.test_boards import _box, _routes_box
from tests.web.test_views import _label_px, _wait

pytestmark = NO_CHROMIUM

DATA = Path(__file__).resolve().parents[1] / "data"
SIZES = {"desk": (1440, 900), "phone": (390, 844)}


def _late_board(title: str) -> tuple[dict[str, Any], int]:
    """The last run of the title's first log whose optimum the engine accepted, and that
    revenue."""
    data = json.loads(gzip.decompress((DATA / "golden" / title / "verdicts.json.gz").read_bytes()))
    run = [r for r in data["fixtures"][0]["runs"]
           if r["optimum"]["total"]["verdict"].get("accepted")][-1]
    return run["state"], run["optimum"]["total"]["verdict"]["revenue"]


def _hexes_on_map(title: str) -> int:
    """The map's hexes, as the title's data lists them (taken from 18xx.games)."""
    text = (Path(__file__).resolve().parents[2] / "engine" / "data" / title / "map.json").read_text()
    return len(json.loads(text)["hexes"])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("title", ["18Chesapeake", "1882", "1856"])
def test_a_pasted_real_board_is_solved_and_drawn_flat_topped(
        chromium_driver: Any, site: RouteServer, title: str, size: str) -> None:
    from selenium.webdriver.common.by import By

    state, accepted = _late_board(title)
    driver = chromium_driver
    driver.set_window_size(*SIZES[size])
    try:
        driver.get(f"{site.http_url}/")
        driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
        driver.execute_script("document.getElementById('paste').value = arguments[0]",
                              json.dumps(state))
        driver.find_element(By.ID, "solve-pasted").click()
        try:
            _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"), 30)
        except Exception:
            screenshot(driver, f"web-{title}-{size}-failed")
            raise AssertionError(driver.find_element(By.TAG_NAME, "body").text[:2000])
        text = driver.find_element(By.ID, "incomes").text
        found = re.match(r"optimal revenue \D*(\d+) \(proven\)", text)
        assert found and int(found.group(1)) == accepted, (text, accepted)
        tops = driver.execute_script("""
            return [...document.querySelectorAll('#board svg g.hex')].map(g => {
              const p = g.querySelector(':scope > polygon');  // the hex's ground
              const ys = p.getAttribute('points').trim().split(/\\s+/).map(xy => +xy.split(',')[1]);
              const top = Math.min(...ys);
              return ys.filter(y => Math.abs(y - top) < 0.01).length;
            });""")
        assert len(tops) == _hexes_on_map(title) and set(tops) == {2}, (len(tops), set(tops))
        # The board opens on its routes (issue 34 item 5): at a desk all of them inside the
        # box; on a phone, zoomed until names are readable, their middle in the box's middle.
        frame, routes = _box(driver, "#board"), _routes_box(driver, "#board")
        if size == "desk":
            assert frame["left"] - 1 <= routes["left"] and routes["right"] <= frame["right"] + 1
            assert frame["top"] - 1 <= routes["top"] and routes["bottom"] <= frame["bottom"] + 1
        else:
            assert min(_label_px(driver)) >= 11
            middle = ((routes["left"] + routes["right"]) / 2, (routes["top"] + routes["bottom"]) / 2)
            assert frame["left"] + frame["width"] / 4 < middle[0] < frame["right"] - frame["width"] / 4
            assert frame["top"] + frame["height"] / 4 < middle[1] < frame["bottom"] - frame["height"] / 4
        screenshot(driver, f"web-{title}-{size}")
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.set_window_size(*SIZES["desk"])
