"""Issue 25: the page takes 1830 as it takes 1888 — in headless Chromium at 1440×900 and
390×844, the shared 1830 log 26855 loaded by its 18xx.games id through FetchGameLog (the
local stand-in site), its runs listed, a run's board drawn with both routes, every figure
explained, the lays ranked and the whole turn planned, every amount in dollars.

Witnesses apart from the page: the log's own run_routes (recorded revenues and routes)
and the service's ReplayGame answer for the optimum, called directly over HTTP.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.conftest import LOGS_DIR
from tests.web.test_views import _call, _heading_is, _rows, _settled, _wait

pytestmark = NO_CHROMIUM

LOG = LOGS_DIR.parent / "1830" / "26855.json"
#: run_routes kept after undo in 26855 (1830 ACTIONS.md §4; tests/game/test_replay_1830.py).
RUNS = 43
#: A run the desk test opens (PRR, OR 3.x) and one the phone test opens (NYC); both left
#: something on the table under the income objective.
DESK_RUN, PHONE_RUN = 296, 328


def _recorded(action_id: int) -> tuple[int, list[dict[str, Any]]]:
    """The log's own revenue of a run and its routes (what the player ran on the site)."""
    log = json.loads(LOG.read_text("utf-8"))
    action = next(a for a in log["actions"] if a["id"] == action_id and a["type"] == "run_routes")
    return sum(r["revenue"] for r in action["routes"]), action["routes"]


def _no_yen(driver: Any) -> None:
    text = driver.execute_script("return document.querySelector('main').innerText")
    assert "¥" not in text and "$" in text
    svg = driver.execute_script(
        "return [...document.querySelectorAll('#board svg text')].map(t => t.textContent).join(' ')")
    assert "¥" not in svg and "$" in svg


def test_an_1830_game_loads_runs_solves_explains_and_plans_in_dollars(
    chromium_driver: Any, site: RouteServer,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.web.conftest import StandInSite

    driver = chromium_driver
    answer = _call(site, "ReplayGame", {"gameLog": LOG.read_text("utf-8")})
    by_action = {r["actionId"]: r for r in answer["runs"]}
    short = answer["leftOnTable"]

    # -- at the desk: the game by its id, fetched by the server from its one site
    driver.get(f"{site.http_url}/")
    StandInSite.asked.clear()
    driver.find_element(By.ID, "log-url").send_keys("26855", Keys.ENTER)
    _wait(driver, lambda d: len(_rows(d)) == RUNS)
    assert StandInSite.asked == ["/api/game/26855"]
    assert driver.find_element(By.ID, "game-title").text.startswith(
        f"1830 (multiple_brown_from_ipo): {RUNS} runs")
    summary = driver.find_element(By.ID, "game-summary").text
    assert "Final scores match the log." in summary
    # no subsidy in 1830: income is revenue, named once, and no treasury to lose (issue 34)
    assert short.get("treasuryLost", 0) == 0
    assert f"${short['amount']} of revenue left on the table in {short['runs']} runs." in summary

    recorded, routes = _recorded(DESK_RUN)
    optimal = by_action[DESK_RUN]["optimalRevenue"]
    assert optimal >= recorded
    row = driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{DESK_RUN}"]')
    row.click()
    _wait(driver, lambda d: _heading_is(d, DESK_RUN) and _settled(d))
    line = driver.find_element(By.ID, "income-line").text
    assert f"recorded revenue ${recorded}" in line and f"optimal revenue ${optimal}" in line
    assert f"left on the table ${optimal - recorded}" in line
    # the board: the recorded routes (dashed) and the optimal ones, each train one path
    drawn = driver.find_elements(By.CSS_SELECTOR, "#board svg path.route")
    assert len(drawn) == len(routes) + len(by_action[DESK_RUN]["trains"])
    # every figure: per train, the recorded route's stops add up to the log's revenue
    tables = driver.find_elements(By.CSS_SELECTOR, "#breakdown table.recorded")
    assert len(tables) == len(routes)
    for table, route in zip(tables, routes):
        caption = table.find_element(By.TAG_NAME, "caption").text
        assert caption.startswith(f"recorded: ${route['revenue']} revenue"), caption
        stops = [int(re.sub(r"^\$", "", td.text)) for td in
                 table.find_elements(By.CSS_SELECTOR, "tr.stop td:nth-child(3)")]
        assert sum(stops) == route["revenue"], (stops, route)
    _no_yen(driver)
    screenshot(driver, "web-1830-desk")

    # the whole turn, ranked on demand: plans and the trains to buy, in dollars
    driver.find_element(By.ID, "turn-rank").click()
    _wait(driver, lambda d: "plans ranked" in d.find_element(By.ID, "turn-status").text, 60)
    plans = driver.find_elements(By.CSS_SELECTOR, "#turn-plans button")
    assert plans and all(re.search(r"revenue \$\d+", b.text) for b in plans)
    assert "¥" not in driver.find_element(By.ID, "turn-box").text

    # -- on a phone: the game's link (the log fetched again), another run tapped, its
    # board in view, the same dollars
    driver.set_window_size(390, 844)
    driver.get("about:blank")
    driver.get(f"{site.http_url}/#log=26855&objective=total")
    _wait(driver, lambda d: len(_rows(d)) == RUNS)
    recorded, _ = _recorded(PHONE_RUN)
    optimal = by_action[PHONE_RUN]["optimalRevenue"]
    # "gaps only": the two runs that left something on the table, the phone's tap target
    driver.find_element(By.ID, "gaps-only").click()
    _wait(driver, lambda d: [r.get_attribute("data-action-id") for r in _rows(d)]
          == [str(DESK_RUN), str(PHONE_RUN)])
    row = _rows(driver)[1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", row)
    row.click()
    _wait(driver, lambda d: _heading_is(d, PHONE_RUN) and _settled(d))
    line = driver.find_element(By.ID, "income-line").text
    assert f"recorded revenue ${recorded}" in line and f"left on the table ${optimal - recorded}" in line
    board = driver.execute_script("return document.getElementById('board').getBoundingClientRect().toJSON()")
    width = driver.execute_script("return document.documentElement.clientWidth")
    assert board["top"] < driver.execute_script("return window.innerHeight") and board["bottom"] > 0
    assert board["right"] <= width + 1
    _no_yen(driver)
    screenshot(driver, "web-1830-phone")
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_a_pasted_1830_state_is_solved_in_dollars(chromium_driver: Any, site: RouteServer) -> None:
    """Run 458 of 26855 as a state file (``"title": "1830"``): C&O's 6-train, which the
    player ran for $120 through the Altoona bypass; the optimum is at least that."""
    from selenium.webdriver.common.by import By

    states = json.loads((LOGS_DIR.parent / "1830" / "states.json").read_text("utf-8"))["states"]
    board = next(s for s in states if s["name"] == "26855-458")
    driver = chromium_driver
    driver.get(f"{site.http_url}/")
    driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    # pasted at once (typing the JSON key by key would take seconds)
    driver.execute_script("document.getElementById('paste').value = arguments[0]",
                          json.dumps(board["state"]))
    driver.find_element(By.ID, "solve-pasted").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))
    text = driver.find_element(By.ID, "incomes").text
    found = re.match(r"optimal revenue \$(\d+) \(proven\)", text)
    assert found and int(found.group(1)) >= board["recorded_revenue"] == 120, text
    _no_yen(driver)


@pytest.fixture(autouse=True)
def _desk(chromium_driver: Any) -> Any:
    yield
    chromium_driver.set_window_size(1440, 900)
