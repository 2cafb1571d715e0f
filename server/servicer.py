"""The ``route18xx.v1.RouteService`` servicer: convert, call the engine, convert back.

Handlers are thin (STYLE.md §1): every error, whatever raised it, leaves
through ``rpc_errors`` and the one table in ``server.errors``.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

import grpc

from engine import api
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from server import converters, suggest_converters
from server.errors import abort
from server.runner import EngineRunner

if TYPE_CHECKING:
    from solver.cancel import CancelToken


@contextmanager
def rpc_errors(context: grpc.ServicerContext) -> Iterator[None]:
    """End the call with the mapped status if the body raises."""
    try:
        yield
    except Exception as exc:  # the table decides; unexpected → INTERNAL, logged
        abort(context, exc)


def _deadline(context: grpc.ServicerContext) -> float | None:
    """The call's deadline on the ``time.monotonic`` clock, or None when it has none."""
    remaining = context.time_remaining()
    return None if remaining is None else time.monotonic() + remaining


def _cancel_token(context: grpc.ServicerContext) -> CancelToken:
    """A token cancelled when the call ends for any reason (client cancel, deadline, done)."""
    token = api.new_cancel_token()
    context.add_callback(token.cancel)
    return token


class RouteServicer(pb_grpc.RouteServiceServicer):
    """SolveRoutes, ValidateRoutes and SuggestMoves over an ``EngineRunner``."""

    def __init__(self, runner: EngineRunner) -> None:
        self._runner = runner

    def SolveRoutes(
        self, request: pb.SolveRoutesRequest, context: grpc.ServicerContext
    ) -> pb.SolveRoutesResponse:
        with rpc_errors(context):
            args = converters.solve_request_from_proto(request)
            report = self._runner.solve(args, _deadline(context), _cancel_token(context))
            return converters.solve_report_to_proto(report)

    def ValidateRoutes(
        self, request: pb.ValidateRoutesRequest, context: grpc.ServicerContext
    ) -> pb.ValidateRoutesResponse:
        with rpc_errors(context):
            source = converters.request_source(request)
            report = self._runner.check(source, converters.routes_from_proto(request.routes))
            return converters.check_report_to_proto(report)

    def SuggestMoves(
        self, request: pb.SuggestMovesRequest, context: grpc.ServicerContext
    ) -> pb.SuggestMovesResponse:
        with rpc_errors(context):
            args = suggest_converters.suggest_request_from_proto(request)
            report = self._runner.suggest(args, _deadline(context), _cancel_token(context))
            return suggest_converters.suggest_report_to_proto(report)
