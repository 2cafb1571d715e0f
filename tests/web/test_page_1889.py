"""Issue 36: the page shows a 1889 state — a state file pasted with ``"title": "1889"`` is
solved and drawn in headless Chromium, on its flat-topped map, in yen — and, at game level
(issue 36 item 3), a 1889 log: the fixture 962 loaded from a file, its runs listed, a run
opened with its board, both routes and its figures in yen.

The state: the Awa Railroad's D from Tokushima K8 (tile 57, ¥20) to Naruto L7, whose diesel
value is ¥80 (g_1889/map.rb ``yellow_20|brown_40|diesel_80``): ¥100, proven.
"""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

from route18xx.server.rpc.app import RouteServer
from tests.browser import NO_CHROMIUM, screenshot
from tests.conftest import LOGS_DIR
from tests.web.test_views import _heading_is, _open_log, _settled, _wait

LOG = LOGS_DIR.parent / "1889" / "962.json"
#: run_routes kept after undo in 962 (tests/game/test_replay_1889.py).
RUNS = 48
#: KO's first run (OR 1.1, a 2-train Takamatsu K4 – Kotohira I4): the site's engine paid
#: it ¥70 (the golden verdicts, tests/data/golden/1889; the log records no revenue).
RUN, RUN_REVENUE = 88, 70

pytestmark = NO_CHROMIUM

STATE = {
    "title": "1889", "rule_set": "standard", "phase": "D", "corporation": "AR", "trains": ["D"],
    "tiles": [{"hex": "K8", "tile": "57", "rotation": 1}],
    "tokens": [{"hex": "K8", "city": 0, "corporation": "AR"}],
}


def test_a_pasted_1889_state_is_solved_and_drawn_flat_topped(chromium_driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_driver
    driver.get(f"{site.http_url}/")
    driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    driver.execute_script("document.getElementById('paste').value = arguments[0]", json.dumps(STATE))
    driver.find_element(By.ID, "solve-pasted").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg path.route"))
    text = driver.find_element(By.ID, "incomes").text
    found = re.match(r"optimal revenue ¥(\d+) \(proven\)", text)
    assert found and int(found.group(1)) == 100, text
    # Every hex drawn with a flat top: the two highest of its six corners level.
    tops = driver.execute_script("""
        return [...document.querySelectorAll('#board svg g.hex')].map(g => {
          const p = g.querySelector(':scope > polygon');  // the hex's ground
          const ys = p.getAttribute('points').trim().split(/\\s+/).map(xy => +xy.split(',')[1]);
          const top = Math.min(...ys);
          return ys.filter(y => Math.abs(y - top) < 0.01).length;
        });""")
    assert len(tops) == 52 and set(tops) == {2}, tops
    screenshot(driver, "web-1889-pasted")
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_a_1889_log_loads_its_runs_and_draws_one_in_yen(chromium_driver: Any, site: RouteServer) -> None:
    from selenium.webdriver.common.by import By

    golden = json.loads(gzip.decompress((LOGS_DIR.parent / "golden" / "1889" / "verdicts.json.gz").read_bytes()))
    (run,) = [r for f in golden["fixtures"] if f["fixture"] == "962" for r in f["runs"] if r["action_id"] == RUN]
    assert run["recorded"]["revenue"] == RUN_REVENUE
    driver = chromium_driver
    _open_log(driver, site, LOG, RUNS)
    assert driver.find_element(By.ID, "game-title").text.startswith(f"1889 (standard): {RUNS} runs")
    assert "Final scores match the log." in driver.find_element(By.ID, "game-summary").text
    driver.find_element(By.CSS_SELECTOR, f'#runs tbody tr[data-action-id="{RUN}"]').click()
    _wait(driver, lambda d: _heading_is(d, RUN) and _settled(d))
    line = driver.find_element(By.ID, "income-line").text
    assert f"recorded revenue ¥{RUN_REVENUE}" in line, line
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg path.route")
    text = driver.execute_script("return document.querySelector('main').innerText")
    assert "¥" in text and "$" not in text
    screenshot(driver, "web-1889-log")
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
