"""One server and one headless Chromium per test module (browsers are slow to start)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.app import RouteServer, ServerConfig, create_server
from tests.browser import new_chromium


@pytest.fixture(scope="module")
def site() -> Iterator[RouteServer]:
    srv = create_server(ServerConfig(port=0, workers=2, http_port=0))
    srv.start()
    yield srv
    srv.stop(0).wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium shared by the module's tests (each test opens the page afresh)."""
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        driver = new_chromium(Path(profile))
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture()
def chromium_driver(browser: Any) -> Any:
    """The module's Chromium at the desk size, its console emptied, this tab's storage cleared."""
    browser.set_window_size(1440, 900)
    browser.get("about:blank")
    browser.get_log("browser")
    return browser
