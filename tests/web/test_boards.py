"""Every board on the page opens fitted to its routes and can zoom, and the hexes laid are
marked (issue 34, item 5), at a desk (1440×900) and on a phone (390×844): the run's board,
the board after a suggested move and the board a whole-turn plan leaves.

Witnesses apart from the page: what the player laid, in the service's words (SuggestMoves'
``recorded`` moves, called directly), and the move and plan each board was drawn for.
"""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.web.test_views import LOG, _call, _heading_is, _label_px, _open_log, _settled, _wait

pytestmark = NO_CHROMIUM

#: Runs of 129026 whose turn laid tiles before the run: 530 one (B8; G9 was undone), 251 two.
DESK_RUN, PHONE_RUN = 530, 251


def _box(driver: Any, css: str) -> dict[str, float]:
    return dict(driver.execute_script(f"return document.querySelector({css!r}).getBoundingClientRect().toJSON()"))


def _routes_box(driver: Any, board: str) -> dict[str, float]:
    """The drawn routes' box on screen (every route path, hidden ones aside)."""
    return dict(driver.execute_script(
        "const rs = [...document.querySelectorAll(arguments[0] + ' svg path.route')]"
        "  .map(p => p.getBoundingClientRect()).filter(r => r.width || r.height);"
        "return {left: Math.min(...rs.map(r => r.left)), top: Math.min(...rs.map(r => r.top)),"
        "  right: Math.max(...rs.map(r => r.right)), bottom: Math.max(...rs.map(r => r.bottom))};", board))


def _fitted(driver: Any, board: str) -> tuple[dict[str, float], dict[str, float]]:
    """The board's box and its routes' box; asserts that every route is inside the board."""
    frame, routes = _box(driver, board), _routes_box(driver, board)
    for side in ("left", "top"):
        assert routes[side] >= frame[side] - 1, (board, side, frame, routes)
    for side in ("right", "bottom"):
        assert routes[side] <= frame[side] + 1, (board, side, frame, routes)
    return frame, routes


def _marked(driver: Any, board: str) -> set[str]:
    return set(driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' svg .laid[data-hex]')]"
        ".map(m => m.getAttribute('data-hex'))", board))


def _laid_by_player(site: RouteServer, driver: Any, action: int) -> set[str]:
    from selenium.webdriver.common.by import By

    turn = int(driver.find_element(By.CSS_SELECTOR, f'#runs tr[data-action-id="{action}"]')
               .get_attribute("data-turn-start"))
    direct = _call(site, "SuggestMoves", {"gameLog": LOG.read_text(), "actionId": turn, "top": 1, "timeLimitS": 10})
    return {m["hex"] for m in direct["recorded"]["moves"] if m.get("kind") == "MOVE_KIND_TILE"}


def _zooms(driver: Any, board: str, button: str) -> None:
    """The board's zoom-in button makes its names larger."""
    from selenium.webdriver.common.by import By

    before = min(_label_px(driver, board))
    driver.find_element(By.ID, button).click()
    _wait(driver, lambda d: min(_label_px(d, board)) > before * 1.2, timeout=5)


def test_at_a_desk_every_board_opens_fitted_to_its_routes_zooms_and_marks_the_lays(
    chromium_driver: Any, site: RouteServer
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    _open_log(driver, site)
    driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{DESK_RUN}"]').click()
    _wait(driver, lambda d: _heading_is(d, DESK_RUN) and _settled(d))
    frame, routes = _fitted(driver, "#board")
    # fitted, not lost in a corner: the routes span most of the board one way or the other
    assert max((routes["right"] - routes["left"]) / frame["width"],
               (routes["bottom"] - routes["top"]) / frame["height"]) > 0.5, (frame, routes)
    laid = _laid_by_player(site, driver, DESK_RUN)
    assert laid and _marked(driver, "#board") == laid
    assert "laid this turn" in driver.find_element(By.ID, "board-legend").text
    screenshot(driver, "web-desk-fitted-530")

    # the board after a suggested move: fitted, zoomable, the move's hex marked
    button = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#suggestions button.draw-move"))[0]
    move_hex = driver.execute_script("return arguments[0].textContent", button).split(" on ")[1].split()[0]
    button.click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg path.route"))
    _fitted(driver, "#after-board")
    assert move_hex in _marked(driver, "#after-board")
    _zooms(driver, "#after-board", "after-zoom-in")

    # the board a whole-turn plan leaves: the same
    driver.find_element(By.ID, "turn-rank").click()
    plan = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#turn-plans button.draw-plan"), timeout=120)[0]
    words = plan.text
    driver.execute_script("document.getElementById('after-board').replaceChildren()")
    plan.click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#after-board svg path.route"))
    _fitted(driver, "#after-board")
    planned = {part.split(" on ")[1].split()[0].rstrip(",:") for part in words.split(", then ") if part.startswith("tile ")}
    assert planned and _marked(driver, "#after-board") == planned, (words, _marked(driver, "#after-board"))
    _zooms(driver, "#after-board", "after-zoom-in")
    screenshot(driver, "web-desk-plan-fitted-530")


def test_on_a_phone_the_board_opens_on_its_routes_with_readable_names(
    chromium_driver: Any, site: RouteServer
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    driver.set_window_size(390, 844)
    _open_log(driver, site)
    row = driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{PHONE_RUN}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    _wait(driver, lambda d: _heading_is(d, PHONE_RUN) and _settled(d))
    # names readable at once (11 CSS px, as at a desk), and the routes in the middle of the box
    assert min(_label_px(driver)) >= 11
    frame, routes = _box(driver, "#board"), _routes_box(driver, "#board")
    middle = ((routes["left"] + routes["right"]) / 2, (routes["top"] + routes["bottom"]) / 2)
    assert frame["left"] + frame["width"] / 4 < middle[0] < frame["right"] - frame["width"] / 4, (frame, routes)
    assert frame["top"] + frame["height"] / 4 < middle[1] < frame["bottom"] - frame["height"] / 4, (frame, routes)
    laid = _laid_by_player(site, driver, PHONE_RUN)
    assert laid and _marked(driver, "#board") == laid
    screenshot(driver, "web-phone-opened-251")


@pytest.fixture(autouse=True)
def _desk(chromium_driver: Any) -> Any:
    yield
    chromium_driver.set_window_size(1440, 900)
