"""One name per object on screen (issue 34, item 5), in headless Chromium: with a run open, its
every figure, the moves, the board after a move and an illegal route of the player's own on
screen, the page's visible text (and the boards' hover help) writes each stop and each train one
way, the engine's ("Qingdao", "3-train"), never by its id ("H14-0", "3-3"), nor a place in
another spelling ("harbor") or a city counted from 0.

The names to look for come from the engine itself (``engine.api.stop_names`` and
``company_trains`` of the run's state, which the board carries), not from the page.
"""

from __future__ import annotations

import json
import re
from typing import Any

from route18xx.engine import api
from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.web.test_own_route import RUN, TOO_LONG, _open_run, _status
from tests.web.test_views import LOG, _wait

pytestmark = NO_CHROMIUM


def _word(token: str) -> str:
    """``token`` as a whole word: not inside a longer id ("H14-0" is not in "H14-01")."""
    return rf"(?<![\w-]){re.escape(token)}(?![\w-])"


def _written_twice(text: str, stops: dict[str, str], trains: list[tuple[str, str]]) -> list[str]:
    """Each object of ``text`` written another way than its one name: ids, other spellings."""
    found = []
    for node, name in stops.items():
        if re.search(_word(node), text):
            found.append(f"stop {name} as {node}")
    names = dict(trains)
    for tid, name in trains:
        if re.search(_word(tid), text):
            found.append(f"train {name} as {tid}")
        bare = name.split(" #")[0]
        if name != bare and re.search(_word(bare) + r"(?! #)", text):
            found.append(f"train {name} as {bare}")
    for hex_def in api.read_state(_state()).data.hexes.values():
        raw = hex_def.location_name or ""
        if raw and api.place_name(raw) != raw and re.search(_word(raw), text):
            found.append(f"place {api.place_name(raw)} as {raw}")
    if re.search(r"\bcity 0\b", text):
        found.append("a city counted from 0")
    assert names  # the board named the company's trains
    return found


def _state() -> Any:
    return api.state_from_log(api.parse_game_log(LOG.read_bytes()), RUN)


def test_every_stop_and_train_has_one_name_on_screen(chromium_driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _open_run(driver, site)
    # the engine's names, as the run's board carries them, are the engine's own
    carried = json.loads(driver.execute_script(
        "return document.querySelector('#board svg metadata#names').textContent"))
    state = _state()
    assert carried["stops"] == api.stop_names(state)
    assert [tuple(t) for t in carried["trains"]] == api.company_trains(state) == [
        ("3-3", "3-train"), ("4-0", "4-train")]
    # the board after what the player did, and an illegal route of the player's own (the judge's words)
    driver.find_element(By.CSS_SELECTOR, "#player-did button").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg path.route"))
    driver.find_element(By.CSS_SELECTOR, '#own-trains button[data-train="3-3"]').click()
    driver.find_element(By.ID, "own-hexes").send_keys(" ".join(TOO_LONG))
    assert _status(driver).startswith("Your routes: illegal")

    text = driver.execute_script("return document.body.innerText")
    hover = " ".join(driver.execute_script(
        "return [...document.querySelectorAll('svg title')].map(t => t.textContent)"))
    stops, trains = carried["stops"], [tuple(t) for t in carried["trains"]]
    # what must be on screen, each by its one name: the breakdown's stops, the legend's trains,
    # the violation naming the train, the harbour the optimum adds
    for words in ("Qingdao", "Harbour", "The optimum adds Harbour", "optimal 3-train:",
                  "route 1 (3-train): a 3-train cannot visit 4 stops"):
        assert words in text, words
    assert "Yantai – Weifang – Qingdao – Harbour" in hover
    screenshot(driver, "web-one-name")
    assert _written_twice(text, stops, trains) == []
    assert _written_twice(hover, stops, trains) == []


def test_names_tell_apart_stops_that_share_a_place_and_trains_of_one_type() -> None:
    """Two cities of one hex, two trains of one type: the hex, and an ordinal, tell them apart;
    a stop alone on its place is its place's name (engine.api, which every front end uses)."""
    state = {"title": "1888", "rule_set": "prototype", "phase": "4", "corporation": "HJR",
             "trains": ["3", "3", "4"], "tiles": [], "tokens": []}
    stops = api.stop_names(state)
    assert stops["C9-0"] == "Beijing (C9 city 1)" and stops["C9-1"] == "Beijing (C9 city 2)"
    assert stops["H14-0"] == "Qingdao" and stops["H16-0"] == "Harbour"
    assert len(set(stops.values())) == len(stops)  # one object, one name; one name, one object
    assert api.company_trains(state) == [("3-0", "3-train #1"), ("3-1", "3-train #2"), ("4-0", "4-train")]
