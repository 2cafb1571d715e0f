"""The page's findings of issue 34 (item 5), in headless Chromium: an 1830 log's page shows
no treasury, subsidy or objective switch (GetInfo's title facts say 1830 pays no subsidy);
negative "lost" figures are explained; the run table fits its panel; the run list is within
5 Tab stops; axe-core (vendored in ``tests/data/axe``) finds nothing serious or critical.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.conftest import LOGS_DIR
from tests.web.test_views import LOG, _call, _heading_is, _open_log, _rows, _settled, _wait

pytestmark = NO_CHROMIUM

LOG_1830 = LOGS_DIR.parent / "1830" / "26855.json"
RUNS_1830 = 43
AXE = Path(__file__).resolve().parents[1] / "data" / "axe" / "axe.min.js"


def _visible_text(driver: Any) -> str:
    return str(driver.execute_script("return document.body.innerText"))


def test_an_1830_page_names_no_treasury_no_subsidy_and_no_objective(chromium_driver: Any, site: RouteServer) -> None:
    """1830 pays no subsidy (GetInfo: ``subsidies`` false, from its data): income is revenue,
    so the page names revenue alone, shows no treasury column or subsidy word, and offers
    no objective to switch (it would change nothing)."""
    from selenium.webdriver.common.by import By

    info = _call(site, "GetInfo", {})
    assert {t["title"]: t.get("subsidies", False) for t in info["titles"]} == {
        "1888": True, "1830": False, "1889": False, "18Chesapeake": False, "1882": False,
        "1856": False}
    driver = chromium_driver
    _open_log(driver, site, LOG_1830, RUNS_1830)
    driver.find_element(By.CSS_SELECTOR, '#runs tbody tr[data-action-id="296"]').click()
    _wait(driver, lambda d: _heading_is(d, 296) and _settled(d))
    driver.find_element(By.ID, "turn-rank").click()
    _wait(driver, lambda d: "plans ranked" in d.find_element(By.ID, "turn-status").text, 120)
    text = _visible_text(driver)
    assert not re.findall(r"[^\n]*(?:subsid|treasury|dividend \+)[^\n]*", text, flags=re.I)
    assert not re.findall(r"[^\n]*\bincome\b[^\n]*", text, flags=re.I)  # one name: revenue
    assert not driver.find_element(By.ID, "objective-switch").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, '#runs th[data-key="treasury"], #runs td[data-key="treasury"]')
    screenshot(driver, "web-1830-no-subsidy")
    # an 1888 log after it: the switch and the treasury come back
    driver.find_element(By.ID, "file").send_keys(str(LOGS_DIR / "1888_game_end_bankrupt.json"))
    _wait(driver, lambda d: len(_rows(d)) == 28)
    assert driver.find_element(By.ID, "objective-switch").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, '#runs th[data-key="treasury"]')


def test_negative_figures_are_explained_and_the_run_table_fits_its_panel(
    chromium_driver: Any, site: RouteServer
) -> None:
    """129026 has runs whose optimum gives up dividend for treasury (−¥20, −¥40): the list says
    what a negative figure lost means, and so does the run's line; the table, every column
    included, fits its panel at a desk and on a phone."""
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    for size in ((1440, 900), (390, 844)):
        driver.set_window_size(*size)
        _open_log(driver, site)
        negatives = [td for td in driver.find_elements(By.CSS_SELECTOR, "#runs td.gained") if td.text.startswith("−")]
        assert negatives
        note = driver.find_element(By.ID, "runs-note")
        assert note.is_displayed() and "negative" in note.text and "less" in note.text
        fits = driver.execute_script(
            "const s = document.querySelector('#runs-panel .table-scroll');"
            "return [s.scrollWidth, s.clientWidth]")
        assert fits[0] <= fits[1], (size, fits)
        header = driver.find_element(By.CSS_SELECTOR, 'th[data-key="treasury"]').rect
        panel = driver.find_element(By.ID, "runs-panel").rect
        if header["width"]:  # (the phone shows every column too: nothing is cut off)
            assert header["x"] + header["width"] <= panel["x"] + panel["width"], (size, header, panel)
        screenshot(driver, f"web-table-fits-{size[0]}")
    driver.set_window_size(1440, 900)
    row = driver.find_element(By.CSS_SELECTOR, '#runs tbody tr[data-action-id="728"]')
    row.click()
    _wait(driver, lambda d: _heading_is(d, 728) and d.find_elements(By.ID, "income-line"))
    line = driver.find_element(By.ID, "income-line").text
    assert "dividend −¥20" in line and "negative" in line and "less" in line


def test_the_run_list_is_within_five_tab_stops(chromium_driver: Any, site: RouteServer) -> None:
    """From the top of the page, Tab reaches the run list in at most 5 stops (issue 34 counted
    19), and the list's other tools (filters, sort) stay reachable by keyboard."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = chromium_driver
    _open_log(driver, site)
    driver.refresh()  # the same view, reloaded: the focus at the top of the page
    _wait(driver, lambda d: len(_rows(d)) == 95)
    stops = []
    for _ in range(30):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        active = driver.switch_to.active_element
        stops.append(driver.execute_script(
            "const e = arguments[0]; return e.id || e.name || e.tagName.toLowerCase()", active))
        if driver.execute_script("return arguments[0].matches('#runs tbody')", active):
            break
    assert stops[-1] == "tbody" and len(stops) <= 5, stops
    # the filters and the sort come after the list, by keyboard too
    seen = []
    for _ in range(20):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        seen.append(driver.execute_script("return document.activeElement.id"))
    assert {"filter-company", "filter-round", "gaps-only", "prev-run", "next-run", "sort-by"} <= set(seen), seen


def _axe(driver: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    driver.execute_script(AXE.read_text("utf-8"))
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)),"
        " e => done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}])));")
    violations = json.loads(result)
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in violations if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desk", "phone"])
def test_axe_finds_nothing_serious_on_a_runs_page(
    chromium_driver: Any, site: RouteServer, size: tuple[int, int]
) -> None:
    """axe-core 4.14 (vendored, MPL-2.0) on the page with 129026's runs, a run open (board,
    breakdown, moves) and the board after a move: no serious or critical finding."""
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    driver.set_window_size(*size)
    _open_log(driver, site, LOG, 95)
    row = driver.find_element(By.CSS_SELECTOR, '#runs tbody tr[data-action-id="728"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    _wait(driver, lambda d: _heading_is(d, 728) and _settled(d))
    buttons = driver.find_elements(By.CSS_SELECTOR, "#board-panel button.draw-move")
    if buttons:
        driver.execute_script("arguments[0].click()", buttons[0])
        _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg"))
    found = _axe(driver)
    assert found == [], json.dumps(found, indent=1)
    driver.set_window_size(1440, 900)
