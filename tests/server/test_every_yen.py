"""Issue 22 (c): every yen of a run reachable in one call, with the log's train names.

``ValidateRoutes`` on a game log at a run_routes action, with no routes given,
judges that run's own routes: each with its breakdown (stops by name with their
values, the destination bonus, the mine subsidy), and with ``compare`` the
optimum's routes beside them, trains named as the log names them ("3-3", not
the engine's "3-0"). Witnesses: the log's own revenue per route (18xx.games'
figure) and the printed names of the reference map (tests/data/reference).
"""

from __future__ import annotations

import json
from typing import Any

from route18xx.v1 import route_service_pb2 as pb
from tests.conftest import LOGS_DIR

REFERENCE_MAP = LOGS_DIR.parent / "reference" / "1888" / "map.json"


def printed_names() -> dict[str, str]:
    hexes = json.loads(REFERENCE_MAP.read_text())["hexes"]
    return {h["id"]: h["location_name"] or "" for h in hexes}


def run_action(log: dict[str, Any], action_id: int) -> dict[str, Any]:
    (action,) = [a for a in log["actions"] if a.get("id") == action_id]
    return action


def test_a_runs_own_routes_with_every_yen_and_the_optimum_under_the_logs_train_names(
    stub: Any,
) -> None:
    text = (LOGS_DIR / "129026.json").read_text()
    recorded = run_action(json.loads(text), 231)["routes"]
    answer = stub.ValidateRoutes(pb.ValidateRoutesRequest(
        game_log=text, action_id=231, compare=True), timeout=60)
    assert answer.legal
    assert [r.train for r in answer.routes] == [r["train"] for r in recorded] == ["3-3", "4-0"]
    names = printed_names()
    for route, logged in zip(answer.routes, recorded):
        b = route.breakdown
        assert route.revenue == b.revenue == logged["revenue"]  # the site's own figure
        bonus = b.destination_bonus.value if b.HasField("destination_bonus") else 0
        assert b.revenue == sum(s.value for s in b.stops) + bonus
        assert [s.node for s in b.stops] and all(s.name == names.get(s.hex, "") for s in b.stops)
        assert any(s.name for s in b.stops)
    cmp = answer.comparison
    assert sorted(r.train for r in cmp.optimal_routes) == ["3-3", "4-0"]
    assert {t.train for t in cmp.trains} == {"3-3", "4-0"}
    for route in cmp.optimal_routes:
        assert route.breakdown.stops and route.breakdown.revenue == route.revenue
        assert all(s.name == names.get(s.hex, "") for s in route.breakdown.stops)
    assert cmp.optimal_revenue + cmp.optimal_subsidy >= answer.revenue + answer.subsidy


def test_solving_from_a_log_names_the_trains_as_the_log_does(stub: Any) -> None:
    text = (LOGS_DIR / "129026.json").read_text()
    answer = stub.SolveRoutes(pb.SolveRoutesRequest(game_log=text, action_id=231), timeout=60)
    assert sorted(r.train for r in answer.routes) == ["3-3", "4-0"]
