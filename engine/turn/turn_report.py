"""What a whole-turn suggestion reports (``engine.api.suggest_turn``), typed and frozen.

``to_json()`` is the object ``route18xx suggest --turn --json`` prints; the
service's client rebuilds the same report from a ``SuggestTurnResponse``. Each type
is declared (``engine.declared``, issue 32 item 4): its fields are its keys, in order;
a ranked plan is a plan (``RankedPlanReport`` extends ``PlanReport``), so its keys
follow the plan's.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import asdict

from route18xx.engine.answer.reports import RouteReport
from route18xx.engine.declared import Declared


class PlanLay(Declared, frozen=True):
    """One tile lay of a plan: where, what, its terrain cost, the private whose ability lays it."""

    hex: str
    tile: str
    rotation: int
    cost: int
    private: str | None


class PlanToken(Declared, frozen=True):
    """The plan's station token: the city and its price."""

    hex: str
    city: int
    price: int


class PlanReport(Declared, frozen=True):
    """A plan: its lays in the order made, its token (or none) and its total cost."""

    lays: tuple[PlanLay, ...]
    token: PlanToken | None
    cost: int

    @property
    def plan(self) -> PlanReport:
        """The plan alone (of a plan extended with what it earns: ``RankedPlanReport``)."""
        return PlanReport(self.lays, self.token, self.cost)


class RankedPlanReport(PlanReport, frozen=True, kw_only=True):
    """A ranked plan: the plan, then what it earns, its gain over doing nothing, its
    routes, and the board it leaves as a state file (``state_after``: what
    ``RenderBoard`` draws). ``RankedPlanReport.of`` a plan."""

    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: tuple[RouteReport, ...]
    state_after: dict[str, Any]

    @classmethod
    def of(cls, plan: PlanReport, income: int, gain: int, score: int, proven_optimal: bool,
           routes: tuple[RouteReport, ...], state_after: dict[str, Any]) -> RankedPlanReport:
        return cls(**asdict(plan), income=income, gain=gain, score=score,
                   proven_optimal=proven_optimal, routes=routes, state_after=state_after)


class TrainAdvice(Declared, frozen=True):
    """One purchase the company may make now and what its trains would then earn."""

    source: str  # "depot", "trade_in" or "corporation"
    seller: str | None
    train: str
    traded_in: str | None
    price: int
    max_price: int
    affordable: bool
    phase: str
    trains_after: tuple[str, ...]
    discards: bool
    income: int
    proven_optimal: bool


class TrainsAdvice(Declared, frozen=True):
    """The train advice after the best plan: the income it earns with today's trains, whether
    the market was given (``market_known``; else the depot's train of the phase is assumed),
    each purchase, and the rules the advice follows (``engine.train_advice.rules_followed``)."""

    income_now: int
    market_known: bool
    options: tuple[TrainAdvice, ...]
    rules: tuple[str, ...]


class TurnReport(Declared, frozen=True, kw_only=True):
    """The whole-turn ranking, the train advice after the best plan, and how it went."""

    corporation: str
    objective: str
    subtract_cost: bool
    base_income: int
    base_proven_optimal: bool
    plans: tuple[RankedPlanReport, ...]
    train_advice: TrainsAdvice = msgspec.field(name="trains")
    lay_boards: int
    candidates: int
    plans_solved: int
    solves: int
    reused: int
    bound_solves: int
    pruned_by_lay_bound: int
    pruned_by_token_bound: int
    pruned_by_train_bound: int = 0
    train_bound_solves: int = 0
    unranked: tuple[PlanReport, ...]
    elapsed_ms: float
    #: How the title writes money (``GameData.currency_format``), for printed prices;
    #: not in ``to_json`` (GetInfo lists each title's).
    currency_format: str = "%s"

    @property
    def pruned(self) -> int:
        return self.pruned_by_lay_bound + self.pruned_by_train_bound + self.pruned_by_token_bound

    def to_json(self) -> dict[str, Any]:
        """Hand-written (issue 32 item 4) for one reason: ``currency_format`` is for the
        readable form, and the JSON object never had it."""
        out = super().to_json()
        del out["currency_format"]
        return out


__all__ = ["PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice",
           "TrainsAdvice", "TurnReport"]
