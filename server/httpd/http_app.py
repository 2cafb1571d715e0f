"""The RouteService over HTTP: Connect (JSON or binary over HTTP/1.1) and gRPC-Web (issue 13).

Browsers cannot speak native gRPC. connect-python serves the same service
definition (``route18xx/v1/route_service.proto``, stubs in
``route18xx.v1.route_service_connect``) with the Connect protocol — a POST of
the request's protobuf JSON to ``/route18xx.v1.RouteService/SolveRoutes`` — and
with gRPC-Web, on an ASGI server (uvicorn) beside the gRPC one. It is the same
service, not a second one: every call goes through the same ``CallCore`` as
gRPC calls (the same lanes, deadlines — Connect's ``Connect-Timeout-Ms`` or
gRPC-Web's ``grpc-timeout`` — and limits) and its errors through the same table
(``server.errors``), so a bad state is ``invalid_argument`` with the field and
reason, and a ``google.rpc.BadRequest`` detail.

Starlette routes the service, the operator's pages (``/metrics``, ``/readyz``:
``server.ops_http``, outside every lane) and the web page (static files at
``/``), and answers CORS preflights for the configured origins only.
"""

from __future__ import annotations

import asyncio
import time
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.protobuf.message import Message
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Mount
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from route18xx.server.core.calls import METHODS, CallCore, Method
from route18xx.server.core.errors import call_error
from route18xx.server.httpd.http_connect import BoundedRouteServiceApp, Wire, record_outcome
from route18xx.server.httpd.http_headers import SecurityHeaders, allowed_hosts_middleware
from route18xx.server.httpd.ops_http import ops_routes, version_headers
from route18xx.server.ops.readiness import Readiness
from route18xx.v1 import route_service_pb2 as pb

_BY_NAME = {m.name: m for m in METHODS}

#: Request headers a browser may send to the service (Connect and gRPC-Web).
ALLOWED_HEADERS = (
    "content-type", "connect-protocol-version", "connect-timeout-ms", "x-grpc-web",
    "x-user-agent", "grpc-timeout",
)
#: Response headers a browser script may read.
EXPOSED_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin")


class ConnectRouteService:
    """``route18xx.v1.RouteService`` for connect-python, over the shared ``CallCore``."""

    def __init__(self, core: CallCore, max_receive_bytes: int) -> None:
        self._core = core
        self.max_receive_bytes = max_receive_bytes

    async def solve_routes(
        self, request: pb.SolveRoutesRequest, ctx: RequestContext[Any, Any]
    ) -> pb.SolveRoutesResponse:
        response = await self._call(_BY_NAME["SolveRoutes"], request, ctx)
        assert isinstance(response, pb.SolveRoutesResponse)
        return response

    async def validate_routes(
        self, request: pb.ValidateRoutesRequest, ctx: RequestContext[Any, Any]
    ) -> pb.ValidateRoutesResponse:
        response = await self._call(_BY_NAME["ValidateRoutes"], request, ctx)
        assert isinstance(response, pb.ValidateRoutesResponse)
        return response

    async def suggest_moves(
        self, request: pb.SuggestMovesRequest, ctx: RequestContext[Any, Any]
    ) -> pb.SuggestMovesResponse:
        response = await self._call(_BY_NAME["SuggestMoves"], request, ctx)
        assert isinstance(response, pb.SuggestMovesResponse)
        return response

    async def render_board(
        self, request: pb.RenderBoardRequest, ctx: RequestContext[Any, Any]
    ) -> pb.RenderBoardResponse:
        response = await self._call(_BY_NAME["RenderBoard"], request, ctx)
        assert isinstance(response, pb.RenderBoardResponse)
        return response

    async def replay_game(
        self, request: pb.ReplayGameRequest, ctx: RequestContext[Any, Any]
    ) -> pb.ReplayGameResponse:
        response = await self._call(_BY_NAME["ReplayGame"], request, ctx)
        assert isinstance(response, pb.ReplayGameResponse)
        return response

    async def get_info(
        self, request: pb.GetInfoRequest, ctx: RequestContext[Any, Any]
    ) -> pb.GetInfoResponse:
        response = await self._call(_BY_NAME["GetInfo"], request, ctx)
        assert isinstance(response, pb.GetInfoResponse)
        return response

    async def suggest_turn(
        self, request: pb.SuggestTurnRequest, ctx: RequestContext[Any, Any]
    ) -> pb.SuggestTurnResponse:
        response = await self._call(_BY_NAME["SuggestTurn"], request, ctx)
        assert isinstance(response, pb.SuggestTurnResponse)
        return response

    async def fetch_game_log(
        self, request: pb.FetchGameLogRequest, ctx: RequestContext[Any, Any]
    ) -> pb.FetchGameLogResponse:
        response = await self._call(_BY_NAME["FetchGameLog"], request, ctx)
        assert isinstance(response, pb.FetchGameLogResponse)
        return response

    async def _call(self, method: Method, request: Any, ctx: RequestContext[Any, Any]) -> Message:
        """The call on the shared core; its outcome is recorded for the call's log line."""
        timeout_ms = ctx.timeout_ms()
        deadline, cancel = self._core.token(None if timeout_ms is None else timeout_ms / 1000.0)
        # The request arrives undecoded (``Wire``): decoding runs in the lane.
        payload = request.encoded() if isinstance(request, Wire) else request
        try:
            response = await self._core.run(method, payload, cancel)
        except asyncio.CancelledError:
            cancel.cancel()
            record_outcome("CANCELLED")
            raise
        except Exception as exc:  # the table decides; unexpected → INTERNAL, logged there
            error = call_error(exc)
            record_outcome(error.code.name)
            raise ConnectError(Code[error.code.name], error.message, error.details) from None
        finally:
            cancel.cancel()  # the call is over: stop anything still running for it
        late = time.monotonic() >= deadline
        record_outcome("DEADLINE_EXCEEDED" if late else "OK")
        return response


def web_root() -> Path:
    """The folder of the web page's static files (``server/web``)."""
    return Path(str(resources.files("route18xx.server").joinpath("web")))


def create_http_app(
    core: CallCore, *, cors_origins: Sequence[str] = (), max_receive_bytes: int = 4 * 1024 * 1024,
    allowed_hosts: Sequence[str] = ("*",), readiness: Readiness | None = None,
) -> Starlette:
    """The ASGI application: the service under its path, the web page at ``/``.

    Outermost first: security headers and the version on every answer, the Host check
    (``allowed_hosts``), CORS, then the routes.
    """
    service = BoundedRouteServiceApp(
        ConnectRouteService(core, max_receive_bytes), limit=max_receive_bytes, core=core
    )
    routes = [*ops_routes(core.metrics, readiness or Readiness()), Mount(service.path, app=service)]
    root = web_root()
    if root.is_dir():
        # the page's files compressed (issue 34, Lighthouse: 84 KiB less to a phone)
        routes.append(Mount("/", app=GZipMiddleware(StaticFiles(directory=root, html=True), minimum_size=1024)))
    middleware = [
        Middleware(SecurityHeaders),
        version_headers(),
        allowed_hosts_middleware(allowed_hosts),
        Middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=list(ALLOWED_HEADERS),
            expose_headers=list(EXPOSED_HEADERS),
            max_age=600,
        )
    ]
    return Starlette(routes=routes, middleware=middleware)
