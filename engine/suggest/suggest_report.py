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
    #: the exits the tile connects at this rotation, e.g. ("W–E (city)",) (``engine.move_words``).
    exits: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "tile": self.tile, "rotation": self.rotation, "cost": self.cost,
                "exits": list(self.exits)}


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
    #: the move in a player's words: "tile 57 on H12 (Tianjin) connects W–E (city)".
    text: str = ""

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
            "text": self.text,
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
    #: other moves with the same result merged into this one (``merge_equal``): the
    #: same tile on the same hex in other rotations, equal income and score.
    alternatives: tuple[MoveReport, ...] = ()
    #: a lay followed by this token (``combined``); None for a single move.
    then_token: MoveReport | None = None

    def to_json(self) -> dict[str, Any]:
        return self.move.to_json() | {
            "income": self.income,
            "gain": self.gain,
            "score": self.score,
            "proven_optimal": self.proven_optimal,
            "routes": list(self.routes),
            "alternatives": [m.to_json() for m in self.alternatives],
            "then_token": self.then_token.to_json() if self.then_token is not None else None,
        }


@dataclass(frozen=True)
class RecordedTurn:
    """What the player did in this operating turn (from the log) and what it allows:
    the lays and token in the order made, the optimal income on the board they leave,
    its gain over no move (None when it could not be solved)."""

    moves: tuple[MoveReport, ...]
    income: int | None
    gain: int | None
    proven_optimal: bool
    routes: tuple[RouteJson, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"moves": [m.to_json() for m in self.moves], "income": self.income,
                "gain": self.gain, "proven_optimal": self.proven_optimal,
                "routes": list(self.routes)}


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
    #: "" when a ranked move raises the score over no move; else what to tell the
    #: player instead of "+¥0" lines: "no lay improves this run" (issue 22).
    verdict: str = ""
    #: the best lay + token pairs (``combined``): each a lay with ``then_token``.
    combined: tuple[Suggestion, ...] = ()
    #: what the player did at this turn, from a game log (None for a state).
    recorded: RecordedTurn | None = None

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
            "verdict": self.verdict,
            "combined": [s.to_json() for s in self.combined],
            "recorded": self.recorded.to_json() if self.recorded is not None else None,
        }


__all__ = ["MoveKind", "MoveLayReport", "MoveReport", "RecordedTurn", "RouteJson", "SuggestReport",
           "Suggestion"]
