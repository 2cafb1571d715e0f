"""One server and one headless Chromium for all the page's tests (browsers are slow to start), and a
local stand-in for 18xx.games that serves the shared logs (the server is configured to fetch
game logs from it: no other host is contacted)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer, ServerConfig
from route18xx.server.core.log_source import LogSourceConfig
from tests.browser import new_chromium
from tests.conftest import LOGS_DIR
from tests.local_site import SiteHandler, local_site
from tests.route_server import started_server

#: The stand-in site's games: 18xx.games id → the shared log's file.
GAMES = {"129026": LOGS_DIR / "129026.json", "186735": LOGS_DIR / "1888_game_end_bankrupt.json",
         "26855": LOGS_DIR.parent / "1830" / "26855.json"}


class StandInSite(SiteHandler):
    """``GET /api/game/<id>`` as 18xx.games answers it, for the shared logs only."""

    asked: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        StandInSite.asked.append(self.path)
        game = self.path.removeprefix("/api/game/")
        body = GAMES[game].read_bytes() if self.path.startswith("/api/game/") and game in GAMES \
            else b"Game does not exist"
        self.reply(200 if game in GAMES else 404, body)


@pytest.fixture(scope="session")
def standin() -> Iterator[str]:
    with local_site(StandInSite) as url:
        yield url


@pytest.fixture(scope="session")
def site(standin: str) -> Iterator[RouteServer]:
    with started_server(ServerConfig(port=0, workers=2, http_port=0,
                                     log_source=LogSourceConfig(standin, timeout_s=5.0))) as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium shared by the page's tests (each test opens the page afresh)."""
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        driver = new_chromium(Path(profile))
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture()
def chromium_driver(browser: Any) -> Any:
    """The shared Chromium at the desk size, its console emptied."""
    browser.set_window_size(1440, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    return browser
