"""What a move suggestion reports (``engine.api.suggest_moves``), typed and frozen.

Issue 10: the front ends read fields, not dict keys. ``to_json()`` gives the
exact object ``route18xx suggest --json`` prints (keys in the same order), and
the service's client rebuilds the same report from a ``SuggestMovesResponse``,
so ``route18xx call suggest --json`` prints the same object. Each type is declared
(``engine.declared``, issue 32 item 4): its fields are its keys, in order; a ranked
move is a move (``Suggestion`` extends ``MoveReport``), so its keys follow the move's.
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import asdict

from route18xx.engine.answer.reports import RouteReport
from route18xx.engine.declared import Declared

MoveKind = Literal["tile", "token"]


class MoveLayReport(Declared, frozen=True):
    """One tile lay of a move (a ferry's move lays two)."""

    hex: str
    tile: str
    rotation: int
    cost: int
    #: the exits the tile connects at this rotation, e.g. ("W–E (city)",) (``engine.move_words``).
    exits: tuple[str, ...] = ()


class MoveReport(Declared, frozen=True):
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


class Suggestion(MoveReport, frozen=True, kw_only=True):
    """A ranked move: the move, then the income it allows, its gain over no move, its
    score and the optimal routes on the board it leaves (``Suggestion.of`` a move)."""

    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: tuple[RouteReport, ...]
    #: other moves with the same result merged into this one (``merge_equal``): the
    #: same tile on the same hex in other rotations, equal income and score.
    alternatives: tuple[MoveReport, ...] = ()
    #: a lay followed by this token (``combined``); None for a single move.
    then_token: MoveReport | None = None

    @classmethod
    def of(cls, move: MoveReport, income: int, gain: int, score: int, proven_optimal: bool,
           routes: tuple[RouteReport, ...], alternatives: tuple[MoveReport, ...] = (),
           then_token: MoveReport | None = None) -> Suggestion:
        return cls(**asdict(move), income=income, gain=gain, score=score,
                   proven_optimal=proven_optimal, routes=routes, alternatives=alternatives,
                   then_token=then_token)

    @property
    def move(self) -> MoveReport:
        """The move alone."""
        return MoveReport(**{name: getattr(self, name) for name in MoveReport.__struct_fields__})


class RecordedTurn(Declared, frozen=True):
    """What the player did in this operating turn (from the log) and what it allows:
    the lays and token in the order made, the optimal income on the board they leave,
    its gain over no move (None when it could not be solved)."""

    moves: tuple[MoveReport, ...]
    income: int | None
    gain: int | None
    proven_optimal: bool
    routes: tuple[RouteReport, ...] = ()


class SuggestReport(Declared, frozen=True):
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


__all__ = ["MoveKind", "MoveLayReport", "MoveReport", "RecordedTurn", "SuggestReport",
           "Suggestion"]
