"""Running trains: judge the recorded routes and book their revenue (ROUTES.md, RULES.md §6.7).

The routes of a ``run_routes`` action are judged by ``engine.route_judge.judge_routes``
(the one validator, STYLE.md §6) on the current board. The engine books the
recorded revenue and subsidy, as 18xx.games does, after checking that they are
legal and equal to its own figures; a replay may ask to trust the record and
only report a disagreement.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import chain, islice, permutations
from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import GameData, HexId
from route18xx.engine.game.actions import RunRoutes
from route18xx.engine.game.depot import train_name
from route18xx.engine.routes.hex_path import read_hex_path
from route18xx.engine.routes.revenue import route_subsidy
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.routes.route_judge import Judgement, judge_routes
from route18xx.engine.inputs.state_file import RouteState

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.operating_round import OperatingRound


@dataclass
class RouteCheck:
    """Recorded versus engine figures for one run_routes action."""

    action_id: int | None
    corporation: str
    trains: list[str]
    recorded_revenue: int
    recorded_subsidy: int
    judgement: Judgement
    problems: list[str] = field(default_factory=list)
    #: the routes judged: the recorded ones, a legacy route with the connections the engine
    #: read from its hexes (``_with_connections``).
    routes: tuple[RouteSpec, ...] = ()

    @property
    def engine_revenue(self) -> int:
        return self.judgement.revenue

    @property
    def engine_subsidy(self) -> int:
        return self.judgement.subsidy

    @property
    def legal(self) -> bool:
        return self.judgement.legal

    @property
    def agrees(self) -> bool:
        return (
            self.legal
            and self.engine_revenue == self.recorded_revenue
            and self.engine_subsidy == self.recorded_subsidy
        )


def route_state(game: Game, corp: Corporation, train_ids: list[str]) -> RouteState:
    """The ``RouteState`` the judge and the solver see for ``corp`` now."""
    trains = tuple(game.trains[train_name(t)] for t in train_ids)
    return RouteState(game.rule_set, game.phase, corp.definition, trains, game.board,
                      train_ids=tuple(train_ids))


def recorded_figures(action: RunRoutes, judgement: Judgement, data: GameData) -> tuple[int, int]:
    """The revenue and subsidy a replay pays for ``action``, as 18xx.games pays them.

    The site pays what the log recorded (HISTORY.md §1.2). A route that
    recorded no ``revenue`` or no ``subsidy`` (logs before 2024-09 have no
    ``subsidy``, HISTORY.md §1.3) gets what the site's ``Route`` works out from
    its stops: the revenue the engine prices, and the mine's ¥40 whenever a
    stop is on the mine hex (``subsidy_for``, whose test looks at the hex
    alone, HISTORY.md §2.2; so does ``engine.revenue.route_subsidy``).
    """
    revenue = subsidy = 0
    for spec, judged in zip(action.routes, judgement.routes):
        revenue += spec.revenue if spec.has_revenue else judged.revenue
        subsidy += spec.subsidy if spec.has_subsidy else route_subsidy(judged.hexes, data)
    return revenue, subsidy


def run_routes(game: Game, rnd: OperatingRound, corp: Corporation, action: RunRoutes) -> RouteCheck:
    """Judge and book a run (ROUTES.md §3, §5); raises IllegalAction on a bad run.

    A run may list no route at all: the trains then earn nothing and the
    dividend step withholds 0 (§6.8).
    """
    runnable = [t for t in corp.trains if t not in rnd.ran]
    seen: set[str] = set()
    for route in action.routes:
        if route.train not in corp.trains:
            raise IllegalAction("not_owner", f"{corp.sym} does not own train {route.train}")
        if route.train in rnd.ran:
            raise IllegalAction("already_ran", f"train {route.train} already ran this operating round")
        if route.train in seen:
            raise IllegalAction("train_twice", f"train {route.train} runs twice")
        seen.add(route.train)
    state = route_state(game, corp, runnable)
    routes = tuple(_with_connections(state, r) for r in action.routes)
    judgement = judge_routes(state, routes)
    revenue, subsidy = recorded_figures(action, judgement, game.board.data)
    check = RouteCheck(action.id, corp.sym, [r.train for r in routes], revenue, subsidy, judgement,
                       routes=routes)
    if not judgement.legal:
        check.problems.append("illegal routes: " + "; ".join(judgement.violations))
    if judgement.legal and judgement.revenue != revenue:
        check.problems.append(f"recorded revenue {revenue}, engine {judgement.revenue}")
    if judgement.legal and judgement.subsidy != subsidy:
        check.problems.append(f"recorded subsidy {subsidy}, engine {judgement.subsidy}")
    if check.problems and not game.trust_recorded_routes:
        code = "illegal_route" if not judgement.legal else "revenue_mismatch"
        raise IllegalAction(code, "; ".join(check.problems))
    rnd.routes = routes
    rnd.revenue = revenue
    rnd.subsidy = subsidy
    rnd.run_check = check
    rnd.ran.update(r.train for r in routes)
    return check


def _with_connections(state: RouteState, route: RouteSpec) -> RouteSpec:
    """A route a log wrote by its hexes alone (``read_route(hexes_only=)``) with its
    connections; any other route as it is.

    Such a route is a legacy of 18xx.games' first months (2020-05, 1889's log 314, played
    over several versions of the site), and the site now pays its recorded revenue
    unchecked (``Route`` override). Its ``hexes`` are its connections' hexes one after the
    other, each connection's hexes in the order of its own paths, either way round
    (``Route#hexes``: ``connections.flat_map(&:hexes)``), in some versions with each hex
    once (``.uniq``): they name the hexes the route used, not reliably their order. The
    engine judges it (``legacy_readings``): the first reading the judge finds legal at the
    recorded revenue, or else the first reading, which the judge then refuses with its
    reasons."""
    if route.connections:
        return route
    first: RouteSpec | None = None
    for connections in islice(legacy_readings(state, route), LEGACY_READINGS):
        spec = replace(route, connections=connections)
        first = first or spec
        judged = judge_routes(state, [spec])
        if judged.legal and judged.revenue == route.revenue:
            return spec
    if first is None:
        raise IllegalAction("illegal_route", f"train {route.train}'s hexes {list(route.hexes)} "
                            "make no route")
    return first


#: Readings of a legacy route judged at most (``legacy_readings``): every order of a
#: route of seven hexes.
LEGACY_READINGS = 5040 + 64


def legacy_readings(state: RouteState, route: RouteSpec) -> Iterator[tuple[tuple[HexId, ...], ...]]:
    """The connections a legacy route's ``hexes`` may stand for (``_with_connections``), in
    this order: the hexes as a path along the track in the order written
    (``engine.routes.hex_path.read_hex_path``); each way to cut them into connections
    joined end to end (``legacy_connections``); the path along the track in every other
    order of the hexes, each once (the ``uniq`` form read out of order)."""
    written = tuple(route.hexes)
    once = tuple(dict.fromkeys(written))
    orders = chain([written], (o for o in permutations(once) if o != written))
    paths = (read_hex_path(state, route.train, order) for order in orders)
    as_paths = (p.connections for p in paths if p.connections and not p.open)
    first = next(as_paths, None)
    yield from ([first] if first is not None else [])
    yield from legacy_connections(written)
    yield from as_paths


def legacy_connections(hexes: tuple[HexId, ...]) -> Iterator[tuple[tuple[HexId, ...], ...]]:
    """Every way to cut ``hexes`` into runs of at least two hexes, each read either way
    round, each starting on the hex where the one before ends (a legacy route's
    connections, ``_with_connections``).

    >>> next(legacy_connections(("J5", "K4", "J5", "I4")))
    (('K4', 'J5'), ('J5', 'I4'))
    """
    if len(hexes) < 2:
        return
    for cut in range(2, len(hexes) + 1):
        for run in (hexes[:cut], hexes[:cut][::-1]):
            if cut == len(hexes):
                yield (run,)
                continue
            for rest in legacy_connections(hexes[cut:]):
                if rest[0][0] == run[-1]:
                    yield (run, *rest)
