"""The page as players use it (issue 22, "Done when"), in headless Chromium at 1440×900 and
390×844: one answer per view under rapid clicks, the objective switch against
``route18xx replay --json --objective revenue``, a reloaded URL, the keyboard alone, the
board's label sizes, and the phone. Screenshots of each go to ``.artifacts/``.

Expected values come from outside the page: the log's own run_routes (hexes, nodes), the
command line's replay, and a direct call of the service's HTTP API.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.conftest import LOGS_DIR

pytestmark = NO_CHROMIUM

LOG = LOGS_DIR / "129026.json"
RUNS = 95
SMALL_LOG = LOGS_DIR / "1888_game_end_bankrupt.json"


def _wait(driver: Any, condition: Any, timeout: float = 90) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)


def _rows(driver: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr"))


def _open_log(driver: Any, site: RouteServer, path: Path = LOG, runs: int = RUNS) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{site.http_url}/")
    driver.find_element(By.ID, "file").send_keys(str(path))
    _wait(driver, lambda d: len(_rows(d)) == runs)


def _settled(driver: Any) -> bool:
    """The open run's board, breakdown and suggestions have all arrived."""
    return bool(driver.execute_script(
        "return !!document.querySelector('#board svg path.route')"
        " && !!document.querySelector('#breakdown .train')"
        " && /ranked|No legal|No suggestions/.test(document.getElementById('suggest-status').textContent)"))


def _heading_is(driver: Any, action: int) -> bool:
    """The board's heading names this run ("Action 530, OR 8.1: HJR runs 5 …")."""
    from selenium.webdriver.common.by import By

    return re.match(rf"Action {action}\b", driver.find_element(By.ID, "board-title").text) is not None


def _log_action(action_id: int) -> dict[str, Any]:
    log = json.loads(LOG.read_text())
    return next(a for a in log["actions"] if a["id"] == action_id and a["type"] == "run_routes")


def _call(site: RouteServer, method: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{site.http_url}/route18xx.v1.RouteService/{method}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return dict(json.loads(answer.read()))


def _label_px(driver: Any, container: str = "#board") -> list[float]:
    """Each city name's rendered size in CSS px: its font size times the screen scale."""
    return list(driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' text.location')]"
        ".map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a)", container))


def _steady_px(driver: Any, until: Any = lambda px: True, timeout: float = 60) -> float:
    """The smallest city name's size once the board has stopped moving and ``until(px)`` holds:
    panzoom applies a zoom in an animation frame, which a loaded machine delays, so a size
    read at once after a press or a pinch may be the one before it (issue 34, item 4)."""
    last: list[float] = []

    def steady(d: Any) -> bool:
        d.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        px = min(_label_px(d))
        done = bool(last) and abs(px - last[-1]) < 0.01 and until(px)
        last.append(px)
        return done

    _wait(driver, steady, timeout=timeout)
    return last[-1]


def test_rapid_clicks_leave_exactly_the_last_runs_view(chromium_driver: Any, site: RouteServer) -> None:
    """Four runs clicked 50 ms apart: the heading, board, breakdown and suggestions are all
    run 231's (the issue saw 231's heading over 20 mixed suggestions and 530's board). Then
    that desk board: names at 11 px or more, hover help, toggles, full size."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = chromium_driver
    _open_log(driver, site)
    driver.execute_script(
        "const ids = [728, 530, 145, 231];"
        "ids.forEach((id, i) => setTimeout(() => document.querySelector("
        "`#runs tbody tr[data-action-id=\"${id}\"]`).click(), 50 * i));")
    _wait(driver, lambda d: _heading_is(d, 231) and _settled(d))
    # late answers of the three runs left behind would land within this time
    driver.execute_script("return new Promise(r => setTimeout(r, 1000))")
    assert _settled(driver)
    assert _heading_is(driver, 231)
    assert driver.current_url.endswith("action=231&objective=total")

    recorded = _log_action(231)["routes"]
    hexes = {h for r in recorded for c in r["connections"] for h in c}
    drawn = driver.find_elements(By.CSS_SELECTOR, '#board svg path.route[data-kind="recorded"]')
    assert len(drawn) == len(recorded)
    assert {h for p in drawn for h in p.get_attribute("data-hexes").split()} == hexes
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg")) == 1

    tables = driver.find_elements(By.CSS_SELECTOR, "#breakdown table.recorded")
    assert len(tables) == len(recorded)
    # each stop by its one name, the engine's (issue 34: "Qingdao", not "Qingdao (H14-0)")
    names = api.stop_names(api.state_from_log(api.parse_game_log(LOG.read_bytes()), 231))
    shown = [r.find_element(By.CSS_SELECTOR, "td").text for t in tables for r in t.find_elements(By.CSS_SELECTOR, "tr.stop")]
    assert set(shown) == {names[n] for r in recorded for n in r["nodes"]}
    assert not re.search(r"\b[A-I]\d+-\d\b", " ".join(t.text for t in tables))
    # both routes of a train under the log's own train id ("3-3", not the engine's "3-0"), named
    # as the engine names it ("3-train")
    trains = driver.find_elements(By.CSS_SELECTOR, "#breakdown section.train")
    assert [t.get_attribute("data-train") for t in trains] == [r["train"] for r in recorded]
    assert [t.find_element(By.CSS_SELECTOR, "h4").text for t in trains] == ["3-train", "4-train"]
    assert all(t.find_elements(By.CSS_SELECTOR, "table.optimal tbody tr.stop") for t in trains)

    turn = int(driver.find_element(By.CSS_SELECTOR, '#runs tr[data-action-id="231"]')
               .get_attribute("data-turn-start"))
    direct = _call(site, "SuggestMoves", {
        "gameLog": LOG.read_text(), "actionId": turn, "top": 8, "timeLimitS": 10, "objective": "OBJECTIVE_TOTAL",
        "includeTokens": True, "improvingOnly": True, "mergeEqual": True, "includeCombined": True})
    expected = [m["text"] for m in direct["suggestions"] if m.get("gain", 0) > 0]
    items = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#suggestions li")]
    assert len(items) == len(expected) and all(any(i.startswith(t) for i in items) for t in expected)
    # what the player did, in the service's words, beside the suggestions
    did = driver.find_element(By.ID, "player-did").text
    assert all(m["text"] in did for m in direct["recorded"]["moves"])
    screenshot(driver, "web-rapid-clicks-231")
    # no refusal by the CSP (the vendored panzoom and the boards live under it), no script error
    log = driver.get_log("browser")
    assert [e for e in log if "Content Security Policy" in str(e.get("message"))] == []
    assert [e for e in log if e.get("level") == "SEVERE"] == []

    # the desk board is readable at its default zoom: every city name at 11 CSS px or more
    sizes = _label_px(driver)
    assert len(sizes) > 30 and min(sizes) >= 11, sizes
    # hover help: hexes, stops and routes carry a <title>
    for what in ("g.hex > title", "g.city > title", "path.route > title"):
        assert driver.find_elements(By.CSS_SELECTOR, f"#board svg {what}"), what
    # the legend sits beside the board; a train's toggle hides its route and shows it again
    legend = driver.find_element(By.ID, "board-legend").rect
    board = driver.find_element(By.ID, "board").rect
    assert legend["x"] >= board["x"] + board["width"] and legend["y"] < board["y"] + board["height"]
    toggle = driver.find_element(By.CSS_SELECTOR, '#board-legend input[data-kind="optimal"]')
    toggle.click()
    route = driver.find_element(By.CSS_SELECTOR, '#board svg path.route[data-kind="optimal"]')
    assert not route.is_displayed()
    toggle.click()
    assert route.is_displayed()
    # the board by keyboard: focused, − zooms out and + zooms back in
    before = min(_label_px(driver))
    driver.find_element(By.CSS_SELECTOR, "#board svg").send_keys("-")
    _wait(driver, lambda d: min(_label_px(d)) < before, timeout=5)
    smaller = min(_label_px(driver))
    driver.find_element(By.CSS_SELECTOR, "#board svg").send_keys("=")  # the + key unshifted
    _wait(driver, lambda d: min(_label_px(d)) > smaller, timeout=5)
    driver.find_element(By.ID, "zoom-fit").click()
    driver.find_element(By.ID, "full-size").click()  # opens at the readable default, then back
    driver.find_element(By.ID, "full-size").click()
    # "open full size": the board takes the window, Escape gives the page back
    driver.find_element(By.ID, "full-size").click()
    assert driver.find_element(By.ID, "board").rect["width"] > 1000
    assert min(_label_px(driver)) >= 11
    screenshot(driver, "web-desk-full-size")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    assert driver.find_element(By.ID, "board").rect["width"] < 1000
    # a suggestion, pressed, draws the board after it (and only then: no +¥0 lay is drawn)
    assert not driver.find_elements(By.CSS_SELECTOR, "#after-board svg")
    first = next(m for m in direct["suggestions"] if m.get("gain", 0) > 0)
    button = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#suggestions button.draw-move")
                  if b.text.startswith(first["text"]))
    button.click()
    highlight = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg #highlight"))
    assert highlight[0].get_attribute("data-hex") == first["hex"]
    screenshot(driver, "web-desk-board-231")

    # the whole turn (issue 24), on demand: SuggestTurn's plans and train advice, as the
    # service answers them directly; the best plan, pressed, draws the board it leaves
    plans = _call(site, "SuggestTurn", {"gameLog": LOG.read_text(), "actionId": turn, "top": 5,
                                        "timeLimitS": 20, "objective": "OBJECTIVE_TOTAL"})
    driver.find_element(By.ID, "turn-rank").click()
    _wait(driver, lambda d: "plans ranked" in d.find_element(By.ID, "turn-status").text)
    shown_plans = driver.find_elements(By.CSS_SELECTOR, "#turn-plans button.draw-plan")
    assert [_yen(re.search(r"income (¥\d+)", b.text).group(1)) for b in shown_plans] == [
        p.get("income", 0) for p in plans["plans"]]
    options = plans.get("trains", {}).get("options", [])
    advice = driver.find_elements(By.CSS_SELECTOR, "#turn-trains li:not(.trains-now)")
    assert [_yen(re.search(r"income (¥\d+)", li.text).group(1)) for li in advice] == [
        o.get("income", 0) for o in options]
    driver.execute_script("document.getElementById('after-board').replaceChildren()")
    shown_plans[0].click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg path.route"))
    assert "the plan:" in driver.find_element(By.ID, "after-caption").text
    screenshot(driver, "web-desk-turn-231")


def _replay_cli(objective: str) -> subprocess.Popen[str]:
    """``route18xx replay --json --objective …``, started now (it runs beside the browser)."""
    return subprocess.Popen(
        [sys.executable, "-m", "route18xx.server.cli", "replay", str(LOG), "--json", "--objective", objective],
        stdout=subprocess.PIPE, text=True)


def _answer(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0
    return dict(json.loads(out))


def _yen(text: str) -> int:
    """"¥20" → 20, "−¥10" → −10, "" → 0."""
    if not text.strip():
        return 0
    sign = -1 if text.strip().startswith("−") else 1
    return sign * int(text.strip().lstrip("−").lstrip("¥"))


def _summary_counts(text: str) -> tuple[int, int, int, int]:
    """The runs list's summary: amount left on the table, runs, dividend lost, treasury lost."""
    m = re.search(r"(−?)¥(\d+) of \w+ left on the table in (\d+) runs?"
                  r"(?: \(dividend lost (−?)¥(\d+), treasury lost (−?)¥(\d+)\))?", text)
    assert m, text
    sign = lambda s: -1 if s == "−" else 1  # noqa: E731
    return (sign(m[1]) * int(m[2]), int(m[3]), sign(m[4]) * int(m[5] or 0), sign(m[6]) * int(m[7] or 0))


def test_the_objective_switch_matches_the_command_line_run_by_run(
    chromium_driver: Any, site: RouteServer
) -> None:
    """Both objectives: the page's count of runs that left something on the table, the amount
    and its dividend and treasury parts equal ``route18xx replay --json --objective …``'s;
    for dividend only, also every row: OR, president, recorded and optimal revenue, dividend
    and treasury lost, and whether the row is flagged; then "gaps only", the company filter
    and the sort on those figures."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = chromium_driver
    witnesses = {objective: _replay_cli(objective) for objective in ("total", "revenue")}
    _open_log(driver, site)
    for objective in ("total", "revenue"):
        if objective == "revenue":
            driver.find_element(By.CSS_SELECTOR, 'input[name="objective"][value="revenue"]').click()
            _wait(driver, lambda d: "dividend only" in d.find_element(By.ID, "game-summary").text
                  and len(_rows(d)) == RUNS)
            assert "objective=revenue" in driver.current_url
        witness = _answer(witnesses[objective])
        short = witness["left_on_table"]
        page_counts = _summary_counts(driver.find_element(By.ID, "game-summary").text)
        assert page_counts == (short["amount"], short["runs"], short["dividend_lost"],
                               short["treasury_lost"]), objective
        assert len(driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr.gap")) == short["runs"]
    runs = witness["run_routes"]
    assert len(runs) == RUNS
    page = driver.execute_script(
        "return [...document.querySelectorAll('#runs tbody tr')].map(r => [+r.dataset.actionId,"
        " r.classList.contains('gap'), ...['round', 'president', 'recorded', 'optimal', 'dividend',"
        " 'treasury'].map(k => r.querySelector(`td[data-key=\"${k}\"]`).textContent)])")
    for row, run in zip(page, runs, strict=True):
        action, gap, round_, president, recorded, optimal, dividend, treasury = row
        assert action == run["action_id"]
        assert round_ == f"{run['round'].removeprefix('OR ')} · {action}", action
        assert president == run["president_name"], action
        assert _yen(recorded) == run["recorded_revenue"], action
        assert _yen(optimal) == run["optimal_revenue"], action
        assert _yen(dividend) == run["dividend_lost"] == run["optimal_revenue"] - run["recorded_revenue"]
        assert _yen(treasury) == run["treasury_lost"] == run["optimal_subsidy"] - run["recorded_subsidy"]
        assert gap == (run["left_on_table"] > 0) == (run["optimal_revenue"] > run["recorded_revenue"])
    screenshot(driver, "web-objective-revenue")

    # the list's own tools, on the same figures: gaps only, a company, the biggest loss first
    driver.find_element(By.ID, "gaps-only").click()
    gapped = [r for r in runs if r["left_on_table"] > 0]
    assert [int(r.get_attribute("data-action-id")) for r in _rows(driver)] == [r["action_id"] for r in gapped]
    company = gapped[0]["corporation"]
    Select(driver.find_element(By.ID, "filter-company")).select_by_value(company)
    mine = [r["action_id"] for r in gapped if r["corporation"] == company]
    assert [int(r.get_attribute("data-action-id")) for r in _rows(driver)] == mine
    driver.find_element(By.CSS_SELECTOR, 'th[data-key="dividend"] button').click()
    driver.find_element(By.CSS_SELECTOR, 'th[data-key="dividend"] button').click()  # descending
    losses = [_yen(r.find_element(By.CSS_SELECTOR, 'td[data-key="dividend"]').text) for r in _rows(driver)]
    assert losses == sorted((r["dividend_lost"] for r in gapped if r["corporation"] == company), reverse=True)


def test_a_reloaded_url_restores_the_view_and_the_keyboard_alone_moves_through_runs(
    chromium_driver: Any, site: RouteServer
) -> None:
    """No mouse: Tab to the file input and give it the file, Tab to the runs, ↓ ↓ ↑ and
    Enter; then the URL, reloaded, opens the same run under the same objective."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = chromium_driver
    driver.get(f"{site.http_url}/")

    def press(key: str) -> None:
        ActionChains(driver).send_keys(key).perform()  # to whatever has the focus

    def tab_to(test: str, limit: int = 60) -> Any:
        for _ in range(limit):
            active = driver.switch_to.active_element
            if driver.execute_script(f"return arguments[0].matches({json.dumps(test)})", active):
                return active
            press(Keys.TAB)
        raise AssertionError(f"{test} is not reachable with Tab")

    # the smaller shared log (28 runs): this test is about the keys, not the figures
    tab_to("#file").send_keys(str(SMALL_LOG))  # what the picker does after Space on the focused input
    _wait(driver, lambda d: len(_rows(d)) == 28)
    tab_to("#runs tbody")
    first, second = (int(r.get_attribute("data-action-id")) for r in _rows(driver)[:2])
    press(Keys.ARROW_DOWN)
    _wait(driver, lambda d: _heading_is(d, first))
    press(Keys.ARROW_DOWN)
    _wait(driver, lambda d: _heading_is(d, second))
    press(Keys.ARROW_UP)
    press(Keys.ENTER)
    _wait(driver, lambda d: _heading_is(d, first)
          and _settled(d))
    assert driver.find_element(By.CSS_SELECTOR, "#runs tr.selected").get_attribute("data-action-id") == str(first)
    screenshot(driver, "web-keyboard")

    # the objective by keyboard too, then a shared link: the same run under the same objective
    tab_to('input[name="objective"]')
    press(Keys.ARROW_DOWN)
    _wait(driver, lambda d: "dividend only" in d.find_element(By.ID, "game-summary").text)
    _wait(driver, lambda d: _heading_is(d, first)
          and _settled(d))
    url = driver.current_url
    assert url.endswith(f"#log={SMALL_LOG.name}&action={first}&objective=revenue")
    line = driver.find_element(By.ID, "income-line").text
    driver.get("about:blank")
    driver.get(url)
    _wait(driver, lambda d: d.find_elements(By.ID, "income-line") and _settled(d))
    assert _heading_is(driver, first)
    assert driver.find_element(By.ID, "income-line").text == line
    assert driver.find_element(By.CSS_SELECTOR, 'input[name="objective"][value="revenue"]').is_selected()
    assert driver.find_element(By.CSS_SELECTOR, "#runs tr.selected").get_attribute("data-action-id") == str(first)
    screenshot(driver, "web-reloaded-url")


def pinch(driver: Any, box: dict[str, float], start: float, end: float) -> None:
    """Two fingers on the middle of ``box`` (a client rectangle), moved from ``start`` px apart
    to ``end`` px apart, as touch events through Chromium's DevTools input domain."""
    cx, cy = box["left"] + box["width"] / 2, box["top"] + box["height"] / 2

    def touch(kind: str, gap: float | None) -> None:
        points = [] if gap is None else [
            {"x": cx - gap / 2, "y": cy, "id": 0}, {"x": cx + gap / 2, "y": cy, "id": 1}]
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start)
    steps = 10
    for i in range(1, steps + 1):
        touch("touchMove", start + (end - start) * i / steps)
    touch("touchEnd", None)


def test_on_a_phone_the_tapped_runs_board_is_in_view_and_zooms_to_readable_labels(
    chromium_driver: Any, site: RouteServer
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    driver.set_window_size(390, 844)
    _open_log(driver, site)
    width = driver.execute_script("return document.documentElement.clientWidth")
    gap_row = driver.find_element(By.CSS_SELECTOR, '#runs tbody tr.gap[data-action-id="728"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", gap_row)
    lost = gap_row.find_element(By.CSS_SELECTOR, 'td[data-key="dividend"]').rect
    assert lost["x"] + lost["width"] <= width, "the gap column is off-screen"
    gap_row.click()
    _wait(driver, _settled)
    # one meaning per word: income = revenue + subsidy; the split says the player took dividend
    line = driver.find_element(By.ID, "income-line").text
    assert "recorded income ¥570" in line and "optimal income ¥590 (¥550 revenue + ¥40 subsidy)" in line
    assert "left on the table ¥20 (dividend −¥20, treasury +¥40)" in line
    board = driver.execute_script("return document.getElementById('board').getBoundingClientRect().toJSON()")
    height = driver.execute_script("return window.innerHeight")
    assert board["top"] < height and board["bottom"] > 0, board
    assert board["right"] <= width + 1
    screenshot(driver, "web-phone-board")
    # it opens on its routes with the names readable (issue 34); the whole map makes them small
    assert _steady_px(driver) >= 11
    driver.find_element(By.ID, "zoom-fit").click()
    before = _steady_px(driver, lambda px: px < 11)
    # two fingers spread over the board (Chromium's own touch events): the names grow past 11 px;
    # each size is read once the board has stopped moving, however slow the machine
    pinch(driver, board, 40, 160)
    assert _steady_px(driver, lambda px: px >= 11) >= 11 > before
    screenshot(driver, "web-phone-pinched")
    driver.find_element(By.ID, "zoom-fit").click()
    assert _steady_px(driver, lambda px: px < 11) == pytest.approx(before, abs=0.2)
    # and the + button, for one hand
    for _ in range(8):
        if _steady_px(driver) >= 11:
            break
        driver.find_element(By.ID, "zoom-in").click()
    assert _steady_px(driver) >= 11 > before
    screenshot(driver, "web-phone-zoomed")


def test_a_game_id_is_fetched_through_the_server_and_its_link_opens_anywhere(
    chromium_driver: Any, site: RouteServer
) -> None:
    """A game id typed in the form: the server fetches it from its one site (here the local
    stand-in), the list and a run open; the link, opened where this tab's copy is gone (a
    friend's browser), fetches the log again and shows the same view."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.web.conftest import StandInSite

    driver = chromium_driver
    driver.get(f"{site.http_url}/")
    StandInSite.asked.clear()
    driver.find_element(By.ID, "log-url").send_keys("186735", Keys.ENTER)
    _wait(driver, lambda d: len(_rows(d)) == 28)
    assert StandInSite.asked == ["/api/game/186735"]
    row = _rows(driver)[3]
    action = int(row.get_attribute("data-action-id"))
    row.click()
    _wait(driver, lambda d: _heading_is(d, action) and _settled(d))
    url = driver.current_url
    assert url.endswith(f"#log=186735&action={action}&objective=total")
    line = driver.find_element(By.ID, "income-line").text
    driver.execute_script("sessionStorage.clear()")
    driver.get("about:blank")
    driver.get(url)
    _wait(driver, lambda d: d.find_elements(By.ID, "income-line") and _heading_is(d, action) and _settled(d))
    assert driver.find_element(By.ID, "income-line").text == line
    assert StandInSite.asked == ["/api/game/186735"] * 2
    # a URL of another site is refused by the server, in words naming the field
    field = driver.find_element(By.ID, "log-url")
    field.clear()
    field.send_keys("https://example.org/game/129026", Keys.ENTER)
    error = _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed() and d.find_element(By.ID, "error"))
    assert "url" in error.text and "invalid_argument" in error.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg, #runs tbody tr")
    assert StandInSite.asked == ["/api/game/186735"] * 2
    screenshot(driver, "web-game-id")
