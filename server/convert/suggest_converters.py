"""SuggestMoves: proto ⇄ the engine's ``SuggestReport`` (``engine.api.suggest_moves``).

Split from ``server.converters`` (which it builds on: the state, routes and
objective) to keep each module small. ``suggest_report_from_proto`` rebuilds
the engine's report, so ``route18xx call suggest --json`` prints what
``route18xx suggest --json`` prints (``SuggestReport.to_json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from route18xx.engine.api import (
    DEFAULT_OBJECTIVE, MalformedInput, MoveLayReport, MoveReport, RecordedTurn, SuggestReport,
    Suggestion,
)
from route18xx.v1 import route_service_pb2 as pb
from route18xx.server.convert import converters
from route18xx.server.convert import explain_converters as ex

_MOVE_KINDS = {
    "tile": pb.MOVE_KIND_TILE,
    "token": pb.MOVE_KIND_TOKEN,
}
_MOVE_KIND_NAMES: dict[int, Literal["tile", "token"]] = {
    pb.MOVE_KIND_TILE: "tile",
    pb.MOVE_KIND_TOKEN: "token",
}

#: ``top`` when a SuggestMoves request leaves it out (as ``route18xx suggest``).
DEFAULT_TOP = 10


@dataclass(frozen=True)
class SuggestArgs:
    """A SuggestMoves request in the engine's terms (``engine.api.suggest_moves``)."""

    state: converters.Source
    top: int
    include_tokens: bool
    subtract_cost: bool
    objective: str
    time_limit_s: float | None
    improving_only: bool = False
    merge_equal: bool = False
    combined: bool = False


def suggest_request_to_proto(
    state_raw: Any, top: int = DEFAULT_TOP, include_tokens: bool = False,
    subtract_cost: bool = False, objective: str = DEFAULT_OBJECTIVE, time_limit_s: float | None = None,
    improving_only: bool = False, merge_equal: bool = False, combined: bool = False,
) -> pb.SuggestMovesRequest:
    """Client side: a state file (or a ``LogSource``) and options as a ``SuggestMovesRequest``."""
    if isinstance(top, bool) or not isinstance(top, int) or not -(2**31) <= top < 2**31:
        raise MalformedInput("top", f"must be a whole number, not {top!r}")
    request = pb.SuggestMovesRequest(
        top=top,
        include_tokens=include_tokens,
        subtract_cost=subtract_cost,
        objective=converters.objective_to_proto(objective),
        time_limit_s=time_limit_s or 0.0,
        improving_only=improving_only,
        merge_equal=merge_equal,
        include_combined=combined,
    )
    converters.set_source(request, state_raw)
    return request


def suggest_request_from_proto(request: pb.SuggestMovesRequest) -> SuggestArgs:
    """Server side: the engine's arguments for a ``SuggestMovesRequest``.

    An absent ``top`` is ``DEFAULT_TOP``; a present one goes to the engine as is
    (``top: 0`` is refused there, naming the field).
    """
    state = converters.request_source(request)
    return SuggestArgs(
        state,
        request.top if request.HasField("top") else DEFAULT_TOP,
        request.include_tokens,
        request.subtract_cost,
        converters.objective_name(request.objective),
        converters.time_limit_from_proto(request.time_limit_s),
        request.improving_only,
        request.merge_equal,
        request.include_combined,
    )


def _move_fields(move: MoveReport) -> dict[str, Any]:
    """The ``Move`` fields (1-8, shared by ``Suggestion``) of a move."""
    fields: dict[str, Any] = {
        "kind": _MOVE_KINDS[move.kind],
        "hex": move.hex,
        "lays": [
            pb.MoveLay(hex=lay.hex, tile=lay.tile, rotation=lay.rotation, cost=lay.cost,
                       exits=lay.exits)
            for lay in move.lays
        ],
        "cost": move.cost,
    }
    optional = {"tile": move.tile, "rotation": move.rotation, "city": move.city,
                "private": move.private}
    for key, value in optional.items():
        if value is not None:  # absent in the message = None in the engine's report
            fields[key] = value
    return fields


def move_report(msg: pb.Move | pb.Suggestion) -> MoveReport:
    """A ``Move`` (or a suggestion's move fields) as the engine's ``MoveReport``.

    An unknown kind (a newer server's) reads as ``tile``.
    """
    return MoveReport(
        kind=_MOVE_KIND_NAMES.get(msg.kind, "tile"),
        hex=msg.hex,
        tile=msg.tile if msg.HasField("tile") else None,
        rotation=msg.rotation if msg.HasField("rotation") else None,
        city=msg.city if msg.HasField("city") else None,
        private=msg.private if msg.HasField("private") else None,
        lays=tuple(MoveLayReport(lay.hex, lay.tile, lay.rotation, lay.cost, tuple(lay.exits))
                   for lay in msg.lays),
        cost=msg.cost,
        text=msg.text,
    )


def _suggestion_to_proto(s: Suggestion) -> pb.Suggestion:
    msg = pb.Suggestion(
        **_move_fields(s),
        income=s.income,
        gain=s.gain,
        score=s.score,
        proven_optimal=s.proven_optimal,
        routes=[ex.solved_route_to_proto(r) for r in s.routes],
        alternatives=[_move_to_proto(m) for m in s.alternatives],
        text=s.text,
    )
    if s.then_token is not None:
        msg.then_token.CopyFrom(_move_to_proto(s.then_token))
    return msg


def _suggestion_from_proto(s: pb.Suggestion) -> Suggestion:
    return Suggestion.of(
        move_report(s), s.income, s.gain, s.score, s.proven_optimal,
        tuple(ex.solved_route_from_proto(r) for r in s.routes),
        tuple(move_report(m) for m in s.alternatives),
        move_report(s.then_token) if s.HasField("then_token") else None,
    )


def _move_to_proto(move: MoveReport) -> pb.Move:
    return pb.Move(**_move_fields(move), text=move.text)


def _recorded_to_proto(turn: RecordedTurn) -> pb.RecordedTurn:
    msg = pb.RecordedTurn(moves=[_move_to_proto(m) for m in turn.moves],
                          proven_optimal=turn.proven_optimal,
                          routes=[ex.solved_route_to_proto(r) for r in turn.routes])
    if turn.income is not None:
        msg.income = turn.income
    if turn.gain is not None:
        msg.gain = turn.gain
    return msg


def _recorded_from_proto(msg: pb.RecordedTurn) -> RecordedTurn:
    return RecordedTurn(
        tuple(move_report(m) for m in msg.moves),
        msg.income if msg.HasField("income") else None,
        msg.gain if msg.HasField("gain") else None,
        msg.proven_optimal,
        tuple(ex.solved_route_from_proto(r) for r in msg.routes),
    )


def suggest_report_to_proto(report: SuggestReport) -> pb.SuggestMovesResponse:
    """The engine's suggestion report as a ``SuggestMovesResponse``."""
    msg = pb.SuggestMovesResponse(
        corporation=report.corporation,
        objective=converters.objective_to_proto(report.objective),
        subtract_cost=report.subtract_cost,
        base_income=report.base_income,
        base_proven_optimal=report.base_proven_optimal,
        suggestions=[_suggestion_to_proto(s) for s in report.suggestions],
        candidates=report.candidates,
        solved=report.solved,
        reused=report.reused,
        pruned=report.pruned,
        not_evaluated=[_move_to_proto(m) for m in report.not_evaluated],
        elapsed_ms=report.elapsed_ms,
        verdict=report.verdict,
        combined=[_suggestion_to_proto(s) for s in report.combined],
    )
    if report.recorded is not None:
        msg.recorded.CopyFrom(_recorded_to_proto(report.recorded))
    return msg


def suggest_report_from_proto(msg: pb.SuggestMovesResponse) -> SuggestReport:
    """A ``SuggestMovesResponse`` as the engine's report (``to_json()``: ``suggest --json``)."""
    return SuggestReport(
        corporation=msg.corporation,
        objective=converters.objective_name(msg.objective),
        subtract_cost=msg.subtract_cost,
        base_income=msg.base_income,
        base_proven_optimal=msg.base_proven_optimal,
        suggestions=tuple(_suggestion_from_proto(s) for s in msg.suggestions),
        candidates=msg.candidates,
        solved=msg.solved,
        reused=msg.reused,
        pruned=msg.pruned,
        not_evaluated=tuple(move_report(m) for m in msg.not_evaluated),
        elapsed_ms=msg.elapsed_ms,
        verdict=msg.verdict,
        combined=tuple(_suggestion_from_proto(s) for s in msg.combined),
        recorded=_recorded_from_proto(msg.recorded) if msg.HasField("recorded") else None,
    )
