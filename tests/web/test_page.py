"""The web page in a real browser (issue 13): load a game log, see its runs, a board, suggestions.

The page is served by the same process as the API (``route18xx serve``'s HTTP
front end) and calls it with ``fetch``; Selenium drives headless Chromium as a
person would: pick a file, click a run, read the figures. Screenshots are saved
under ``.artifacts/`` for inspection.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.app import RouteServer
from tests.browser import NO_CHROMIUM, csp_violations, screenshot
from tests.conftest import LOGS_DIR
from tests.stopped_logs import (
    BAD_HEX, RUNS_BEFORE, STOPS_AT, STOPS_AT_ONCE, run_ids_before, write_stopped_log,
)

pytestmark = NO_CHROMIUM


def _wait(driver: Any, condition: Any, timeout: float = 90) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(condition)


def _load(driver: Any, site: RouteServer, path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{site.http_url}/")
    driver.find_element(By.ID, "file").send_keys(str(path))


def test_a_log_lists_its_runs_and_shows_a_board(chromium_driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _load(driver, site, LOGS_DIR / "129026.json")
    rows = _wait(driver, lambda d: (r := d.find_elements(By.CSS_SELECTOR, "#runs tbody tr"))
                 and len(r) == 95 and r)
    assert len(rows) == 95
    assert driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr.gap"), "no gap highlighted"
    screenshot(driver, "web-runs")

    driver.find_element(By.CSS_SELECTOR, '#runs tbody tr[data-action-id="728"]').click()
    line = _wait(driver, lambda d: "optimal" in d.find_element(By.ID, "income-line").text
                 and d.find_element(By.ID, "income-line"))
    # one meaning per word: income = revenue + subsidy (the dividend + treasury objective)
    assert "optimal income ¥590 (¥550 revenue + ¥40 subsidy)" in line.text
    assert "recorded income ¥570" in line.text
    assert "left on the table ¥20 (revenue −¥20, subsidy +¥40)" in line.text
    routes = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))
    kinds = {r.get_attribute("data-kind") for r in routes}
    assert kinds == {"optimal", "recorded"}
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#suggestions li")
          or "No legal" in d.find_element(By.ID, "suggest-status").text)
    screenshot(driver, "web-board-728")
    assert not driver.find_element(By.ID, "error").is_displayed()
    # The page, its calls and the boards it draws all live under its CSP (issue 20).
    assert csp_violations(driver) == []


@pytest.mark.parametrize("content, expected", [
    ("this is not json {", "is not JSON"),
    (json.dumps({"title": "1830", "players": [{"id": 1}], "actions": []}), "invalid_argument"),
    (json.dumps({"hello": "world"}), "neither an 18xx.games game log"),
], ids=["not-json", "not-1888", "neither"])
def test_a_bad_file_shows_a_readable_error(
    chromium_driver: Any, site: RouteServer, tmp_path: Path, content: str, expected: str
) -> None:
    from selenium.webdriver.common.by import By

    bad = tmp_path / "bad.json"
    bad.write_text(content)
    _load(chromium_driver, site, bad)
    error = _wait(chromium_driver, lambda d: d.find_element(By.ID, "error").is_displayed()
                  and d.find_element(By.ID, "error"))
    assert expected in error.text and "bad.json" in error.text
    screenshot(chromium_driver, f"web-error-{tmp_path.name}")


def test_a_pasted_state_is_solved_and_drawn(chromium_driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    state = json.loads((LOGS_DIR.parent / "states" / "129026-138.json").read_text())
    driver = chromium_driver
    driver.get(f"{site.http_url}/")
    driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    driver.find_element(By.ID, "paste").send_keys(json.dumps(state["state"]))
    driver.find_element(By.ID, "solve-pasted").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))
    text = driver.find_element(By.ID, "incomes").text
    figures = [int(n) for n in re.findall(r"¥(\d+)", text)]  # revenue, and the subsidy if any
    assert text.startswith("optimal ¥") and "(proven)" in text
    assert sum(figures) == state["reference"]["optimal_total"]


def _choose(driver: Any, path: Path) -> None:
    """Pick another file on the page already open (no reload: what a person does)."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "file").send_keys(str(path))


def test_a_replay_that_stops_shows_the_error_and_the_runs_before_it(
    chromium_driver: Any, site: RouteServer, tmp_path: Path
) -> None:
    """Issue 19: the stop in the error box, the runs reached listed, where the list ends,
    and nothing left of the good log loaded before it (its board, its runs)."""
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _load(driver, site, LOGS_DIR / "129026.json")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 95)
    driver.find_element(By.CSS_SELECTOR, '#runs tbody tr[data-action-id="728"]').click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))

    _choose(driver, write_stopped_log(tmp_path / "stops.json"))
    error = _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed()
                  and d.find_element(By.ID, "error"))
    assert f"stops.json: the replay stopped at action {STOPS_AT}" in error.text
    assert f"action {STOPS_AT}" in error.text and BAD_HEX in error.text
    assert f"{RUNS_BEFORE} runs were reached" in error.text
    assert f"the list ends at action {STOPS_AT}" in error.text
    rows = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#runs tbody tr"))
    ids = [int(r.get_attribute("data-action-id")) for r in rows]
    assert ids == run_ids_before(STOPS_AT) and len(ids) == RUNS_BEFORE
    end = driver.find_element(By.ID, "runs-end")
    assert end.is_displayed() and f"the list ends at action {STOPS_AT}" in end.text
    assert f"{RUNS_BEFORE} runs reached" in driver.find_element(By.ID, "game-title").text
    # nothing stale: the good log's board and routes are gone, its board panel hidden
    assert not driver.find_element(By.ID, "board-panel").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg, #after-board svg, #suggestions li")
    screenshot(driver, "web-replay-stops")

    # a run before the stop still opens its board, and the stop stays in the error box
    driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{ids[-1]}"]').click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))
    assert f"the replay stopped at action {STOPS_AT}" in driver.find_element(By.ID, "error").text


def test_a_replay_that_stops_at_once_shows_the_error_and_no_board(
    chromium_driver: Any, site: RouteServer, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _load(driver, site, LOGS_DIR / "1888_game_end_bankrupt.json")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 28)
    driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")[0].click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))

    _choose(driver, write_stopped_log(tmp_path / "at-once.json", STOPS_AT_ONCE))
    error = _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed()
                  and d.find_element(By.ID, "error"))
    assert f"the replay stopped at action {STOPS_AT_ONCE}" in error.text
    assert "No run was reached" in error.text
    assert not driver.find_element(By.ID, "runs-panel").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")
    assert not driver.find_element(By.ID, "board-panel").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg, #after-board svg")


def test_a_failed_request_leaves_no_stale_board_or_runs(
    chromium_driver: Any, site: RouteServer, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _load(driver, site, LOGS_DIR / "1888_game_end_bankrupt.json")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 28)
    driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")[0].click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))

    bad = tmp_path / "not-1888.json"
    bad.write_text(json.dumps({"title": "1830", "players": [{"id": 1}], "actions": []}))
    _choose(driver, bad)
    error = _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed()
                  and d.find_element(By.ID, "error"))
    assert "invalid_argument" in error.text and "not-1888.json" in error.text
    assert not driver.find_element(By.ID, "runs-panel").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr, #board svg")
    assert not driver.find_element(By.ID, "board-panel").is_displayed()
