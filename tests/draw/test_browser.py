"""A real browser renders the picture (DESIGN.md §8): headless Chromium through Selenium.

Skipped, with the reason, where Chromium or chromedriver is absent (Debian:
``apt-get install -y chromium chromium-driver``; ``.ci/run`` installs them).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from route18xx.draw import render_svg
from route18xx.draw.routes import ROUTE_COLORS
from route18xx.engine import api
from tests.browser import NO_CHROMIUM, chromium_driver, screenshot  # noqa: F401 (fixture)
from tests.conftest import LOGS_DIR, load_json

pytestmark = NO_CHROMIUM


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def test_chromium_draws_the_board_and_the_route_colours(
    tmp_path: Path, chromium_driver: Any
) -> None:
    from PIL import Image

    log = load_json(LOGS_DIR / "129026.json")
    state = api.state_from_log(log, 728)
    svg = render_svg(state, routes="both", recorded=api.recorded_routes(log, 728))
    page = tmp_path / "board.svg"
    page.write_text(svg, "utf-8")

    chromium_driver.set_window_size(1100, 1000)
    chromium_driver.get(page.as_uri())
    shot = chromium_driver.get_screenshot_as_png()
    screenshot(chromium_driver, "draw-board-728")
    data = Image.open(io.BytesIO(shot)).convert("RGB").tobytes()
    pixels = [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]
    assert len(set(pixels[::7])) > 50, "the screenshot is (nearly) blank"
    for color in ROUTE_COLORS[:2]:  # the optimal D-0 and the recorded D-0
        want = _rgb(color)
        near = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, want)) < 40)
        assert near > 300, f"route colour {color} is missing ({near} pixels)"
