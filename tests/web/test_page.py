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

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
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


@pytest.mark.parametrize("content, expected", [
    ("this is not json {", "is not JSON"),
    (json.dumps({"title": "1846", "players": [{"id": 1}], "actions": []}), "invalid_argument"),
    (json.dumps({"hello": "world"}), "neither an 18xx.games game log"),
], ids=["not-json", "not-served", "neither"])
def test_a_bad_file_shows_a_readable_error(
    chromium_driver: Any, site: RouteServer, tmp_path: Path, content: str, expected: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    _load(chromium_driver, site, bad)
    error = _error_box(chromium_driver)
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
    figures = [int(n) for n in re.findall(r"¥(\d+)", text)]  # income, then its parts if any
    assert text.startswith("optimal income ¥") and "(proven)" in text
    assert figures[0] == state["reference"]["optimal_total"] == sum(figures[1:] or figures)
    # a state alone is drawn across the page, not in the runs list's narrow column
    panel = driver.find_element(By.ID, "board-panel").rect["width"]
    assert panel > 0.9 * driver.find_element(By.TAG_NAME, "main").rect["width"]


def _open_a_good_run(driver: Any, site: RouteServer) -> None:
    """The page with a good log loaded (28 runs) and its first run's board drawn."""
    from selenium.webdriver.common.by import By

    _load(driver, site, LOGS_DIR / "1888_game_end_bankrupt.json")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 28)
    driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")[0].click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))


def _error_box(driver: Any) -> Any:
    """The error box, once it shows."""
    from selenium.webdriver.common.by import By

    return _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed()
                 and d.find_element(By.ID, "error"))


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
    _open_a_good_run(driver, site)

    _choose(driver, write_stopped_log(tmp_path / "stops.json"))
    error = _error_box(driver)
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
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg, #after-board svg, #suggestions li, #breakdown *")
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
    _open_a_good_run(driver, site)

    _choose(driver, write_stopped_log(tmp_path / "at-once.json", STOPS_AT_ONCE))
    error = _error_box(driver)
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
    _open_a_good_run(driver, site)

    bad = tmp_path / "not-1888.json"
    bad.write_text(json.dumps({"title": "1830", "players": [{"id": 1}], "actions": []}))
    _choose(driver, bad)
    error = _error_box(driver)
    assert "invalid_argument" in error.text and "not-1888.json" in error.text
    assert not driver.find_element(By.ID, "runs-panel").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr, #board svg, #breakdown *, #suggestions li")
    assert not driver.find_element(By.ID, "board-panel").is_displayed()
    assert "log=" not in driver.current_url and "action=" not in driver.current_url  # a reload shows no stale view
    screenshot(driver, "web-bad-file-after-a-run")
