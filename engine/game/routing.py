"""Running trains: judge the recorded routes and book their revenue (ROUTES.md, RULES.md §6.7).

The routes of a ``run_routes`` action are judged by ``engine.route_judge.judge_routes``
(the one validator, STYLE.md §6) on the current board. The engine books the
recorded revenue and subsidy, as 18xx.games does, after checking that they are
legal and equal to its own figures; a replay may ask to trust the record and
only report a disagreement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import GameData
from route18xx.engine.game.actions import RunRoutes
from route18xx.engine.game.depot import train_name
from route18xx.engine.routes.revenue import route_subsidy
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
    judgement = judge_routes(route_state(game, corp, runnable), action.routes)
    revenue, subsidy = recorded_figures(action, judgement, game.board.data)
    check = RouteCheck(action.id, corp.sym, [r.train for r in action.routes], revenue, subsidy, judgement)
    if not judgement.legal:
        check.problems.append("illegal routes: " + "; ".join(judgement.violations))
    if judgement.legal and judgement.revenue != revenue:
        check.problems.append(f"recorded revenue {revenue}, engine {judgement.revenue}")
    if judgement.legal and judgement.subsidy != subsidy:
        check.problems.append(f"recorded subsidy {subsidy}, engine {judgement.subsidy}")
    if check.problems and not game.trust_recorded_routes:
        code = "illegal_route" if not judgement.legal else "revenue_mismatch"
        raise IllegalAction(code, "; ".join(check.problems))
    rnd.routes = action.routes
    rnd.revenue = revenue
    rnd.subsidy = subsidy
    rnd.run_check = check
    rnd.ran.update(r.train for r in action.routes)
    return check
