"""Picture benchmark (issue 12): drawing the fullest real board with its routes.

Times ``picture(build_picture(...))``: the engine's board view, the routes laid
over the track, the legend and the SVG text, for the phase-D board of 129026
(action 728) with its optimal and recorded routes (solved and walked once,
before timing). Target: ≤ 50 ms. Also times the PNG (cairosvg) for the record.

Run: ``make bench`` (or ``.venv/bin/python -m pytest benchmarks/bench_draw.py --benchmark-only``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.conftest import ROOT
from route18xx.draw import svg_to_png
from route18xx.draw.picture import picture
from route18xx.draw.render import build_picture
from route18xx.engine import api

LOG = json.loads((ROOT / "tests" / "data" / "logs" / "129026.json").read_text("utf-8"))
TARGET_S = 0.050


@pytest.fixture(scope="module")
def fullest() -> tuple[Any, list[Any]]:
    state = api.state_from_log(LOG, 728)
    sets = [("optimal", api.route_walks(state, api.solve_routes(state)["routes"])),
            ("recorded", api.route_walks(state, api.recorded_routes(LOG, 728)))]
    return state, sets


def test_draw_fullest_board(benchmark: Any, fullest: tuple[Any, list[Any]]) -> None:
    state, sets = fullest
    svg = benchmark(lambda: picture(build_picture(state, sets)))
    assert svg.startswith("<svg")
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= TARGET_S


def test_png_of_fullest_board(benchmark: Any, fullest: tuple[Any, list[Any]]) -> None:
    state, sets = fullest
    svg = picture(build_picture(state, sets))
    png = benchmark.pedantic(svg_to_png, args=(svg,), rounds=5, iterations=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
