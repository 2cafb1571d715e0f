"""The operator's HTTP pages: ``/metrics`` (Prometheus), ``/readyz`` and ``/healthz`` (issue 23).

They are plain routes, answered on the event loop: no lane, no call core, no
call cap, so they answer while every lane is full; at the HTTP connection cap,
connections kept for them answer them (``server.http_conn``). They are mounted on the
HTTP front end (``server.http_app``) and, when it is off, served alone on the
``--metrics-port`` (``create_ops_app``).

``/metrics`` is prometheus-client's exposition of the server's registry
(``server.metrics``), in the text or OpenMetrics format as the scraper's
``Accept`` header asks, rendered at most once a second (``ServerMetrics.render``).
``/readyz`` is 200 when the server is ready, 503 with the reasons when not
(``server.readiness``); either way it lists the calls a dependency keeps from answering
(``unavailable``: ``FetchGameLog`` while the log site fails), which never make the server
unready. ``/healthz`` is liveness: 200
while the server runs (readiness may be false meanwhile).
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from route18xx.server.httpd.http_headers import SecurityHeaders
from route18xx.server.ops.metrics import ServerMetrics
from route18xx.server.ops.readiness import Readiness
from route18xx.server.ops.version import VERSION_HEADER, version_text


#: The operator's pages, served outside every lane and cap.
OPS_PATHS = frozenset({"/metrics", "/readyz", "/healthz"})


def ops_routes(metrics: ServerMetrics, readiness: Readiness) -> list[BaseRoute]:
    """``/metrics`` and ``/readyz`` for ``metrics`` and ``readiness``."""

    async def metrics_page(request: Request) -> Response:
        page, content_type = metrics.render(request.headers.get("accept", ""))
        return Response(page, media_type=None, headers={"content-type": content_type})

    async def readyz(request: Request) -> Response:
        reasons = readiness.reasons()
        return JSONResponse({"ready": not reasons, "reasons": reasons,
                             "unavailable": readiness.unavailable()},
                            status_code=503 if reasons else 200,
                            headers={"cache-control": "no-store"})

    async def healthz(request: Request) -> Response:
        return JSONResponse({"live": True}, headers={"cache-control": "no-store"})

    return [Route("/metrics", metrics_page, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/healthz", healthz, methods=["GET"])]


def version_headers() -> Middleware:
    """Every HTTP answer names the version that made it (``x-route18xx-version``)."""
    return Middleware(SecurityHeaders,
                      headers=((VERSION_HEADER.encode(), version_text().encode("ascii")),))


def create_ops_app(metrics: ServerMetrics, readiness: Readiness) -> Starlette:
    """The two pages alone, for the ``--metrics-port`` when the HTTP front end is off."""
    return Starlette(routes=ops_routes(metrics, readiness), middleware=[version_headers()])
