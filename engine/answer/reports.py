"""The solve and check answers as typed values (issue 14: explain every yen).

``route18xx solve --json`` and ``route18xx check --json`` print ``to_json()`` of
a ``SolveReport`` / ``CheckReport``: the keys and order they always had, plus
the new ``breakdown`` keys (and, when asked, ``violation_details``, ``pinned``,
``alternatives``, ``objectives`` and ``comparison``). Each type is declared
(``engine.declared``, issue 32 item 4): its fields are its JSON keys, in order, so
the JSON is derived, not written. The front ends read the typed fields;
``from_json`` reads a report back (what a remote answer or an injected engine
function returns as a dict).

Every figure of a breakdown is the engine's (``engine.explain``): the stops
priced for the phase (ROUTES.md §4), the destination bonus and the two stops
that earned it (§5.2), the mine subsidy (§5.3) and the distance used (§3.6).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import msgspec

from route18xx.engine.answer.budget import SolveTiming
from route18xx.engine.declared import Declared
from route18xx.solver import SolveStats


class StopValue(Declared, frozen=True, kw_only=True):
    """One stop of a route: node, kind (city / town / off-board / harbour / mine),
    its value in this phase, the rule that set it, and the place's printed name
    ("Tianjin"; empty for an unnamed town or city)."""

    node: str
    hex: str
    name: str = ""
    kind: str
    value: int
    rule: str


class BonusValue(Declared, frozen=True):
    """The bonus of a route and the two stops that earned it: the destination bonus (ROUTES.md
    §5.2; ``home`` and ``destination``), or a title's bonus for two stops on one route (1882's
    Hudson Bay bonus: ``home`` the stop of its first set, ``destination`` of its second;
    ``revenue.route_bonuses``). ``value`` is every bonus the route earned, ``rule`` names each."""

    value: int
    home: str
    destination: str
    rule: str


class SubsidyValue(Declared, frozen=True):
    """The mine subsidy of a route (paid to the treasury) and the stop that earned it (§5.3)."""

    value: int
    node: str
    rule: str


class Distance(Declared, frozen=True):
    """The distance a route used and its train's limit (§3.6); ``limit`` None is an
    unlimited train (D)."""

    used: int
    limit: int | None


class RouteBreakdown(Declared, frozen=True):
    """Where a route's yen come from: ``revenue = stops_value + bonus`` and
    ``subsidy = mine subsidy`` when the route counts (``counted``: it is legal);
    an illegal route earns nothing, its stops are listed all the same."""

    stops: tuple[StopValue, ...]
    stops_value: int
    bonus: BonusValue | None = msgspec.field(name="destination_bonus")
    mine_subsidy: SubsidyValue | None
    distance: Distance
    revenue: int
    subsidy: int
    counted: bool = True


class AnswerBreakdown(Declared, frozen=True):
    """Totals over an answer's routes: ``revenue = stops_value + bonus``."""

    stops_value: int = 0
    bonus: int = msgspec.field(default=0, name="destination_bonus")
    revenue: int = 0
    subsidy: int = 0

    @classmethod
    def of(cls, routes: tuple[RouteBreakdown, ...]) -> AnswerBreakdown:
        """The sums over the routes that count (an illegal route earns nothing)."""
        counted = [r for r in routes if r.counted]
        return cls(
            sum(r.stops_value for r in counted),
            sum(r.bonus.value for r in counted if r.bonus is not None),
            sum(r.revenue for r in counted), sum(r.subsidy for r in counted),
        )


class RouteReport(Declared, frozen=True, omit_defaults=True):
    """One solved route in the 18xx.games ``run_routes`` shape, with its breakdown
    (no ``breakdown`` key without one)."""

    train: str
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue_str: str
    breakdown: RouteBreakdown | None = None

    def run_route(self) -> dict[str, Any]:
        """The route as a run_routes entry (what ``check`` and pins read)."""
        return {"train": self.train, "connections": [list(c) for c in self.connections],
                "nodes": list(self.nodes)}


@dataclass(frozen=True)
class AnswerStats(SolveStats):
    """The ``stats`` of a solve answer: the solve's measurements (``solver.SolveStats``,
    whose fields are the keys, in order), times rounded to 3 decimals as printed, then
    every solve the answer made, each with its own time (issue 21 item 4)."""

    solves: tuple[SolveTiming, ...] = ()

    @classmethod
    def of(cls, stats: SolveStats, solves: tuple[SolveTiming, ...] = ()) -> AnswerStats:
        figures: dict[str, Any] = {}
        for f in fields(SolveStats):
            value = getattr(stats, f.name)
            figures[f.name] = round(value, 3) if isinstance(value, float) else value
        return cls(**figures, solves=solves)


#: The keys of a solve answer's ``stats`` before ``solves``: ``solver.SolveStats``'s fields.
STATS_KEYS: tuple[str, ...] = tuple(f.name for f in fields(SolveStats))


class BriefOptimum(Declared, frozen=True):
    """An optimum in brief: its revenue and subsidy, whether proven, its routes."""

    revenue: int
    subsidy: int
    proven_optimal: bool
    routes: tuple[RouteReport, ...]


class PinnedExplanation(Declared, frozen=True):
    """What pinned routes cost (issue 14 item 4): the pinned trains, the optimum without
    pins and the difference in the objective (``cost``), in revenue and in subsidy."""

    trains: tuple[str, ...]
    unpinned: BriefOptimum
    cost: int
    revenue_cost: int
    subsidy_cost: int


class ObjectiveChoice(Declared, frozen=True):
    """The best total and the best revenue where they differ (issue 14 item 6): choosing
    the best total gives up ``dividend_cost`` of revenue, choosing the best revenue
    ``treasury_cost`` of subsidy (``total_cost`` in income)."""

    total: BriefOptimum
    revenue: BriefOptimum
    dividend_cost: int
    treasury_cost: int
    total_cost: int


class SolveReport(Declared, frozen=True, kw_only=True, omit_defaults=True):
    """The ``route18xx solve --json`` object (DESIGN.md §5) plus its breakdown.

    The optional explanations follow ``breakdown`` (``engine.explain_solve``), each key
    only when there is one: ``pinned`` (with pins), ``alternatives`` (one answer per
    train set asked, each with its ``trains`` as its first key) and ``objectives`` (the
    two objectives' optima where they differ).
    """

    #: the train set of an alternative (``alternatives``); None for the answer itself.
    trains: tuple[str, ...] | None = None
    corporation: str
    objective: str
    revenue: int
    subsidy: int
    proven_optimal: bool
    status: str
    bound: int
    solve_ms: float
    routes: tuple[RouteReport, ...]
    stats: AnswerStats
    breakdown: AnswerBreakdown | None = None
    pinned: PinnedExplanation | None = None
    alternatives: tuple[SolveReport, ...] = ()
    objectives: ObjectiveChoice | None = None

    def brief(self) -> BriefOptimum:
        return BriefOptimum(self.revenue, self.subsidy, self.proven_optimal, self.routes)


class Violation(Declared, frozen=True, kw_only=True):
    """One violation as data: the code (``engine.route_judge.VIOLATION_CODES``), the
    route (0-based), the node or hex involved ("" when none) and the human text."""

    code: str
    route: int
    node: str = ""
    hex: str = ""
    text: str


class RouteCheckReport(Declared, frozen=True, omit_defaults=True):
    """One judged route of ``route18xx check --json``, with its breakdown."""

    train: str
    legal: bool
    violations: tuple[str, ...]
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    breakdown: RouteBreakdown | None = None


class TrainComparison(Declared, frozen=True):
    """One train's recorded route against its optimal one: the stops the optimum adds
    and drops, and the difference in revenue and subsidy."""

    train: str
    recorded_nodes: tuple[str, ...]
    optimal_nodes: tuple[str, ...]
    added: tuple[str, ...]
    dropped: tuple[str, ...]
    revenue_difference: int
    subsidy_difference: int


class Comparison(Declared, frozen=True):
    """Recorded routes against the proven optimum (issue 14 item 3), per train too."""

    objective: str
    recorded_revenue: int
    recorded_subsidy: int
    optimal_revenue: int
    optimal_subsidy: int
    proven_optimal: bool
    revenue_difference: int
    subsidy_difference: int
    trains: tuple[TrainComparison, ...]
    optimal_routes: tuple[RouteReport, ...]


class CheckReport(Declared, frozen=True, kw_only=True, omit_defaults=True):
    """The ``route18xx check --json`` object plus the breakdown, the violations as
    data (``violation_details``: given with the breakdown, None without) and, when
    asked (``compare``), the comparison with the optimum."""

    legal: bool
    violations: tuple[str, ...]
    revenue: int
    subsidy: int
    routes: tuple[RouteCheckReport, ...]
    breakdown: AnswerBreakdown | None = None
    violation_details: tuple[Violation, ...] | None = None
    comparison: Comparison | None = None
