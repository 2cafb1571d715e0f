"""Route legality and revenue (ROUTES.md §3, §5): the worked example, the 123 real
decisions, and illegal routes each with the reason the engine must give."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.api import check_routes
from route18xx.engine.routes.route_judge import judge_routes, parse_route_specs
from route18xx.engine.inputs.state_file import parse_state
from tests.conftest import load_json, state_files, STATES_DIR

#: RULES overview / ROUTES.md §7 example 1, rebuilt on a board: LYR's 2-train
#: Yantai F16 (40) → Qingdao H14 (yellow 5 tile, 20) → harbour H16 (10), phase 2.
WORKED_EXAMPLE_STATE = {
    "title": "1888",
    "rule_set": "north",
    "phase": "2",
    "corporation": "LYR",
    "trains": ["2"],
    "tiles": [
        {"hex": "G15", "tile": "9", "rotation": 0},
        {"hex": "H14", "tile": "5", "rotation": 3},
    ],
    "tokens": [{"hex": "F16", "city": 0, "corporation": "LYR"}],
}
WORKED_EXAMPLE_ROUTES = [
    {"train": "2-0", "connections": [["F16", "G15", "H14"], ["H14", "H16"]],
     "nodes": ["F16-0", "H14-0", "H16-0"]}
]


def test_worked_example_lyr_harbour_destination_earns_90() -> None:
    """40 + 20 + 10, harbour free of distance, +20 destination bonus = ¥90."""
    report = check_routes(WORKED_EXAMPLE_STATE, WORKED_EXAMPLE_ROUTES)
    assert report["legal"] is True
    assert report["violations"] == []
    assert report["revenue"] == 90
    assert report["subsidy"] == 0
    assert report["routes"][0]["nodes"] == ["F16-0", "H14-0", "H16-0"]


def test_worked_example_without_harbour_has_no_bonus_loss() -> None:
    """Dropping the harbour keeps the bonus: 40 + 20 + 20 = 80."""
    routes = [{"train": "2-0", "connections": [["F16", "G15", "H14"]]}]
    report = check_routes(WORKED_EXAMPLE_STATE, routes)
    assert report["legal"] and report["revenue"] == 80


@pytest.mark.parametrize("path", state_files(), ids=lambda p: p.stem)
def test_recorded_routes_are_legal_and_priced_exactly(path: Any) -> None:
    data = load_json(path)
    ref = data["reference"]
    report = check_routes(data["state"], ref["recorded_routes"])
    assert report["violations"] == []
    assert report["legal"] is True
    assert report["revenue"] == ref["recorded_revenue"]
    assert report["subsidy"] == ref["recorded_subsidy"]
    for judged, recorded in zip(report["routes"], ref["recorded_routes"]):
        assert judged["revenue"] == recorded["revenue"]
        assert judged["subsidy"] == recorded["subsidy"]
        assert set(judged["nodes"]) == set(recorded["nodes"])


def test_the_real_decisions_cover_what_the_issue_names() -> None:
    """Every phase, D trains, the mine subsidy, bonuses, Baotou, the harbour, OO cities."""
    phases, nodes, subsidy, dest, d_trains = set(), set(), 0, 0, 0
    for path in state_files():
        data = load_json(path)
        phases.add(data["state"]["phase"])
        d_trains += "D" in data["state"]["trains"]
        for r in data["reference"]["recorded_routes"]:
            nodes.update(r["nodes"])
            subsidy += r["subsidy"]
            dest += "(dest)" in r.get("revenue_str", "")
    assert len(list(state_files())) == 123
    assert phases == {"2", "3", "4", "5", "6", "D"}
    assert d_trains > 0 and subsidy > 0 and dest > 0
    assert {"H16-0"} & nodes and ({"A1-0", "A3-0"} & nodes)
    assert {"B18-0", "B20-0", "H4-0"} & nodes


def _state(name: str, **changes: Any) -> dict[str, Any]:
    state = copy.deepcopy(load_json(STATES_DIR / f"{name}.json")["state"])
    state.update(changes)
    return state


def _violations(state: dict[str, Any], routes: list[dict[str, Any]]) -> list[str]:
    report = check_routes(state, routes)
    assert report["legal"] is False
    assert report["revenue"] == 0 or report["violations"]
    return report["violations"]


HJR_251 = "129026-251"  # HJR, phase 4, trains 3 + 4, mine on C5
SSL_728 = "129026-728"  # phase D, C9 full (four tokens), CDL in A19

BAOTOU_STATE = {  # phase 4: the first phase with 4-trains (RULES.md §8)
    "title": "1888", "rule_set": "north", "phase": "4", "corporation": "TJL",
    "trains": ["4"],
    "tiles": [{"hex": "B2", "tile": "58", "rotation": 2},
              {"hex": "B4", "tile": "7", "rotation": 1}],
    "tokens": [],
}

ILLEGAL_ROUTES = [
    pytest.param(
        _state(HJR_251),
        [{"train": "3-0", "connections": [["H4", "H2"], ["G5", "H4"], ["F6", "G5"]]}],
        "route 1 (3-train): a 3-train cannot visit 4 stops",
        id="distance",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["H4", "H2"], ["G5", "H4"], ["F6", "G5"]]},
         {"train": "3-0", "connections": [["F6", "G5"]]}],
        "route 2 (3-train) reuses the hex side between F6 and G5",
        id="track-reuse-between-routes",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "3-0", "connections": [["C5", "D6", "E5"]]}],
        "route 1 (3-train): the route has no HJR station",
        id="no-station",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "5-0", "connections": [["E5", "F6"]]}],
        "route 1 (5-train 5-0): HJR owns no 5-train",
        id="train-not-owned",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["E5", "F6"]]},
         {"train": "4-1", "connections": [["H4", "H2"]]}],
        "route 2 (4-train 4-1): HJR owns only 1 4-train(s)",
        id="more-trains-than-owned",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["E5", "F6"]]},
         {"train": "4-0", "connections": [["H4", "H2"]]}],
        "route 2 (4-train): the train runs twice",
        id="train-twice",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["F6", "G7"]]}],
        "route 1 (4-train): no track joins stops along F6-G7 (connection 1)",
        id="no-track",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["E5", "F6"], ["G5", "H4"]]}],
        "route 1 (4-train): consecutive connections do not share a stop",
        id="disjoint-connections",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["E5", "F6"], ["F6", "E5"]]}],
        "route 1 (4-train): visits Handan twice",
        id="node-twice",
    ),
    pytest.param(
        _state(HJR_251),
        [{"train": "4-0", "connections": [["E5", "F6"], ["F6", "E5"]]}],
        "route 1 (4-train) uses the hex side between E5 and F6 twice",
        id="side-twice-in-one-route",
    ),
    pytest.param(
        _state(SSL_728, corporation="ZDR"),
        [{"train": "D-0", "connections": [["H4", "I5"],
                                          ["I5", "H6", "G7", "F8", "E9", "D8", "C9"],
                                          ["C9", "D10"]]}],
        "route 1 (D-train): Beijing is full of other companies' tokens and can only end a route",
        id="blocked-city-in-middle",
    ),
    pytest.param(
        _state(SSL_728, corporation="CDL"),
        [{"train": "D-0", "connections": [["B20", "A19"], ["A19", "B18"]]}],
        "route 1 (D-train): Changchun is reached by terminal track and can only end a route",
        id="terminal-changchun-in-middle",
    ),
    pytest.param(
        _state(SSL_728, corporation="ZDR"),
        [{"train": "D-0", "connections": [["G9", "H10", "I11"], ["I11", "H10", "G11"]]}],
        "route 1 (D-train): the off-board Xuzhou must end the route",
        id="offboard-in-middle",
    ),
    pytest.param(
        _state(SSL_728, corporation="LYR"),
        [{"train": "D-0", "connections": [["F16", "G15", "H14"], ["H14", "H16"], ["H16", "H14"]]}],
        "route 1 (D-train): the off-board Harbour must end the route",
        id="harbour-in-middle",
    ),
    pytest.param(
        BAOTOU_STATE,
        [{"train": "4-0", "connections": [["A1", "B2"], ["B2", "B4", "A3"]]}],
        "route 1 (4-train): A1 and A3 are both Baotou",
        id="baotou-twice",
    ),
    pytest.param(
        # two trains: two routes for one train would be malformed (RULES.md §6.7)
        _state(SSL_728, corporation="ZDR", trains=["6", "5"]),
        [{"train": "6-0", "connections": [["H4", "I5"],
                                          ["I5", "H6", "G7", "F8", "E9", "D8", "C9"]]},
         {"train": "6-0", "connections": [["G11", "G9"]]}],
        "route 2 (6-train): the train runs twice",
        id="same-train-id-twice",
    ),
]


@pytest.mark.parametrize("state,routes,reason", ILLEGAL_ROUTES)
def test_illegal_route_is_rejected_with_reason(
    state: dict[str, Any], routes: list[dict[str, Any]], reason: str
) -> None:
    violations = _violations(state, routes)
    assert violations.count(reason) == 1, violations


def test_illegal_routes_earn_nothing() -> None:
    report = check_routes(
        _state(HJR_251),
        [{"train": "3-0", "connections": [["H4", "H2"], ["G5", "H4"], ["F6", "G5"]]}],
    )
    assert report["revenue"] == 0 and report["subsidy"] == 0


def test_mine_subsidy_is_reported_apart_from_revenue() -> None:
    """ROUTES.md §7 example 4: HJR 3-train F6-E5-C5 earns 50 revenue and 40 subsidy."""
    state = parse_state(_state(HJR_251))
    specs = parse_route_specs([{"train": "3-0", "connections": [["E5", "F6"], ["C5", "D6", "E5"]]}],
                              game_data("1888"))
    judged = judge_routes(state, specs)
    assert judged.legal
    assert (judged.revenue, judged.subsidy) == (50, 40)
