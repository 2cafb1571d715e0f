"""Judging routes, the engine's API (``engine.api``, DESIGN.md §5 check): routes as
18xx.games records them, or each train's hexes in travel order (``hex_paths``, issue 34)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from msgspec.structs import replace

from route18xx.engine.answer.reports import CheckReport
from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.door.boards import read_state
from route18xx.engine.door.solve import solve_report
from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.state_file import RouteState, parse_state, require_trains
from route18xx.engine.routes.route_judge import (
    check_route_references, judge_routes, parse_route_specs,
)
from route18xx.solver import CancelToken

if TYPE_CHECKING:  # at run time it loads on first use
    from route18xx.engine.routes.hex_path import HexPathReading


def check_routes(
    state_raw: Mapping[str, Any] | RouteState,
    routes_raw: Any,
    *,
    cancel: CancelSignal | None = None,
) -> dict[str, Any]:
    """Judge recorded routes (the ``routes`` array of a run_routes action) on a state.

    Raises ``MalformedInput`` for a state or routes that cannot be read (also
    more routes than trains, or more connections than the board has stops); an
    illegal route is not an error: it comes back with ``legal`` false and reasons.
    ``cancel`` (a ``CancelToken``, or anything with ``cancelled`` and ``expired``)
    is polled while the routes are judged: ``OutOfTime`` when it fires.
    """
    return check_report(state_raw, routes_raw, cancel=cancel).to_json()


def check_report(
    state_raw: Mapping[str, Any] | RouteState,
    routes_raw: Any,
    *,
    cancel: CancelToken | CancelSignal | None = None,
    compare: bool = False,
    objective: str = "total",
    time_limit_s: float = 10.0,
) -> CheckReport:
    """``check_routes`` as a typed ``CheckReport``: each route's breakdown, the
    violations as data (``violation_details``: code, route, node, hex, text) and,
    with ``compare``, the comparison with the proven optimum (``comparison``: per
    train the stops the optimum adds and drops, the revenue and subsidy
    differences; see ``engine.answer.solve_answer.comparison``)."""
    from route18xx.engine.answer.explain import check_report as typed_check

    state = state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)
    check_time(cancel, "validation")
    specs = parse_route_specs(routes_raw, state.data)
    check_route_references(state, specs)
    report = typed_check(state, judge_routes(state, specs, cancel))
    if not compare:
        return report
    from route18xx.engine.answer.solve_answer import comparison

    require_trains(state)
    best = solve_report(state, objective=objective, time_limit_s=time_limit_s,
                        cancel=cancel if isinstance(cancel, CancelToken) else None,
                        objectives=False)
    return replace(report, comparison=comparison(report, best))


def read_hex_paths(
    state_raw: Mapping[str, Any] | RouteState,
    paths_raw: Any,
    *,
    field: str = "hex_paths",
    cancel: CancelSignal | None = None,
) -> list[HexPathReading]:
    """Each train's hex path (``[{"train": "3-3", "hexes": ["H10", "H12", …]}]``, the
    hexes it passes in travel order) read as the route the checker judges: cut into
    connections where the track laid lets it stop (``engine.routes.hex_path``; a hex
    that draws a stop may be run past, as on 1830's Altoona bypass, ROUTES.md §1.3).
    Where the track allows both, the reading with the fewest faults wins, then the one
    that stops where it can. ``to_json()``: ``train``, ``connections``, ``nodes`` (the
    stops as the checker reads them) and ``open`` (hexes past the last stop reached).
    ``MalformedInput`` naming ``field[i]…`` for a path that cannot be read.

    >>> from route18xx.engine.titles import TITLES
    >>> state = TITLES["1830"].warm_up_state
    >>> [r.to_json()["connections"] for r in read_hex_paths(state, [{"train": "2-0", "hexes": ["F22", "F20"]}])]
    [[['F22', 'F20']]]
    """
    from route18xx.engine.routes.hex_path import read_hex_paths as read

    return read(read_state(state_raw), paths_raw, field, cancel)


def check_hex_paths(
    state_raw: Mapping[str, Any] | RouteState,
    paths_raw: Any,
    *,
    field: str = "hex_paths",
    cancel: CancelToken | CancelSignal | None = None,
    compare: bool = False,
    objective: str = "total",
    time_limit_s: float = 10.0,
) -> tuple[CheckReport, list[HexPathReading]]:
    """Each train's hex path read (``read_hex_paths``) and the routes read judged
    (``check_report``, with ``compare`` too): the judgement beside the readings, in the
    paths' order. A path that reaches no second stop is no route; an error about a
    route names the path it was read from (``hex_paths[i]``), never ``routes[j]``.
    """
    state = read_state(state_raw)
    readings = read_hex_paths(state, paths_raw, field=field, cancel=cancel)
    read = [i for i, r in enumerate(readings) if r.route is not None]
    routes = [{k: v for k, v in readings[i].to_json().items() if k != "open"} for i in read]
    try:
        report = check_report(state, routes, cancel=cancel, compare=compare, objective=objective,
                              time_limit_s=time_limit_s)
    except MalformedInput as exc:
        match = _ROUTE_FIELD.match(exc.field)
        if match is None:
            raise
        raise MalformedInput(f"{field}[{read[int(match.group(1))]}]", exc.reason) from None
    return report, readings


#: An error's field about one route: ``routes[2].connections[0]`` → route 2.
_ROUTE_FIELD = re.compile(r"^routes\[(\d+)\]")
