"""Headless Chromium through Selenium for the browser tests (DESIGN.md §8).

Tests using ``chromium_driver`` are skipped, with the reason, only where Chromium
or chromedriver is absent (Debian: ``apt-get install -y chromium chromium-driver``;
``.ci/run`` installs them). Screenshots go to ``.artifacts/`` in the checkout
(``ARTIFACTS``), where a person can look at them after the run.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[1] / ".artifacts"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
NO_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="Chromium and chromedriver are not installed (apt-get install -y chromium chromium-driver)",
)


def new_chromium(profile: Path, size: str = "1600,1200") -> Any:
    """A headless Chromium with its own profile folder; the caller quits it."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is a test extra")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={size}")
    # The console is kept, so tests can see what the browser refused (e.g. by the page's CSP).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture()
def chromium_driver(tmp_path: Path) -> Iterator[Any]:
    """A fresh headless Chromium (its own profile), closed after the test."""
    driver = new_chromium(Path(tempfile.mkdtemp(prefix="chromium-", dir=tmp_path)))
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver: Any, name: str) -> Path:
    """Save the page as ``.artifacts/<name>.png`` and return the path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def csp_violations(driver: Any) -> list[str]:
    """The console messages since the last call that report a Content-Security-Policy refusal."""
    return [str(entry.get("message", "")) for entry in driver.get_log("browser")
            if "Content Security Policy" in str(entry.get("message", ""))]

