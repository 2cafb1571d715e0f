"""msgspec ``Struct`` against pydantic ``BaseModel`` for the solve answer (issue 32 item 4).

    .venv/bin/python -m benchmarks.bench_report_types [rounds]

The answer's types are declared once and their JSON derived from the declaration; which
library declares them is chosen by this measurement. Both declare the same shape: the
``route18xx solve --json`` object (routes with their breakdowns, ``stats`` with every solve,
the answer's breakdown, the two objectives' optima where the board pays a subsidy), with
its one renamed key (``destination_bonus``) and its keys left out when empty
(``breakdown``, ``objectives``). The inputs are the real answers: ``solve_report`` of every
state of ``tests/data/states``, each as the dict the product prints today.

Per answer, each library's median over ``rounds`` (default 15) passes of all the answers, side
by side in one run (the machine's load moves both alike):

* ``from dict``: the dict as the typed answer (``msgspec.convert`` / ``model_validate``),
  what a remote answer or an injected engine function's dict goes through;
* ``to dict``: the typed answer as its JSON object, lists and all (``msgspec.to_builtins``
  / ``model_dump(mode="json")``), what ``solve --json`` prints;
* ``encode``: the typed answer as JSON bytes (``msgspec.json.encode`` / ``model_dump_json``);
* ``decode``: JSON bytes as the typed answer (``msgspec.json.decode`` / ``model_validate_json``);
* ``build``: the typed answer made field by field from its parts, as the engine makes it
  (msgspec does not check what it is given; pydantic validates every model it builds).

``product`` times the product's own ``SolveReport.from_json`` / ``to_json`` beside them.
Each library's answer prints byte for byte what the product prints (checked first, and by
``test_both_print_the_answer`` under ``make bench``).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any, Callable

import msgspec
from pydantic import BaseModel, ConfigDict, Field

from benchmarks.conftest import real_states


# -- msgspec ---------------------------------------------------------------------------


class MStop(msgspec.Struct, frozen=True):
    node: str
    hex: str
    name: str
    kind: str
    value: int
    rule: str


class MBonus(msgspec.Struct, frozen=True):
    value: int
    home: str
    destination: str
    rule: str


class MSubsidy(msgspec.Struct, frozen=True):
    value: int
    node: str
    rule: str


class MDistance(msgspec.Struct, frozen=True):
    used: int
    limit: int | None


class MRouteBreakdown(msgspec.Struct, frozen=True):
    stops: tuple[MStop, ...]
    stops_value: int
    bonus: MBonus | None = msgspec.field(name="destination_bonus")
    mine_subsidy: MSubsidy | None
    distance: MDistance
    revenue: int
    subsidy: int
    counted: bool = True


class MAnswerBreakdown(msgspec.Struct, frozen=True):
    stops_value: int = 0
    bonus: int = msgspec.field(default=0, name="destination_bonus")
    revenue: int = 0
    subsidy: int = 0


class MRoute(msgspec.Struct, frozen=True, omit_defaults=True):
    train: str
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue_str: str
    breakdown: MRouteBreakdown | None = None


class MTiming(msgspec.Struct, frozen=True):
    purpose: str
    objective: str
    trains: tuple[str, ...]
    status: str
    solve_ms: float
    solver_ms: float
    search_ms: float
    branches: int
    conflicts: int
    floor: int = 0


class MStats(msgspec.Struct, frozen=True):
    nodes_before: int = 0
    segments_before: int = 0
    nodes_after: int = 0
    segments_after: int = 0
    arcs: int = 0
    variables: int = 0
    constraints: int = 0
    branches: int = 0
    conflicts: int = 0
    reduce_ms: float = 0.0
    build_ms: float = 0.0
    solver_ms: float = 0.0
    solves: tuple[MTiming, ...] = ()


class MBrief(msgspec.Struct, frozen=True):
    revenue: int
    subsidy: int
    proven_optimal: bool
    routes: tuple[MRoute, ...]


class MObjectives(msgspec.Struct, frozen=True):
    total: MBrief
    revenue: MBrief
    dividend_cost: int
    treasury_cost: int
    total_cost: int


class MSolveReport(msgspec.Struct, frozen=True, omit_defaults=True):
    corporation: str
    objective: str
    revenue: int
    subsidy: int
    proven_optimal: bool
    status: str
    bound: int
    solve_ms: float
    routes: tuple[MRoute, ...]
    stats: MStats
    breakdown: MAnswerBreakdown | None = None
    objectives: MObjectives | None = None


def m_to_dict(report: MSolveReport) -> Any:
    """JSON arrays as lists: to_builtins keeps a tuple a tuple."""
    return msgspec.json.decode(msgspec.json.encode(report))


# -- pydantic --------------------------------------------------------------------------

_FROZEN = ConfigDict(frozen=True, populate_by_name=True)


def _absent(v: Any) -> bool:
    return v is None


class PStop(BaseModel):
    model_config = _FROZEN
    node: str
    hex: str
    name: str
    kind: str
    value: int
    rule: str


class PBonus(BaseModel):
    model_config = _FROZEN
    value: int
    home: str
    destination: str
    rule: str


class PSubsidy(BaseModel):
    model_config = _FROZEN
    value: int
    node: str
    rule: str


class PDistance(BaseModel):
    model_config = _FROZEN
    used: int
    limit: int | None


class PRouteBreakdown(BaseModel):
    model_config = _FROZEN
    stops: tuple[PStop, ...]
    stops_value: int
    bonus: PBonus | None = Field(alias="destination_bonus")
    mine_subsidy: PSubsidy | None
    distance: PDistance
    revenue: int
    subsidy: int
    counted: bool = True


class PAnswerBreakdown(BaseModel):
    model_config = _FROZEN
    stops_value: int = 0
    bonus: int = Field(default=0, alias="destination_bonus")
    revenue: int = 0
    subsidy: int = 0


class PRoute(BaseModel):
    model_config = _FROZEN
    train: str
    revenue: int
    subsidy: int
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue_str: str
    breakdown: PRouteBreakdown | None = Field(default=None, exclude_if=_absent)


class PTiming(BaseModel):
    model_config = _FROZEN
    purpose: str
    objective: str
    trains: tuple[str, ...]
    status: str
    solve_ms: float
    solver_ms: float
    search_ms: float
    branches: int
    conflicts: int
    floor: int = 0


class PStats(BaseModel):
    model_config = _FROZEN
    nodes_before: int = 0
    segments_before: int = 0
    nodes_after: int = 0
    segments_after: int = 0
    arcs: int = 0
    variables: int = 0
    constraints: int = 0
    branches: int = 0
    conflicts: int = 0
    reduce_ms: float = 0.0
    build_ms: float = 0.0
    solver_ms: float = 0.0
    solves: tuple[PTiming, ...] = ()


class PBrief(BaseModel):
    model_config = _FROZEN
    revenue: int
    subsidy: int
    proven_optimal: bool
    routes: tuple[PRoute, ...]


class PObjectives(BaseModel):
    model_config = _FROZEN
    total: PBrief
    revenue: PBrief
    dividend_cost: int
    treasury_cost: int
    total_cost: int


class PSolveReport(BaseModel):
    model_config = _FROZEN
    corporation: str
    objective: str
    revenue: int
    subsidy: int
    proven_optimal: bool
    status: str
    bound: int
    solve_ms: float
    routes: tuple[PRoute, ...]
    stats: PStats
    breakdown: PAnswerBreakdown | None = Field(default=None, exclude_if=_absent)
    objectives: PObjectives | None = Field(default=None, exclude_if=_absent)


# -- building field by field (the engine's way), one builder for both ----------------------


def _builder(ns: dict[str, Any]) -> Callable[[dict[str, Any]], Any]:
    """A function making the answer of ``raw`` from its parts with ``ns``'s classes."""
    def route(r: dict[str, Any]) -> Any:
        b = r.get("breakdown")
        breakdown = None
        if b is not None:
            bonus, mine = b["destination_bonus"], b["mine_subsidy"]
            breakdown = ns["RouteBreakdown"](
                stops=tuple(ns["Stop"](**s) for s in b["stops"]), stops_value=b["stops_value"],
                bonus=None if bonus is None else ns["Bonus"](**bonus),
                mine_subsidy=None if mine is None else ns["Subsidy"](**mine),
                distance=ns["Distance"](**b["distance"]), revenue=b["revenue"],
                subsidy=b["subsidy"], counted=b["counted"])
        return ns["Route"](
            train=r["train"], revenue=r["revenue"], subsidy=r["subsidy"], hexes=tuple(r["hexes"]),
            nodes=tuple(r["nodes"]), connections=tuple(tuple(c) for c in r["connections"]),
            revenue_str=r["revenue_str"], breakdown=breakdown)

    def brief(b: dict[str, Any]) -> Any:
        return ns["Brief"](revenue=b["revenue"], subsidy=b["subsidy"],
                           proven_optimal=b["proven_optimal"],
                           routes=tuple(route(r) for r in b["routes"]))

    def build(raw: dict[str, Any]) -> Any:
        stats = {k: v for k, v in raw["stats"].items() if k != "solves"}
        solves = tuple(ns["Timing"](**{**t, "trains": tuple(t["trains"])})
                       for t in raw["stats"]["solves"])
        b, o = raw.get("breakdown"), raw.get("objectives")
        return ns["SolveReport"](
            corporation=raw["corporation"], objective=raw["objective"], revenue=raw["revenue"],
            subsidy=raw["subsidy"], proven_optimal=raw["proven_optimal"], status=raw["status"],
            bound=raw["bound"], solve_ms=raw["solve_ms"],
            routes=tuple(route(r) for r in raw["routes"]),
            stats=ns["Stats"](**stats, solves=solves),
            breakdown=None if b is None else ns["AnswerBreakdown"](
                stops_value=b["stops_value"], bonus=b["destination_bonus"], revenue=b["revenue"],
                subsidy=b["subsidy"]),
            objectives=None if o is None else ns["Objectives"](
                total=brief(o["total"]), revenue=brief(o["revenue"]),
                dividend_cost=o["dividend_cost"], treasury_cost=o["treasury_cost"],
                total_cost=o["total_cost"]))
    return build


_NAMES = ("Stop", "Bonus", "Subsidy", "Distance", "RouteBreakdown", "AnswerBreakdown", "Route",
          "Timing", "Stats", "Brief", "Objectives", "SolveReport")
_M_BUILD = _builder({n: globals()["M" + n] for n in _NAMES})
_P_BUILD = _builder({n: globals()["P" + n] for n in _NAMES})


def libraries() -> dict[str, dict[str, Callable[[Any], Any]]]:
    """Per library, per operation: a function of the answer's dict, its typed value or bytes."""
    return {
        "msgspec": {
            "from dict": lambda d: msgspec.convert(d, MSolveReport),
            "to dict": m_to_dict,
            "encode": msgspec.json.encode,
            "decode": lambda b: msgspec.json.decode(b, type=MSolveReport),
            "build": _M_BUILD,
        },
        "pydantic": {
            "from dict": PSolveReport.model_validate,
            "to dict": lambda r: r.model_dump(mode="json", by_alias=True),
            "encode": lambda r: r.model_dump_json(by_alias=True).encode(),
            "decode": PSolveReport.model_validate_json,
            "build": _P_BUILD,
        },
    }


def answers() -> list[dict[str, Any]]:
    """The product's ``solve --json`` object of every real state."""
    from route18xx.engine.api import solve_report

    return [solve_report(state).to_json() for state in real_states().values()]


def check(raws: list[dict[str, Any]]) -> None:
    """Each library prints each answer byte for byte as the product does."""
    for name, ops in libraries().items():
        for raw in raws:
            want = json.dumps(raw, indent=1)
            for typed in (ops["from dict"](raw), ops["decode"](json.dumps(raw).encode()),
                          ops["build"](raw)):
                got = json.dumps(ops["to dict"](typed), indent=1)
                assert got == want, (name, raw["corporation"])


def measure(raws: list[dict[str, Any]], rounds: int) -> dict[str, dict[str, float]]:
    """Operation → side → the median µs per answer."""
    from route18xx.engine.api import SolveReport

    sides: dict[str, dict[str, Callable[[Any], Any]]] = libraries()
    sides["product"] = {"from dict": SolveReport.from_json, "to dict": lambda r: r.to_json()}
    inputs: dict[str, dict[str, list[Any]]] = {}
    for side, ops in sides.items():
        typed = [ops["from dict"](raw) for raw in raws]
        inputs[side] = {"from dict": raws, "to dict": typed, "encode": typed,
                        "decode": [json.dumps(raw).encode() for raw in raws], "build": raws}
    times: dict[str, dict[str, list[float]]] = {}
    for _ in range(rounds):
        for side, ops in sides.items():
            for op, fn in ops.items():
                items = inputs[side][op]
                started = time.perf_counter()
                for item in items:
                    fn(item)
                per = (time.perf_counter() - started) / len(items) * 1e6
                times.setdefault(op, {}).setdefault(side, []).append(per)
    return {op: {side: statistics.median(v) for side, v in by.items()} for op, by in times.items()}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    raws = answers()
    check(raws)
    routes = statistics.median(len(r["routes"]) for r in raws)
    print(f"{len(raws)} real solve answers (median {routes:g} routes, "
          f"{statistics.median(len(json.dumps(r)) for r in raws):.0f} bytes), "
          f"median of {rounds} rounds, µs per answer")
    print(f"{'':10} {'msgspec':>9} {'pydantic':>9} {'ratio':>6} {'product':>9}")
    for op, by in measure(raws, rounds).items():
        m, p = by["msgspec"], by["pydantic"]
        prod = f"{by['product']:9.1f}" if "product" in by else f"{'':9}"
        print(f"{op:10} {m:9.1f} {p:9.1f} {p / m:5.1f}x {prod}")


def test_both_print_the_answer() -> None:
    check(answers()[::10])


if __name__ == "__main__":
    main()
