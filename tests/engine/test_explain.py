"""Issue 14, explain every yen: breakdowns, violation codes, pinned routes, what-if
trains, dividend against treasury, recorded against optimal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.api import (
    VIOLATION_CODES, CheckReport, MalformedInput, SolveReport, check_report, solve_report,
)
from route18xx.engine.routes.chains import Chain
from route18xx.engine.routes.route_judge import JudgedRoute, RouteSpec, _check_route, judge_routes
from route18xx.engine.inputs.state_file import parse_state
from tests.engine.test_routes import WORKED_EXAMPLE_ROUTES, WORKED_EXAMPLE_STATE
from tests.conftest import load_json, state_files


def _state(name: str) -> dict[str, Any]:
    return load_json(next(p for p in state_files() if p.stem == name))


# -- breakdowns ------------------------------------------------------------------------


def test_worked_example_breakdown_by_hand() -> None:
    """F16 40 + H14 20 + harbour H16 10 (no distance) + LYR bonus 20 = ¥90 (ROUTES.md §7)."""
    report = check_report(WORKED_EXAMPLE_STATE, WORKED_EXAMPLE_ROUTES)
    b = report.routes[0].breakdown
    assert b is not None
    assert [(s.node, s.kind, s.value) for s in b.stops] == [
        ("F16-0", "city", 40), ("H14-0", "city", 20), ("H16-0", "harbour", 10)]
    assert b.stops_value == 70
    assert b.bonus is not None and (b.bonus.value, b.bonus.home, b.bonus.destination) == (
        20, "F16-0", "H14-0")
    assert "§5.2" in b.bonus.rule and all("ROUTES.md §4" in s.rule for s in b.stops)
    assert b.mine_subsidy is None
    assert (b.distance.used, b.distance.limit) == (2, 2)  # the harbour costs no distance
    assert (b.revenue, b.subsidy, report.breakdown and report.breakdown.revenue) == (90, 0, 90)
    assert report.to_json()["routes"][0]["breakdown"]["destination_bonus"]["value"] == 20


def test_phase_values_name_their_phase() -> None:
    """Xuzhou I11 is priced by the phase's newest colour (ROUTES.md §4.1, §4.2 table)."""
    data = _state("129026-447")
    report = check_report(data["state"], data["reference"]["recorded_routes"])
    stops = [s for r in report.routes for s in r.breakdown.stops]  # type: ignore[union-attr]
    xuzhou = next(s for s in stops if s.node == "I11-0")
    phase = data["state"]["phase"]
    assert xuzhou.kind == "off-board"
    assert f"phase {phase} value" in xuzhou.rule and "§4.1" in xuzhou.rule
    assert xuzhou.value == {"2": 30, "3": 40, "4": 40, "5": 50, "6": 50, "D": 60}[phase]


def test_mine_route_breakdown() -> None:
    """JZR's 3-train E5–F6–C5: the mine is worth 0 and pays ¥40 to the treasury (§5.3)."""
    data = _state("129026-251")
    report = check_report(data["state"], data["reference"]["recorded_routes"])
    route = next(r for r in report.routes if "C5-0" in r.nodes)
    b = route.breakdown
    assert b is not None and b.mine_subsidy is not None
    assert (b.mine_subsidy.value, b.mine_subsidy.node) == (40, "C5-0")
    mine = next(s for s in b.stops if s.node == "C5-0")
    assert (mine.kind, mine.value) == ("mine", 0)
    assert b.subsidy == route.subsidy == 40
    assert b.stops_value + (b.bonus.value if b.bonus else 0) == route.revenue == 50


def test_1830_stops_cite_1830s_routes_sections() -> None:
    """1830's ROUTES.md states the phase values and the fixed values both in §4.1 (1888's
    puts fixed values in §4.2): C&O's 26855-458 run through the Altoona bypass, recorded
    revenue 120, prices each stop by a §4.1 rule, none by §4.2, and cites no mine or bonus."""
    states = {s["name"]: s for s in load_json(
        Path(__file__).resolve().parents[1] / "data" / "1830" / "states.json")["states"]}
    data = states["26855-458"]
    report = check_report(data["state"], data["routes"])
    stops = [s for r in report.routes for s in r.breakdown.stops]  # type: ignore[union-attr]
    assert sum(s.value for s in stops) == data["recorded_revenue"] == 120
    assert stops and all(s.rule.startswith("ROUTES.md §4.1:") for s in stops if s.value)
    assert not any("§4.2" in s.rule or "§5" in s.rule for s in stops)


@pytest.mark.parametrize("path", state_files(), ids=lambda p: p.stem)
def test_breakdown_sums_to_every_recorded_route(path: Any) -> None:
    data = load_json(path)
    ref = data["reference"]
    report = check_report(data["state"], ref["recorded_routes"])
    for route, recorded in zip(report.routes, ref["recorded_routes"]):
        b = route.breakdown
        assert b is not None and b.counted
        assert sum(s.value for s in b.stops) + (b.bonus.value if b.bonus else 0) == recorded["revenue"]
        assert (b.mine_subsidy.value if b.mine_subsidy else 0) == recorded["subsidy"]
        assert b.distance.limit is None or b.distance.used <= b.distance.limit
    assert report.breakdown is not None
    assert (report.breakdown.revenue, report.breakdown.subsidy) == (
        ref["recorded_revenue"], ref["recorded_subsidy"])
    assert CheckReport.from_json(report.to_json()) == report


def test_solve_answer_has_breakdowns_that_add_up() -> None:
    data = _state("129026-352")
    report = solve_report(data["state"])
    assert report.breakdown is not None
    assert report.breakdown.revenue == report.revenue == sum(
        r.breakdown.revenue for r in report.routes)  # type: ignore[union-attr]
    assert report.breakdown.subsidy == report.subsidy
    assert SolveReport.from_json(report.to_json()).to_json() == report.to_json()


# -- violation codes -----------------------------------------------------------------


def _specs(*routes: tuple[str, list[list[str]]]) -> list[RouteSpec]:
    return [RouteSpec(t, tuple(tuple(c) for c in conns)) for t, conns in routes]


def _codes(state_raw: dict[str, Any], specs: list[RouteSpec]) -> set[str]:
    return {d.code for d in judge_routes(parse_state(state_raw), specs).details}


WE = WORKED_EXAMPLE_STATE
LYR_ROUTE = [["F16", "G15", "H14"]]


def _crafted(state_raw: dict[str, Any], stops: list[str], chains: list[Chain] = ()) -> set[str]:  # type: ignore[assignment]
    """``_check_route`` on stops no track of a real board leads through."""
    state = parse_state(state_raw)
    route = JudgedRoute("2-0", stops=stops, chains=list(chains))
    _check_route(state, "route 1 (2-0)", route, state.trains[0])
    assert len(route.details) == len(route.violations)
    return {d.code for d in route.details}


VIOLATION_CASES: dict[str, Any] = {
    "TRAIN_RUNS_TWICE": lambda: _codes({**WE, "trains": ["2", "2"]},
                                       _specs(("2-0", LYR_ROUTE), ("2-0", [["H14", "H16"]]))),
    "TRAIN_NOT_OWNED": lambda: _codes(WE, _specs(("3-0", LYR_ROUTE))),
    "TRAIN_OVERUSED": lambda: _codes(WE, _specs(("2-0", LYR_ROUTE), ("2-1", [["H14", "H16"]]))),
    "NO_TRACK": lambda: _codes(WE, _specs(("2-0", [["F16", "H16"]]))),
    "CONNECTIONS_DISJOINT": lambda: _codes(
        _state("129026-145")["state"], _specs(("2-2", [["H4", "H2"], ["F6", "E5"]]))),
    "TOO_FEW_STOPS": lambda: _crafted(WE, ["F16-0"]),
    "NO_STATION": lambda: _codes({**WE, "tokens": []}, _specs(("2-0", LYR_ROUTE))),
    "GROUP_TWICE": lambda: _crafted({**WE, "trains": ["D"], "phase": "D"}, ["A1-0", "F16-0", "A3-0"]),
    "TERMINAL_PASSED": lambda: _crafted(
        WE, ["F16-0", "A19-0", "H14-0"],
        [Chain("F16-0", "A19-0", (), (), frozenset({"A19-0"}))]),
    "STOP_TWICE": lambda: _codes({**WE, "trains": ["D"], "phase": "D"},
                                 _specs(("D-0", [["F16", "G15", "H14"], ["H14", "G15", "F16"]]))),
    "TOO_LONG": lambda: _codes(
        _state("129026-160")["state"], _specs(("2-0", [["G13", "H14"], ["F16", "F14", "G13"]]))),
    "SIDE_USED_TWICE": lambda: _codes({**WE, "trains": ["D"], "phase": "D"},
                                      _specs(("D-0", [["F16", "G15", "H14"], ["H14", "G15", "F16"]]))),
    "SIDE_REUSED": lambda: _codes({**WE, "trains": ["2", "2"]},
                                  _specs(("2-0", LYR_ROUTE), ("2-1", LYR_ROUTE))),
    "OFFBOARD_PASSED": lambda: _crafted(WE, ["F16-0", "H16-0", "H14-0"]),
    "BLOCKED_CITY_PASSED": lambda: _codes(
        {**WE, "tokens": WE["tokens"] + [{"hex": "H14", "city": 0, "corporation": "JHR"}]},
        _specs(("2-0", [["F16", "G15", "H14"], ["H14", "H16"]]))),
}


def test_every_violation_kind_has_a_case() -> None:
    assert set(VIOLATION_CASES) == set(VIOLATION_CODES)


@pytest.mark.parametrize("code", VIOLATION_CODES)
def test_each_violation_code_is_triggered(code: str) -> None:
    assert code in VIOLATION_CASES[code]()


def test_violation_details_mirror_the_strings() -> None:
    state = {**WE, "trains": ["2", "2"]}
    routes = [{"train": "2-0", "connections": LYR_ROUTE}, {"train": "2-1", "connections": LYR_ROUTE}]
    report = check_report(state, routes)
    assert report.violation_details is not None
    assert [v.text for v in report.violation_details] == list(report.violations)
    reused = next(v for v in report.violation_details if v.code == "SIDE_REUSED")
    assert reused.route == 1 and reused.hex in ("F16", "G15")
    assert report.to_json()["violation_details"][0]["code"] == report.violation_details[0].code


# -- recorded against optimal -----------------------------------------------------------


@pytest.mark.parametrize("name", ["129026-145", "129026-530"])
def test_compare_recorded_with_the_optimum(name: str) -> None:
    data = _state(name)
    ref = data["reference"]
    report = check_report(data["state"], ref["recorded_routes"], compare=True)
    c = report.comparison
    assert c is not None
    assert c.revenue_difference + c.subsidy_difference == ref["optimal_total"] - (
        ref["recorded_revenue"] + ref["recorded_subsidy"]) > 0
    assert sum(t.revenue_difference for t in c.trains) == c.revenue_difference
    assert any(t.added or t.dropped for t in c.trains)


# -- pinned routes ---------------------------------------------------------------------


def test_pinning_the_optimal_routes_costs_nothing() -> None:
    data = _state("129026-352")
    best = solve_report(data["state"])
    pins = [best.routes[0].run_route()]
    pinned = solve_report(data["state"], pinned_routes=pins)
    assert pinned.pinned is not None and pinned.pinned.cost == 0
    assert (pinned.revenue, pinned.subsidy) == (best.revenue, best.subsidy)


@pytest.mark.parametrize("name", ["129026-145", "129026-231", "129026-530", "129026-567"])
def test_pinning_a_recorded_route_costs_exactly_the_difference(name: str) -> None:
    """All trains pinned to a non-optimal record: the cost is optimum − record."""
    data = _state(name)
    ref = data["reference"]
    pinned = solve_report(data["state"], pinned_routes=ref["recorded_routes"])
    assert (pinned.revenue, pinned.subsidy) == (ref["recorded_revenue"], ref["recorded_subsidy"])
    assert pinned.pinned is not None and pinned.pinned.cost == ref["optimal_total"] - (
        ref["recorded_revenue"] + ref["recorded_subsidy"]) > 0


def test_one_pinned_route_leaves_the_best_of_the_rest() -> None:
    data = _state("129026-231")
    ref = data["reference"]
    for route in ref["recorded_routes"]:
        pinned = solve_report(data["state"], pinned_routes=[route])
        assert pinned.proven_optimal
        assert pinned.routes[0].train == route["train"]
        assert pinned.pinned is not None
        best = pinned.pinned.unpinned
        assert best.revenue + best.subsidy >= pinned.revenue + pinned.subsidy
        assert pinned.revenue + pinned.subsidy >= ref["recorded_revenue"] + ref["recorded_subsidy"]


def test_illegal_pins_are_refused_by_name() -> None:
    bad = [{"train": "2-0", "connections": [["F16", "H16"]]}]
    with pytest.raises(MalformedInput) as info:
        solve_report(WORKED_EXAMPLE_STATE, pinned_routes=bad)
    assert info.value.field == "pinned_routes[0]"
    with pytest.raises(MalformedInput) as info:
        solve_report(WORKED_EXAMPLE_STATE, pinned_routes=[{"train": "3-0", "connections": LYR_ROUTE}])
    assert info.value.field == "pinned_routes[0]" and "owns no 3-train" in info.value.reason


# -- what-if trains -----------------------------------------------------------------------


def test_each_train_set_equals_its_own_solve() -> None:
    data = _state("129026-352")
    sets = [["4", "4"], ["5"], ["4", "5"], ["5", "5"]]
    report = solve_report(data["state"], train_sets=sets)
    assert len(report.alternatives) == len(sets)
    for trains, alt in zip(sets, report.alternatives):
        alone = solve_report({**data["state"], "trains": trains}, objectives=False)
        assert alt.trains == tuple(trains)
        assert (alt.revenue, alt.subsidy) == (alone.revenue, alone.subsidy)
        assert alt.proven_optimal


@pytest.mark.parametrize("sets, field", [
    ([["2"]], "train_sets[0][0]"),            # rusted in phase 5
    ([["4"], ["D"]], "train_sets[1][0]"),     # not on sale before phase D
    ([["4", "4", "4"]], "train_sets[0]"),     # over the train limit
    ([[]], "train_sets[0]"),
    ([["9"]], "train_sets[0][0]"),
])
def test_illegal_train_sets_are_refused_by_name(sets: Any, field: str) -> None:
    data = _state("129026-352")
    with pytest.raises(MalformedInput) as info:
        solve_report(data["state"], train_sets=sets)
    assert info.value.field.startswith(field)


# -- dividend against treasury ------------------------------------------------------------


def test_dividend_against_treasury_when_they_differ() -> None:
    found = 0
    for path in state_files():
        data = load_json(path)
        ref = data["reference"]
        report = solve_report(data["state"], time_limit_s=20)
        choice = report.objectives
        differ = ref["optimal_revenue"] + ref["optimal_revenue_best_subsidy"] != ref["optimal_total"] \
            or ref["optimal_revenue"] != report.revenue
        if choice is None:
            continue
        found += 1
        assert choice.revenue.revenue == ref["optimal_revenue"]
        assert choice.total.revenue + choice.total.subsidy == ref["optimal_total"]
        assert choice.dividend_cost == choice.revenue.revenue - choice.total.revenue > 0
        assert choice.total_cost >= 0
        assert differ
    assert found >= 1
