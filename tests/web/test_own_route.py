"""Try your own route (issue 34, item 6), in headless Chromium at a desk and on a phone: on a
run's board the player picks a train and the hexes of its route (pressed on the board or
typed); the page shows, as the route grows, its legality with each violation by name and its
revenue beside the run's proven optimum. The witness is the service itself: ValidateRoutes
called directly with the same routes (the engine's one checker), and the log's own routes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.web.test_views import LOG, _call, _heading_is, _open_log, _settled, _wait

pytestmark = NO_CHROMIUM

#: Run 231 of 129026: LYR runs a 3-train and a 4-train; the log's own routes.
RUN = 231
#: The recorded 3-train route (connections G13–H14 and F16–F14–G13), in travel order.
LEGAL = ["H14", "G13", "F14", "F16"]
#: The recorded 4-train route, four stops: too long for the 3-train.
TOO_LONG = ["F12", "G11", "H10", "H12", "H14", "G15", "F16"]


def _witness(site: RouteServer, hexes: list[str], train: str = "3-3") -> dict[str, Any]:
    """ValidateRoutes on the run's board for one route, cut at its stop hexes as the log cuts
    the same route (connections from stop to stop)."""
    stops = {"H14", "G13", "F16", "F12", "G11"}
    cuts = [i for i, h in enumerate(hexes) if h in stops]
    conns = [{"hexes": hexes[a:b + 1]} for a, b in zip(cuts, cuts[1:])]
    return _call(site, "ValidateRoutes", {"gameLog": LOG.read_text(), "actionId": RUN,
                                          "routes": [{"train": train, "connections": conns}], "compare": True,
                                          "objective": "OBJECTIVE_TOTAL"})


def _open_run(driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    _open_log(driver, site)
    row = driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{RUN}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    _wait(driver, lambda d: _heading_is(d, RUN) and _settled(d))
    _wait(driver, lambda d: d.find_element(By.ID, "own-route").is_displayed())


def _press_hex(driver: Any, hex_id: str) -> None:
    """A tap on the hex's middle as a person makes it (the pointer, not a script)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    ground = driver.find_element(By.CSS_SELECTOR, f'#board svg g.hex[data-hex="{hex_id}"] > polygon')
    ActionChains(driver).move_to_element(ground).click().perform()


def _status(driver: Any, old: str = "") -> str:
    from selenium.webdriver.common.by import By

    return str(_wait(driver, lambda d: (t := d.find_element(By.ID, "own-status").text).startswith("Your routes")
                     and "Not yet a stop" not in t and t != old and t, timeout=60))


def _check_legal(driver: Any, site: RouteServer, status: str) -> None:
    from selenium.webdriver.common.by import By

    witness = _witness(site, LEGAL)
    assert witness["legal"] and witness["revenue"] == 100  # the log's own figure for the route
    optimum = witness["comparison"]["optimalRevenue"] + witness["comparison"].get("optimalSubsidy", 0)
    assert status.startswith(f"Your routes: income ¥{witness['revenue']}"), status
    assert f"the proven optimum: income ¥{optimum}" in status, status
    item = driver.find_element(By.CSS_SELECTOR, '#own-result li[data-train="3-3"]')
    assert "legal" in item.get_attribute("class").split() and f"income ¥{witness['revenue']}" in item.text


def _check_too_long(driver: Any, site: RouteServer, status: str) -> None:
    from selenium.webdriver.common.by import By

    witness = _witness(site, TOO_LONG)
    codes = [v["code"] for v in witness["violationDetails"]]
    assert not witness.get("legal", False) and "VIOLATION_CODE_TOO_LONG" in codes
    shown = [(li.get_attribute("data-code"), li.text)
             for li in driver.find_elements(By.CSS_SELECTOR, '#own-result li[data-train="3-3"] li.violation')]
    assert [c for c, _ in shown] == codes
    # each by name, with the engine's own words
    for (code, text), v in zip(shown, witness["violationDetails"]):
        assert text == f"{code.removeprefix('VIOLATION_CODE_').lower().replace('_', ' ')}: {v['text']}"
    assert status.startswith("Your routes: illegal"), status


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desk", "phone"])
def test_a_player_builds_a_route_and_sees_it_judged_beside_the_optimum(
    chromium_driver: Any, site: RouteServer, size: tuple[int, int]
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    driver.set_window_size(*size)
    _open_run(driver, site)
    assert [b.get_attribute("data-train") for b in driver.find_elements(By.CSS_SELECTOR, "#own-trains button")] \
        == ["3-3", "4-0"]
    driver.find_element(By.CSS_SELECTOR, '#own-trains button[data-train="3-3"]').click()
    driver.execute_script("document.getElementById('board').scrollIntoView({block: 'start'})")

    # the legal route, pressed hex by hex on the board: judged as it grows
    status = ""
    for i, hex_id in enumerate(LEGAL):
        _press_hex(driver, hex_id)
        if i == 1:  # H14 then G13: already a route of two stops, judged
            status = _status(driver)
            assert "legal" in driver.find_element(By.CSS_SELECTOR, '#own-result li[data-train="3-3"]').get_attribute("class")
    assert driver.find_element(By.ID, "own-hexes").get_attribute("value") == " ".join(LEGAL)
    status = _status(driver, status)
    _check_legal(driver, site, status)
    assert driver.find_elements(By.CSS_SELECTOR, '#board svg polyline.own-route[data-train="3-3"]')
    screenshot(driver, f"web-own-route-legal-{size[0]}")

    # an illegal one, typed: too long for the 3-train, every violation by name
    field = driver.find_element(By.ID, "own-hexes")
    field.clear()
    field.send_keys(" ".join(TOO_LONG))
    status = _status(driver, status)
    _check_too_long(driver, site, status)
    screenshot(driver, f"web-own-route-illegal-{size[0]}")
    # undone to nothing: no route, nothing judged
    driver.find_element(By.ID, "own-clear").click()
    _wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#own-result li"))
    assert not json.loads(driver.execute_script(
        "return JSON.stringify([...document.querySelectorAll('#board svg polyline.own-route')].map(p => p.outerHTML))"))
    driver.set_window_size(1440, 900)


#: 26855 #458 (1830): C&O's 6-train runs F6-G7-H8-H10 and on past Altoona (H12, full of
#: PRR's token) on the bypass to H14-I15: four stops, none on H12, $120 (1830 ROUTES.md §1.3).
BYPASS_RUN = 458
BYPASS = ["F6", "G7", "H8", "H10", "H12", "H14", "I15"]


def test_an_1830_route_on_the_altoona_bypass_is_judged_as_the_track_runs(
    chromium_driver: Any, site: RouteServer,
) -> None:
    """The page cuts no route itself: typed hexes that pass Altoona's hex on the bypass are
    read by the engine (ValidateRoutes' hex_paths) as running past the city, legal at the
    log's $120; cutting at every hex that draws a stop made Altoona a stop the full city
    forbids (a blocked city passed), so the old page called this route illegal."""
    from selenium.webdriver.common.by import By

    from tests.web.test_page_1830 import LOG as LOG_1830, _recorded

    recorded, (route,) = _recorded(BYPASS_RUN)
    assert recorded == 120 and route["train"] == "6-0"
    driver = chromium_driver
    driver.set_window_size(1440, 900)
    _open_log(driver, site, LOG_1830, runs=43)
    row = driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{BYPASS_RUN}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    _wait(driver, lambda d: _heading_is(d, BYPASS_RUN) and _settled(d))
    _wait(driver, lambda d: d.find_element(By.ID, "own-route").is_displayed())
    driver.find_element(By.CSS_SELECTOR, '#own-trains button[data-train="6-0"]').click()
    field = driver.find_element(By.ID, "own-hexes")
    field.send_keys(" ".join(BYPASS[:3]))  # F6 G7 H8: H8 reaches no stop yet
    _wait(driver, lambda d: "Not yet a stop: H8" in d.find_element(By.ID, "own-status").text, timeout=60)
    field.clear()
    field.send_keys(" ".join(BYPASS))
    status = _status(driver)
    assert status.startswith("Your routes: revenue $120"), status
    item = driver.find_element(By.CSS_SELECTOR, '#own-result li[data-train="6-0"]')
    assert "legal" in item.get_attribute("class").split() and "$120" in item.text, item.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#own-result li.violation")
    screenshot(driver, "web-own-route-1830-bypass")
