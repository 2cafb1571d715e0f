"""Issue 22: the page (``ReplayGame`` over HTTP, what it shows) and ``route18xx replay
--json`` agree on every run and every count, for both objectives.

One vocabulary: revenue = the dividend, subsidy = the treasury's mine payment,
income = their sum; a run leaves ``left_on_table`` > 0 for its objective. The
expected split of run 728 of 129026 is worked out by hand from its known figures
(recorded ¥570 revenue, no subsidy; the best income is ¥550 + ¥40 subsidy).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import urllib.request
from typing import Any

import pytest

from route18xx.server.rpc.app import RouteServer
from route18xx.server.cli import main
from tests.conftest import LOGS_DIR

SERVICE = "/route18xx.v1.RouteService"
#: The page reads these keys of a run (protobuf JSON names) and ``replay --json`` prints them.
RUN_KEYS = {
    "actionId": "action_id", "corporation": "corporation", "trains": "trains",
    "round": "round", "presidentName": "president_name",
    "recordedRevenue": "recorded_revenue", "recordedSubsidy": "recorded_subsidy",
    "optimalRevenue": "optimal_revenue", "optimalSubsidy": "optimal_subsidy",
    "provenOptimal": "proven_optimal", "dividendLost": "dividend_lost",
    "treasuryLost": "treasury_lost", "leftOnTable": "left_on_table",
}
PROTO_OBJECTIVE = {"total": "OBJECTIVE_TOTAL", "revenue": "OBJECTIVE_REVENUE"}


def replay_game_over_http(srv: RouteServer, text: str, objective: str) -> dict[str, Any]:
    body = json.dumps({"gameLog": text, "objective": PROTO_OBJECTIVE[objective]}).encode()
    request = urllib.request.Request(
        f"{srv.http_url}{SERVICE}/ReplayGame", data=body, method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


@functools.cache
def replay_cli(name: str, objective: str) -> dict[str, Any]:
    """``route18xx replay LOG --json --objective X``'s object (the console script's main)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(["replay", str(LOGS_DIR / f"{name}.json"), "--json", "--objective", objective])
    assert status == 0
    out: dict[str, Any] = json.loads(printed.getvalue())
    return out


def page_value(run: dict[str, Any], key: str) -> Any:
    """A protobuf JSON value as the page reads it: absent scalars are their default."""
    defaults: dict[str, Any] = {"trains": [], "round": "", "presidentName": "",
                                "provenOptimal": False}
    return run.get(key, defaults.get(key, 0))


@pytest.mark.parametrize("objective", ["total", "revenue"])
@pytest.mark.parametrize("name", ["129026", "1888_game_end_bankrupt"])
def test_page_and_replay_agree_run_by_run(
    http_server: RouteServer, name: str, objective: str
) -> None:
    cli = replay_cli(name, objective)
    page = replay_game_over_http(http_server, (LOGS_DIR / f"{name}.json").read_text(), objective)
    assert cli["objective"] == objective and page["objective"] == PROTO_OBJECTIVE[objective]
    assert len(page["runs"]) == len(cli["run_routes"]) > 0
    for run, ref in zip(page["runs"], cli["run_routes"]):
        for page_key, cli_key in RUN_KEYS.items():
            assert page_value(run, page_key) == ref[cli_key], (run["actionId"], cli_key)
        assert ref["round"].startswith("OR ") and ref["president_name"]
        lost = ref["dividend_lost"] + (ref["treasury_lost"] if objective == "total" else 0)
        assert ref["left_on_table"] == max(0, lost)
    short, page_short = cli["left_on_table"], page["leftOnTable"]
    gaps = [r for r in cli["run_routes"] if r["left_on_table"] > 0]
    assert short["runs"] == len(gaps) == page_value(page_short, "runs")
    assert short["amount"] == sum(r["left_on_table"] for r in gaps) == page_value(page_short, "amount")
    for key, page_key in (("dividend_lost", "dividendLost"), ("treasury_lost", "treasuryLost")):
        assert short[key] == sum(r[key] for r in gaps) == page_value(page_short, page_key)


@pytest.mark.parametrize("objective, left", [("total", 20), ("revenue", 0)])
def test_run_728_left_on_the_table_by_objective(objective: str, left: int) -> None:
    """SSL took ¥570 of dividend where the best income pays ¥550 + ¥40 subsidy: ¥20 of
    income left (dividend −¥20, treasury +¥40), and nothing for the dividend alone."""
    (run,) = [r for r in replay_cli("129026", objective)["run_routes"]
              if r["action_id"] == 728]
    assert run["left_on_table"] == left
    if objective == "total":
        assert (run["dividend_lost"], run["treasury_lost"]) == (-20, 40)
    else:
        assert run["optimal_revenue"] == 570 and run["dividend_lost"] == 0
