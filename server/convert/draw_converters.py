"""RenderBoard ⇄ the drawing (issue 12): request → picture arguments, SVG → response.

The board comes as in every call (``converters.request_source``: a state, or a
game log replayed on the worker); the recorded routes are the request's, or,
with a game log and none given, the run_routes action's own. The picture is
``route18xx.draw.render_svg``'s, so the answer is the text ``route18xx draw``
writes for the same input.
"""

from __future__ import annotations

from typing import Any

from route18xx.engine import api
from route18xx.engine.api import MalformedInput
from route18xx.server.convert import converters, suggest_converters
from route18xx.server.convert.converters import LogSource
from route18xx.v1 import route_service_pb2 as pb

_MODES = {
    pb.ROUTES_MODE_UNSPECIFIED: "optimal",
    pb.ROUTES_MODE_OPTIMAL: "optimal",
    pb.ROUTES_MODE_RECORDED: "recorded",
    pb.ROUTES_MODE_BOTH: "both",
    pb.ROUTES_MODE_NONE: "none",
}


def routes_mode(value: int) -> str:
    mode = _MODES.get(value)  # type: ignore[call-overload]
    if mode is None:
        raise MalformedInput("routes_mode", f"unknown routes mode {value}")
    return str(mode)


def render_board(runner: Any, request: pb.RenderBoardRequest, cancel: Any) -> pb.RenderBoardResponse:
    """The lane's job: the board (a state, or a replayed log), its routes, the SVG."""
    from route18xx.draw import render_svg

    mode = routes_mode(request.routes_mode)
    source = converters.request_source(request)
    recorded: Any = None
    if request.routes:
        recorded = converters.routes_from_proto(request.routes)
    elif isinstance(source, LogSource) and mode in ("recorded", "both"):
        recorded = api.recorded_routes(source.log, source.action_id)
    state = converters.board(source, cancel)
    limit = runner.time_limit(converters.time_limit_from_proto(request.time_limit_s), cancel)
    suggestion = None
    if request.moves and request.suggestion:
        raise api.MalformedInput("moves", "give a suggestion number or moves, not both")
    if request.moves:
        picked = [suggest_converters.move_report(m) for m in request.moves]
        suggestion = api.chosen_suggestion(
            state, picked, time_limit_s=limit, cancel=cancel)
    if request.suggestion < 0:
        raise api.MalformedInput("suggestion", f"must be 0 (none) or more, not {request.suggestion}")
    if request.suggestion:
        report = api.suggest_moves(state, top=request.suggestion, time_limit_s=limit, cancel=cancel)
        moves = report.suggestions
        if len(moves) < request.suggestion:
            raise api.MalformedInput("suggestion", f"only {len(moves)} legal moves were ranked")
        suggestion = moves[request.suggestion - 1]
        limit = runner.time_limit(converters.time_limit_from_proto(request.time_limit_s), cancel)
    try:
        svg = render_svg(state, routes=mode, recorded=recorded, suggestion=suggestion,
                         time_limit_s=limit, cancel=cancel)
    except MalformedInput as exc:
        raise converters.proto_route_field(exc) from None
    return pb.RenderBoardResponse(svg=svg)
