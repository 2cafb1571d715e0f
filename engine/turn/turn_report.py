"""What a whole-turn suggestion reports (``engine.api.suggest_turn``), typed and frozen.

``to_json()`` is the object ``route18xx suggest --turn --json`` prints; the
service's client rebuilds the same report from a ``SuggestTurnResponse``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from route18xx.engine.suggest.suggest_report import RouteJson


@dataclass(frozen=True)
class PlanLay:
    """One tile lay of a plan: where, what, its terrain cost, the private whose ability lays it."""

    hex: str
    tile: str
    rotation: int
    cost: int
    private: str | None

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "tile": self.tile, "rotation": self.rotation,
                "cost": self.cost, "private": self.private}


@dataclass(frozen=True)
class PlanToken:
    """The plan's station token: the city and its price."""

    hex: str
    city: int
    price: int

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "city": self.city, "price": self.price}


@dataclass(frozen=True)
class PlanReport:
    """A plan: its lays in the order made, its token (or none) and its total cost."""

    lays: tuple[PlanLay, ...]
    token: PlanToken | None
    cost: int

    def to_json(self) -> dict[str, Any]:
        return {"lays": [lay.to_json() for lay in self.lays],
                "token": None if self.token is None else self.token.to_json(),
                "cost": self.cost}


@dataclass(frozen=True)
class RankedPlanReport:
    """A ranked plan: what it earns, its gain over doing nothing, its routes, and the
    board it leaves as a state file (``state_after``: what ``RenderBoard`` draws)."""

    plan: PlanReport
    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: tuple[RouteJson, ...]
    state_after: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.plan.to_json() | {
            "income": self.income, "gain": self.gain, "score": self.score,
            "proven_optimal": self.proven_optimal, "routes": list(self.routes),
            "state_after": self.state_after,
        }


@dataclass(frozen=True)
class TrainAdvice:
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

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "seller": self.seller, "train": self.train,
            "traded_in": self.traded_in, "price": self.price, "max_price": self.max_price,
            "affordable": self.affordable, "phase": self.phase,
            "trains_after": list(self.trains_after), "discards": self.discards,
            "income": self.income, "proven_optimal": self.proven_optimal,
        }


@dataclass(frozen=True)
class TurnReport:
    """The whole-turn ranking, the train advice after the best plan, and how it went."""

    corporation: str
    objective: str
    subtract_cost: bool
    base_income: int
    base_proven_optimal: bool
    plans: tuple[RankedPlanReport, ...]
    trains: tuple[TrainAdvice, ...]
    trains_income_now: int
    market_known: bool
    train_rules: tuple[str, ...]
    lay_boards: int
    candidates: int
    plans_solved: int
    solves: int
    reused: int
    bound_solves: int
    pruned_by_lay_bound: int
    pruned_by_token_bound: int
    unranked: tuple[PlanReport, ...]
    elapsed_ms: float
    pruned_by_train_bound: int = 0
    train_bound_solves: int = 0
    #: How the title writes money (``GameData.currency_format``), for printed prices;
    #: not in ``to_json`` (GetInfo lists each title's).
    currency_format: str = "%s"

    @property
    def pruned(self) -> int:
        return self.pruned_by_lay_bound + self.pruned_by_train_bound + self.pruned_by_token_bound

    def to_json(self) -> dict[str, Any]:
        return {
            "corporation": self.corporation,
            "objective": self.objective,
            "subtract_cost": self.subtract_cost,
            "base_income": self.base_income,
            "base_proven_optimal": self.base_proven_optimal,
            "plans": [p.to_json() for p in self.plans],
            "trains": {
                "income_now": self.trains_income_now,
                "market_known": self.market_known,
                "options": [t.to_json() for t in self.trains],
                "rules": list(self.train_rules),
            },
            "lay_boards": self.lay_boards,
            "candidates": self.candidates,
            "plans_solved": self.plans_solved,
            "solves": self.solves,
            "reused": self.reused,
            "bound_solves": self.bound_solves,
            "pruned_by_lay_bound": self.pruned_by_lay_bound,
            "pruned_by_token_bound": self.pruned_by_token_bound,
            "pruned_by_train_bound": self.pruned_by_train_bound,
            "train_bound_solves": self.train_bound_solves,
            "unranked": [p.to_json() for p in self.unranked],
            "elapsed_ms": self.elapsed_ms,
        }


__all__ = ["PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice", "TurnReport"]
