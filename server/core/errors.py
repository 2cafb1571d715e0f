"""The one table from domain errors to gRPC status codes (STYLE.md §1, §5; DESIGN.md §4).

``status_for`` turns any exception raised while serving a call into a
``google.rpc.Status`` with rich details (grpcio-status):

=======================  ======================  ===================================
exception                code                    details
=======================  ======================  ===================================
``MalformedInput``       INVALID_ARGUMENT        ``BadRequest`` naming the field
``BadMessage``           INVALID_ARGUMENT        ``BadRequest`` naming ``request``
``IllegalAction``        FAILED_PRECONDITION     ``ErrorInfo`` with the rule's code
``RouteLevelOnly``       FAILED_PRECONDITION     — (a log of a title played at route level only)
``LogNotFound``          NOT_FOUND               ``BadRequest`` naming ``game_id``/``url``
``LogSourceFailed``      FAILED_PRECONDITION     ``BadRequest`` naming ``game_id``/``url``
``DeadlineExceeded``     DEADLINE_EXCEEDED       —
``OutOfTime``            DEADLINE_EXCEEDED       — (CANCELLED when the client cancelled)
``Overloaded``           RESOURCE_EXHAUSTED      ``RetryInfo`` with the retry delay
``TooLarge``             RESOURCE_EXHAUSTED      — (a request over the message limit)
``ServerStopping``       UNAVAILABLE             —
``FetchStopped``         UNAVAILABLE             — (a log fetch cut short by shutdown)
``WorkerLost``           UNAVAILABLE             — (a worker process died: retry)
anything else            INTERNAL                — (generic message; logged here)
=======================  ======================  ===================================

A client never sees a traceback: an unexpected error is logged with its
traceback on the server and answered with a fixed message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from route18xx.engine.api import IllegalAction, MalformedInput, OutOfTime, RouteLevelOnly
from route18xx.server.core.log_source import FetchStopped, LogNotFound, LogSourceFailed

log = logging.getLogger("route18xx.server")

ERROR_DOMAIN = "route18xx"
INTERNAL_MESSAGE = "internal error; the server logged the details"


class DeadlineExceeded(Exception):
    """The solve could not finish (or prove optimality) within the time it was given."""


class ServerStopping(Exception):
    """The worker pool no longer accepts work: the server is shutting down."""


class Overloaded(Exception):
    """A lane is full: the call is refused now rather than queued without bound."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class TooLarge(Exception):
    """A request over the message limit (HTTP: its body, or what it decompresses to)."""


class WorkerLost(Exception):
    """The engine worker process running the call died (the pool is replaced)."""


class BadMessage(Exception):
    """The request's bytes are not a message of the method's request type."""

    field = "request"

    @property
    def reason(self) -> str:
        return str(self)


@dataclass(frozen=True)
class _Mapping:
    code: grpc.StatusCode
    details: Callable[[Exception], list[Message]]
    #: Overrides ``code`` for exceptions whose status depends on the instance.
    code_of: Callable[[Exception], grpc.StatusCode] | None = None


def _bad_request(exc: Exception) -> list[Message]:
    assert isinstance(exc, (MalformedInput, BadMessage))
    bad = error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=exc.field, description=exc.reason)
        ]
    )
    return [bad]


def _error_info(exc: Exception) -> list[Message]:
    assert isinstance(exc, IllegalAction)
    return [error_details_pb2.ErrorInfo(reason=exc.code, domain=ERROR_DOMAIN)]


def _no_details(exc: Exception) -> list[Message]:
    return []


def _retry_info(exc: Exception) -> list[Message]:
    assert isinstance(exc, Overloaded)
    delay = duration_pb2.Duration()
    delay.FromMilliseconds(int(exc.retry_after_s * 1000))
    return [error_details_pb2.RetryInfo(retry_delay=delay)]


def _out_of_time_code(exc: Exception) -> grpc.StatusCode:
    assert isinstance(exc, OutOfTime)
    return grpc.StatusCode.DEADLINE_EXCEEDED if exc.expired else grpc.StatusCode.CANCELLED


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


#: The table: exception class → status code and rich details. Looked up by MRO.
ERROR_TABLE: dict[type[Exception], _Mapping] = {
    LogNotFound: _Mapping(grpc.StatusCode.NOT_FOUND, _bad_request),
    LogSourceFailed: _Mapping(grpc.StatusCode.FAILED_PRECONDITION, _bad_request),
    MalformedInput: _Mapping(grpc.StatusCode.INVALID_ARGUMENT, _bad_request),
    BadMessage: _Mapping(grpc.StatusCode.INVALID_ARGUMENT, _bad_request),
    IllegalAction: _Mapping(grpc.StatusCode.FAILED_PRECONDITION, _error_info),
    RouteLevelOnly: _Mapping(grpc.StatusCode.FAILED_PRECONDITION, _no_details),
    DeadlineExceeded: _Mapping(grpc.StatusCode.DEADLINE_EXCEEDED, _no_details),
    OutOfTime: _Mapping(grpc.StatusCode.DEADLINE_EXCEEDED, _no_details, _out_of_time_code),
    Overloaded: _Mapping(grpc.StatusCode.RESOURCE_EXHAUSTED, _retry_info),
    TooLarge: _Mapping(grpc.StatusCode.RESOURCE_EXHAUSTED, _no_details),
    ServerStopping: _Mapping(grpc.StatusCode.UNAVAILABLE, _no_details),
    FetchStopped: _Mapping(grpc.StatusCode.UNAVAILABLE, _no_details),
    WorkerLost: _Mapping(grpc.StatusCode.UNAVAILABLE, _no_details),
}


def _lookup(exc: Exception) -> _Mapping | None:
    for cls in type(exc).__mro__:
        if cls in ERROR_TABLE:
            return ERROR_TABLE[cls]
    return None


@dataclass(frozen=True)
class CallError:
    """What a client of any transport (gRPC, Connect, gRPC-Web) hears for an exception."""

    code: grpc.StatusCode
    message: str
    details: list[Message]


def call_error(exc: Exception) -> CallError:
    """The status code, message and rich details for ``exc``, from the one table."""
    mapping = _lookup(exc)
    if mapping is None:
        log.error("unexpected error while serving a call", exc_info=exc)
        return CallError(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE, [])
    code = mapping.code_of(exc) if mapping.code_of else mapping.code
    return CallError(code, _bounded(str(exc)), mapping.details(exc))


def status_for(exc: Exception) -> status_pb2.Status:
    """The ``google.rpc.Status`` a gRPC client receives for ``exc``."""
    error = call_error(exc)
    return status_pb2.Status(
        code=error.code.value[0], message=error.message, details=[_pack(d) for d in error.details]
    )


#: The longest status message sent: a message travels in a header.
MAX_MESSAGE_CHARS = 1000


def _bounded(message: str) -> str:
    """A status message cut to ``MAX_MESSAGE_CHARS`` (client values are quoted short already)."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[: MAX_MESSAGE_CHARS - 1] + "…"


def field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    """Client side: the (field, reason) pairs of a BadRequest detail, if any."""
    status = rpc_status.from_call(error)
    out: list[tuple[str, str]] = []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            out.extend((v.field, v.description) for v in bad.field_violations)
    return out
