"""Health checking on a port of its own, outside the service's call cap (issue 20).

On the service port, health checks are outside the service's call cap, with a
cap of their own (``server.call_cap``), and share the port's connections with
every client. This port serves ``grpc.health.v1.Health`` alone, from the service's own
``HealthServicer`` (so readiness is the same: NOT_SERVING while a lane is
stalled, or while shutting down), on a ``grpc.aio`` server of its own with no
call cap. What bounds it instead: a health request is tiny (messages over
``MAX_MESSAGE_BYTES`` are refused), and one connection holds no more calls at
once than on the service port (``Watch`` streams included).
"""

from __future__ import annotations

import grpc
from grpc_health.v1 import health, health_pb2_grpc

from route18xx.server.grpc_options import connection_options

#: A HealthCheckRequest is one service name.
MAX_MESSAGE_BYTES = 4096


def create_health_server(
    servicer: health.aio.HealthServicer, host: str, port: int, streams_per_connection: int
) -> tuple[grpc.aio.Server, int]:
    """A server (to start) answering health on ``host:port``, and the port it bound."""
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            *connection_options(streams_per_connection),
        ],
    )
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    try:
        bound: int = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise OSError(f"cannot listen for health on {host}:{port} (in use or not an address)")
    return server, bound
