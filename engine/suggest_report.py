"""What a move suggestion reports (``engine.api.suggest_moves``), typed and frozen.

Issue 10: the front ends read fields, not dict keys. ``to_json()`` gives the
exact object ``route18xx suggest --json`` prints (keys in the same order), and
the service's client rebuilds the same report from a ``SuggestMovesResponse``,
so ``route18xx call suggest --json`` prints the same object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

#: A route in the 18xx.games ``run_routes`` shape as ``solve --json`` prints it
#: (``engine.optimize.routes_report``).
RouteJson: TypeAlias = dict[str, Any]

MoveKind = Literal["tile", "token"]


@dataclass(frozen=True)
class MoveLayReport:
    """One tile lay of a move (a ferry's move lays two)."""

    hex: str
    tile: str
    rotation: int
    cost: int

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "tile": self.tile, "rotation": self.rotation, "cost": self.cost}


@dataclass(frozen=True)
class MoveReport:
    """A move: its kind, where, the first lay's tile, rotation and private, or a token's city."""

    kind: MoveKind
    hex: str
    tile: str | None
    rotation: int | None
    city: int | None
    private: str | None
    lays: tuple[MoveLayReport, ...]
    cost: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hex": self.hex,
            "tile": self.tile,
            "rotation": self.rotation,
            "city": self.city,
            "private": self.private,
            "lays": [lay.to_json() for lay in self.lays],
            "cost": self.cost,
        }


@dataclass(frozen=True)
class Suggestion:
    """A ranked move: the income it allows, its gain over no move, its score and routes."""

    move: MoveReport
    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: tuple[RouteJson, ...]

    def to_json(self) -> dict[str, Any]:
        return self.move.to_json() | {
            "income": self.income,
            "gain": self.gain,
            "score": self.score,
            "proven_optimal": self.proven_optimal,
            "routes": list(self.routes),
        }


@dataclass(frozen=True)
class SuggestReport:
    """The ranking: the income without a move, the best moves, and how the ranking went."""

    corporation: str
    objective: str
    subtract_cost: bool
    base_income: int
    base_proven_optimal: bool
    suggestions: tuple[Suggestion, ...]
    candidates: int
    solved: int
    reused: int
    pruned: int
    not_evaluated: tuple[MoveReport, ...]
    elapsed_ms: float

    def to_json(self) -> dict[str, Any]:
        return {
            "corporation": self.corporation,
            "objective": self.objective,
            "subtract_cost": self.subtract_cost,
            "base_income": self.base_income,
            "base_proven_optimal": self.base_proven_optimal,
            "suggestions": [s.to_json() for s in self.suggestions],
            "candidates": self.candidates,
            "solved": self.solved,
            "reused": self.reused,
            "pruned": self.pruned,
            "not_evaluated": [m.to_json() for m in self.not_evaluated],
            "elapsed_ms": self.elapsed_ms,
        }


__all__ = ["MoveKind", "MoveLayReport", "MoveReport", "RouteJson", "SuggestReport", "Suggestion"]
