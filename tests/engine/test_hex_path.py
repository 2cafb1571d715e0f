"""A train's hex path read as the route the checker judges (``engine.api.read_hex_paths``;
issue 34 item 6): cut where the track laid lets it stop, not at every hex that draws a
stop (1830's Altoona bypass, reference/1830 ROUTES.md §1.3)."""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.errors import MalformedInput
from tests.engine.test_1830_routes import ALTOONA_TILES, STATES, _state


def _read(state: Any, train: str, hexes: list[str]) -> dict[str, Any]:
    (reading,) = api.read_hex_paths(state, [{"train": train, "hexes": hexes}])
    return reading.to_json()


def _travel_order(connections: list[list[str]]) -> list[str] | None:
    """A recorded route's connections as the hexes its train passes, in order."""
    path = list(connections[0])
    if len(connections) > 1 and path[-1] not in (connections[1][0], connections[1][-1]):
        path.reverse()
    for conn in connections[1:]:
        conn = conn if conn[0] == path[-1] else conn[::-1]
        if conn[0] != path[-1]:
            return None
        path += conn[1:]
    return path


def test_the_bypass_route_is_read_past_altoona() -> None:
    """26855 #458: C&O's 6-train runs F6-G7-H8-H10-H12-H14-I15; H12 draws Altoona's city,
    full of PRR's token, and the train runs past it on the bypass (edge 1 to edge 4):
    four stops, none on H12, $120 as recorded (1830 ROUTES.md §1.3)."""
    s = STATES["26855-458"]
    reading = _read(s["state"], "6-0", ["F6", "G7", "H8", "H10", "H12", "H14", "I15"])
    assert reading["connections"] == [["F6", "G7"], ["G7", "H8", "H10"], ["H10", "H12", "H14", "I15"]]
    assert reading["nodes"] == ["F6-0", "G7-0", "H10-0", "I15-0"] and reading["open"] == []
    route = {"train": "6-0", "connections": reading["connections"]}
    report = api.check_routes(s["state"], [route])
    assert report["legal"] and report["revenue"] == 120


def test_an_open_altoona_is_a_stop_the_path_prefers() -> None:
    """Ambiguity: H10-H12-H14-H16 may stop at an open Altoona or run past it on the bypass;
    the reading prefers to stop where the path can ($20 + $10 + $20 = $50 > $40); a full
    Altoona cannot be run through (ROUTES.md §3.8), so the same hexes run the bypass."""
    hexes = ["H10", "H12", "H14", "H16"]
    open_city = _state("3", "NYC", ["3"], ALTOONA_TILES, [("H10", 0, "NYC")])
    assert _read(open_city, "3-0", hexes)["connections"] == [["H10", "H12"], ["H12", "H14", "H16"]]
    full = _state("3", "NYC", ["3"], ALTOONA_TILES, [("H10", 0, "NYC"), ("H12", 0, "PRR")])
    reading = _read(full, "3-0", hexes)
    assert reading["connections"] == [hexes] and reading["nodes"] == ["H10-0", "H16-0"]
    # a full Altoona may end the route: the path stops there
    assert _read(full, "3-0", ["H10", "H12"])["connections"] == [["H10", "H12"]]


def test_every_recorded_route_reads_back_to_its_own_stops() -> None:
    """Ordinary routes are read as before: each of the 103 routes of the two 1830 logs,
    given as the hexes it passes, is read to the stops the checker finds in the log's
    own connections."""
    read = 0
    for name, s in STATES.items():
        for route in s["routes"]:
            path = _travel_order(route["connections"])
            assert path is not None, name
            reading = _read(s["state"], route["train"], path)
            (judged,) = api.check_routes(s["state"], [route])["routes"]
            assert sorted(reading["nodes"]) == sorted(judged["nodes"]), (name, route, reading)
            read += 1
    assert read == 103


def test_hexes_past_the_last_stop_are_open_and_a_gap_is_no_track() -> None:
    """H14 has no stop: the path waits for one (``open``); where no track joins the hexes,
    the path is cut at the hexes that draw a stop and the checker says NO_TRACK."""
    state = _state("3", "NYC", ["3"], ALTOONA_TILES, [("H10", 0, "NYC"), ("H12", 0, "PRR")])
    assert _read(state, "3-0", ["H10", "H12", "H14"]) == {
        "train": "3-0", "connections": [["H10", "H12"]], "nodes": ["H10-0", "H12-0"], "open": ["H14"]}
    assert _read(state, "3-0", ["H10"]) == {"train": "3-0", "connections": [], "nodes": [], "open": ["H10"]}
    gap = _read(state, "3-0", ["H10", "H12", "H14", "H16", "G17", "G19"])
    assert gap["connections"][0] == ["H10", "H12", "H14", "H16"] and gap["connections"][-1][-1] == "G19"
    assert gap["open"] == []
    report = api.check_routes(state, [{"train": "3-0", "connections": gap["connections"]}])
    assert "NO_TRACK" in [v["code"] for v in report["violation_details"]]


@pytest.mark.parametrize("paths, field", [
    ("H10", "hex_paths"),
    ([{"train": "3-0", "hexes": ["H10", "Z99"]}], r"hex_paths\[0\]\.hexes\[1\]"),
    ([{"train": "3-0", "hexes": ["H10", 7]}], r"hex_paths\[0\]\.hexes\[1\]"),
    ([{"train": "", "hexes": ["H10"]}], r"hex_paths\[0\]\.train"),
    ([{"train": "3-0", "hexes": ["H10"]}, {"train": "3-1", "hexes": ["H16"]}], "hex_paths"),
])
def test_a_path_that_cannot_be_read_names_its_field(paths: Any, field: str) -> None:
    state = _state("3", "NYC", ["3"], ALTOONA_TILES, [("H10", 0, "NYC")])
    with pytest.raises(MalformedInput, match=f"^{field}: "):
        api.read_hex_paths(state, paths)
