"""The solve and check answers as typed values (issue 14: explain every yen).

``route18xx solve --json`` and ``route18xx check --json`` print ``to_json()`` of
a ``SolveReport`` / ``CheckReport``: the keys and order they always had, plus
the new ``breakdown`` keys (and, when asked, ``violation_details``, ``pinned``,
``alternatives``, ``objectives`` and ``comparison``). The front ends read the
typed fields; ``from_json`` reads a report back (what a remote answer or an
injected engine function returns as a dict).

Every figure of a breakdown is the engine's (``engine.explain``): the stops
priced for the phase (ROUTES.md §4), the destination bonus and the two stops
that earned it (§5.2), the mine subsidy (§5.3) and the distance used (§3.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class StopValue:
    """One stop of a route: node, kind (city / town / off-board / harbour / mine),
    its value in this phase, the rule that set it, and the place's printed name
    ("Tianjin"; empty for an unnamed town or city)."""

    node: str
    hex: str
    kind: str
    value: int
    rule: str
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "hex": self.hex, "name": self.name, "kind": self.kind,
                "value": self.value, "rule": self.rule}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> StopValue:
        return cls(raw["node"], raw["hex"], raw["kind"], raw["value"], raw["rule"],
                   raw.get("name", ""))


@dataclass(frozen=True)
class BonusValue:
    """The destination bonus of a route and the two stops that earned it (ROUTES.md §5.2)."""

    value: int
    home: str
    destination: str
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "home": self.home, "destination": self.destination,
                "rule": self.rule}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> BonusValue:
        return cls(raw["value"], raw["home"], raw["destination"], raw["rule"])


@dataclass(frozen=True)
class SubsidyValue:
    """The mine subsidy of a route (paid to the treasury) and the stop that earned it (§5.3)."""

    value: int
    node: str
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "node": self.node, "rule": self.rule}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SubsidyValue:
        return cls(raw["value"], raw["node"], raw["rule"])


@dataclass(frozen=True)
class RouteBreakdown:
    """Where a route's yen come from: ``revenue = stops_value + bonus`` and
    ``subsidy = mine subsidy`` when the route counts (``counted``: it is legal);
    an illegal route earns nothing, its stops are listed all the same.
    ``distance_limit`` None is an unlimited train (D)."""

    stops: tuple[StopValue, ...]
    stops_value: int
    bonus: BonusValue | None
    mine_subsidy: SubsidyValue | None
    distance_used: int
    distance_limit: int | None
    revenue: int
    subsidy: int
    counted: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "stops": [s.to_json() for s in self.stops],
            "stops_value": self.stops_value,
            "destination_bonus": None if self.bonus is None else self.bonus.to_json(),
            "mine_subsidy": None if self.mine_subsidy is None else self.mine_subsidy.to_json(),
            "distance": {"used": self.distance_used, "limit": self.distance_limit},
            "revenue": self.revenue,
            "subsidy": self.subsidy,
            "counted": self.counted,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RouteBreakdown:
        bonus, mine = raw.get("destination_bonus"), raw.get("mine_subsidy")
        return cls(
            tuple(StopValue.from_json(s) for s in raw["stops"]), raw["stops_value"],
            None if bonus is None else BonusValue.from_json(bonus),
            None if mine is None else SubsidyValue.from_json(mine),
            raw["distance"]["used"], raw["distance"]["limit"], raw["revenue"], raw["subsidy"],
            raw.get("counted", True),
        )


@dataclass(frozen=True)
class AnswerBreakdown:
    """Totals over an answer's routes: ``revenue = stops_value + bonus``."""

    stops_value: int = 0
    bonus: int = 0
    revenue: int = 0
    subsidy: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"stops_value": self.stops_value, "destination_bonus": self.bonus,
                "revenue": self.revenue, "subsidy": self.subsidy}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> AnswerBreakdown:
        return cls(raw["stops_value"], raw["destination_bonus"], raw["revenue"], raw["subsidy"])

    @classmethod
    def of(cls, routes: tuple[RouteBreakdown, ...]) -> AnswerBreakdown:
        counted = [r for r in routes if r.counted]
        return cls(
            sum(r.stops_value for r in counted),
            sum(r.bonus.value for r in counted if r.bonus is not None),
            sum(r.revenue for r in counted), sum(r.subsidy for r in counted),
        )


@dataclass(frozen=True)
class RouteReport:
    """One solved route in the 18xx.games ``run_routes`` shape, with its breakdown."""

    train: str
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue_str: str
    breakdown: RouteBreakdown | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "train": self.train, "revenue": self.revenue, "subsidy": self.subsidy,
            "hexes": list(self.hexes), "nodes": list(self.nodes),
            "connections": [list(c) for c in self.connections], "revenue_str": self.revenue_str,
        }
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
        return out

    def run_route(self) -> dict[str, Any]:
        """The route as a run_routes entry (what ``check`` and pins read)."""
        return {"train": self.train, "connections": [list(c) for c in self.connections],
                "nodes": list(self.nodes)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RouteReport:
        b = raw.get("breakdown")
        return cls(
            raw["train"], raw["revenue"], raw["subsidy"], tuple(raw["hexes"]),
            tuple(raw["nodes"]), tuple(tuple(c) for c in raw.get("connections", [])),
            raw.get("revenue_str", ""), None if b is None else RouteBreakdown.from_json(b),
        )


#: The ``stats`` of a solve, in the order ``solve --json`` prints them.
STATS_KEYS = (
    "nodes_before", "segments_before", "nodes_after", "segments_after", "arcs", "variables",
    "constraints", "reduce_ms", "build_ms", "solver_ms",
)


@dataclass(frozen=True)
class SolveReport:
    """The ``route18xx solve --json`` object (DESIGN.md §5) plus its breakdown.

    ``extras`` holds the optional explanations, already in their JSON form, in
    the order they are printed after ``breakdown`` (``pinned``, ``alternatives``,
    ``objectives``): see ``engine.explain_solve``.
    """

    corporation: str
    objective: str
    revenue: int
    subsidy: int
    proven_optimal: bool
    status: str
    bound: int
    solve_ms: float
    routes: tuple[RouteReport, ...]
    stats: Mapping[str, Any] = field(default_factory=dict)
    breakdown: AnswerBreakdown | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "corporation": self.corporation, "objective": self.objective,
            "revenue": self.revenue, "subsidy": self.subsidy,
            "proven_optimal": self.proven_optimal, "status": self.status, "bound": self.bound,
            "solve_ms": self.solve_ms, "routes": [r.to_json() for r in self.routes],
            "stats": dict(self.stats),
        }
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
        out.update(self.extras)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SolveReport:
        known = {"corporation", "objective", "revenue", "subsidy", "proven_optimal", "status",
                 "bound", "solve_ms", "routes", "stats", "breakdown"}
        b = raw.get("breakdown")
        return cls(
            raw.get("corporation", ""), raw.get("objective", "total"), raw["revenue"],
            raw["subsidy"], raw["proven_optimal"], raw.get("status", "UNKNOWN"),
            int(raw.get("bound", 0)), raw.get("solve_ms", 0.0),
            tuple(RouteReport.from_json(r) for r in raw["routes"]), dict(raw.get("stats", {})),
            None if b is None else AnswerBreakdown.from_json(b),
            {k: v for k, v in raw.items() if k not in known},
        )


@dataclass(frozen=True)
class Violation:
    """One violation as data: the code (``engine.route_judge.VIOLATION_CODES``), the
    route (0-based), the node or hex involved ("" when none) and the human text."""

    code: str
    route: int
    text: str
    node: str = ""
    hex: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "route": self.route, "node": self.node, "hex": self.hex,
                "text": self.text}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Violation:
        return cls(raw["code"], raw["route"], raw["text"], raw.get("node", ""),
                   raw.get("hex", ""))


@dataclass(frozen=True)
class RouteCheckReport:
    """One judged route of ``route18xx check --json``, with its breakdown."""

    train: str
    legal: bool
    violations: tuple[str, ...]
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    breakdown: RouteBreakdown | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "train": self.train, "legal": self.legal, "violations": list(self.violations),
            "revenue": self.revenue, "subsidy": self.subsidy, "hexes": list(self.hexes),
            "nodes": list(self.nodes),
        }
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RouteCheckReport:
        b = raw.get("breakdown")
        return cls(
            raw["train"], raw["legal"], tuple(raw["violations"]), raw["revenue"], raw["subsidy"],
            tuple(raw["hexes"]), tuple(raw["nodes"]),
            None if b is None else RouteBreakdown.from_json(b),
        )


@dataclass(frozen=True)
class CheckReport:
    """The ``route18xx check --json`` object plus the breakdown, the violations as
    data and, when asked (``compare``), the comparison with the optimum."""

    legal: bool
    violations: tuple[str, ...]
    revenue: int
    subsidy: int
    routes: tuple[RouteCheckReport, ...]
    breakdown: AnswerBreakdown | None = None
    violation_details: tuple[Violation, ...] = ()
    comparison: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "legal": self.legal, "violations": list(self.violations), "revenue": self.revenue,
            "subsidy": self.subsidy, "routes": [r.to_json() for r in self.routes],
        }
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
            out["violation_details"] = [v.to_json() for v in self.violation_details]
        if self.comparison is not None:
            out["comparison"] = dict(self.comparison)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> CheckReport:
        b = raw.get("breakdown")
        return cls(
            raw["legal"], tuple(raw["violations"]), raw["revenue"], raw["subsidy"],
            tuple(RouteCheckReport.from_json(r) for r in raw["routes"]),
            None if b is None else AnswerBreakdown.from_json(b),
            tuple(Violation.from_json(v) for v in raw.get("violation_details", [])),
            raw.get("comparison"),
        )
