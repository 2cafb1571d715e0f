"""Explain every yen of a judged route (issue 14): the breakdown of its figures.

Each stop is priced by the rule that sets its value (ROUTES.md §4: the phase's
newest tile colour for a location whose value changes, the printed value
otherwise); the destination bonus names the home and destination stops that
earned it (§5.2), the mine subsidy the stop on the mine hex (§5.3), and the
distance used is set against the train's (§3.6). The breakdown is computed from
the judged stops with the same pricing functions the judge uses
(``engine.revenue``), and its sums are the judge's figures: a test holds them
equal on every recorded route.
"""

from __future__ import annotations

from collections.abc import Iterable

from route18xx.engine.board.board import NodeId, split_node_id
from route18xx.engine.facts.gamedata import GameData, HexId, RevenueCenter
from route18xx.engine.facts.money import money
from route18xx.engine.answer.reports import (
    AnswerBreakdown, BonusValue, CheckReport, Distance, RouteBreakdown, RouteCheckReport,
    StopValue, SubsidyValue, Violation,
)
from route18xx.engine.routes.revenue import mine_rule, route_bonuses
from route18xx.engine.routes.route_judge import JudgedRoute, Judgement, train_type
from route18xx.engine.inputs.state_file import RouteState


def stop_kind(state: RouteState, node: str) -> str:
    """city / town / off-board / harbour (a stop that costs no distance) / mine."""
    hex_id, index = split_node_id(node)
    return _kind(hex_id, state.board.revenue_center(hex_id, index), state)


def _kind(hex_id: str, center: RevenueCenter | None, state: RouteState) -> str:
    if hex_id in state.data.stop_subsidies:
        return "mine"
    if center is None:
        return "unknown"
    if center.visit_cost == 0:
        return "harbour"
    return "off-board" if center.kind == "offboard" else center.kind


def _stop_values(data: GameData) -> dict[tuple[str, str, str, str, str | None], StopValue]:
    """Stop breakdowns by (phase name, its newest colour, node, tile on its hex), held by
    the game data: a stop's value and rule depend on nothing else (ROUTES.md §4), so a
    board seen for the first time reports the stops every other board with those tiles
    priced (issue 21: derived once per ``GameData``, not once per board)."""
    return {}


def stop_breakdown(state: RouteState, node: str, train: str | None = None) -> StopValue:
    """One stop's value in this phase (for ``train``, a train name, where stops pay by
    train) and the rule that set it (memoised: ``_stop_values``)."""
    column = None if train is None else state.data.stop_column(train)
    return _priced(state, ((node, split_node_id(node)[0]),), column)[0]


def _priced(
    state: RouteState, stops: Iterable[tuple[NodeId, HexId]], column: str | None = None
) -> tuple[StopValue, ...]:
    """``stop_breakdown`` of each (node, its hex) of ``stops``: the memo is keyed by what a
    stop's value and rule read of the phase (its name and newest colour), the node and
    the tile on its hex. The memo and the phase are read once for all the stops
    (route_breakdown ~-5 % CPU on the real states' answers: benchmarks.bench_first_seen;
    issue 21). ``column``: the revenue column the train earns where a stop lists it (a D's
    ``diesel``), part of the memo's key."""
    board = state.board
    phase = state.phase
    name, color = phase.name, phase.revenue_color
    memo = board.data.derived(_stop_values)
    tile_on = board.tile_on
    out: list[StopValue] = []
    for node, hex_id in stops:
        key = (name, color, node, tile_on(hex_id).tile.name, column)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _stop_breakdown(state, node, column)
        out.append(found)
    return tuple(out)


def _stop_breakdown(state: RouteState, node: str, column: str | None = None) -> StopValue:
    hex_id, index = split_node_id(node)
    board = state.board
    center = board.revenue_center(hex_id, index)
    value = 0 if center is None else center.value_for_train(state.phase.revenue_color, column)
    kind = _kind(hex_id, center, state)
    tile = board.tile_on(hex_id).tile.name
    data = state.data
    if center is None:
        rule = "no revenue centre: worth nothing"
    elif kind == "mine":
        rule = (f"{data.rule_section('subsidy')}: the mine (tile {tile}) earns no revenue, "
                "only the subsidy")
    elif column is not None and not isinstance(center.revenue, int) and column in center.revenue:
        rule = f"{data.rule_section('train_value')}: the {column} value of tile {tile}"
    elif isinstance(center.revenue, int):
        rule = f"{data.rule_section('fixed_value')}: fixed value of tile {tile}"
        if kind == "harbour":
            rule += f"; costs no distance ({data.rule_section('harbour')})"
    else:
        color = state.phase.revenue_color
        rule = (f"{data.rule_section('phase_value')}: phase {state.phase.name} value ({color}) "
                f"of tile {tile}")
    return StopValue(node=node, hex=hex_id, name=board.hex(hex_id).location_name or "", kind=kind,
                     value=value, rule=rule)


def route_breakdown(state: RouteState, route: JudgedRoute) -> RouteBreakdown:
    """The breakdown of one judged route; its sums equal the route's revenue and subsidy.

    It explains the stops as the judge read them (``JudgedRoute.facts``: each stop's
    hex, centre and the distance they take), not from a reading of its own.
    """
    corp = state.corporation
    data = state.data
    facts = route.facts(state.board)
    column = data.stop_column(train_type(route.train))  # a D's diesel value
    stops = _priced(state, zip(facts.stops, (hex_id for hex_id, _ in facts.keys)), column)
    bonus = None
    if route.bonus:  # the bonuses the route earned (``revenue.route_bonuses``), summed
        hexes = {s.hex for s in stops}
        earned = [b for b in route_bonuses(state) if b.earned(hexes)]
        first = next(s.node for s in stops if s.hex in earned[0].first)
        second = next(s.node for s in stops if s.hex in earned[0].second)
        bonus = BonusValue(route.bonus, first, second, "; ".join(b.rule for b in earned))
    mine = data.derived(mine_rule)
    on_mine = [s.node for s in stops if mine is not None and s.hex == mine.hex]
    subsidy = None
    if on_mine and mine is not None:
        subsidy = SubsidyValue(
            mine.subsidy, on_mine[0],
            f"{data.rule_section('subsidy')}: a stop on {mine.hex} pays "
            f"{money(mine.subsidy, data.currency_format)} to the treasury",
        )
    train = {t.name: t for t in state.trains}.get(train_type(route.train))
    return RouteBreakdown(
        stops=stops,
        stops_value=sum(s.value for s in stops),
        bonus=bonus,
        mine_subsidy=subsidy,
        distance=Distance(facts.distance, None if train is None else train.distance),
        revenue=route.revenue,
        subsidy=route.subsidy,
        counted=not route.violations,
    )


def route_check_report(state: RouteState, route: JudgedRoute) -> RouteCheckReport:
    return RouteCheckReport(
        route.train, not route.violations, tuple(route.violations), route.revenue,
        route.subsidy, tuple(route.hexes), tuple(route.stops), route_breakdown(state, route),
    )


def check_report(state: RouteState, judgement: Judgement) -> CheckReport:
    """A judgement as the typed ``check`` answer, with breakdowns and violation codes."""
    routes = tuple(route_check_report(state, r) for r in judgement.routes)
    details = tuple(
        Violation(code=d.code, route=d.route, node=d.node, hex=d.hex, text=d.text)
        for d in judgement.details
    )
    breakdown = AnswerBreakdown.of(tuple(r.breakdown for r in routes if r.breakdown))
    return CheckReport(
        legal=judgement.legal, violations=tuple(judgement.violations), revenue=judgement.revenue,
        subsidy=judgement.subsidy, routes=routes, breakdown=breakdown, violation_details=details,
    )
