"""Health checking on a port of its own, outside the service's call cap (issue 20).

On the service port, health checks are outside the service's call cap, with a
cap of their own (``server.call_cap``), and share the port's connections with
every client. This port serves ``grpc.health.v1.Health`` alone, from the service's own
``HealthServicer`` (so readiness is the same: NOT_SERVING while a lane is
stalled, or while shutting down), on a ``grpc.aio`` server of its own, bounded
as the service port's health checks are:

* a cap of its own, ``call_cap.HEALTH_LIMIT`` checks at once (``Watch`` streams
  included; anything else is refused at ``call_cap.OTHER_LIMIT``); at the cap, the
  check that has waited longest for its request makes room, and a connection's or
  a client's stalled checks beyond their shares make room (``server.call_cap``);
* each check's request read as the service's are (``server.health_calls``): it
  must arrive within the receive timeout, so a stalled check ends;
* a health request is tiny (messages over ``MAX_MESSAGE_BYTES`` are refused),
  one connection holds no more calls at once than on the service port, and the
  port at most ``MAX_CONNECTIONS`` connections (``server.grpc_options``).
"""

from __future__ import annotations

from typing import Any

import grpc
from grpc_health.v1 import health

from route18xx.server.rpc.call_cap import CallCap
from route18xx.server.rpc.grpc_options import connection_options
from route18xx.server.rpc.health_calls import health_handler
from route18xx.server.rpc.listen_socket import listen, listener_count

#: A HealthCheckRequest is one service name.
MAX_MESSAGE_BYTES = 4096
#: Connections open at once: probes are few; a flood on this port closes the excess at once
#: and leaves the other ports their descriptors (issue 34).
MAX_CONNECTIONS = 256


def _no_log_line(*_: Any) -> None:
    """A refused health check has no call-log line (no RouteService call is refused here)."""


def create_health_server(
    servicer: health.aio.HealthServicer, host: str, port: int, streams_per_connection: int,
    receive_timeout_s: float, max_call_s: float, handshake_s: float = 2.0,
) -> tuple[grpc.aio.Server, int, CallCap]:
    """A server (to start) answering health on ``host:port``, the port it bound, and its cap."""
    cap = CallCap(0, _no_log_line, streams_per_connection)  # no RouteService call here
    listeners = listener_count(MAX_CONNECTIONS)
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            *connection_options(streams_per_connection, MAX_CONNECTIONS, handshake_s, listeners),
        ],
        interceptors=[cap],
        maximum_concurrent_rpcs=cap.hard_limit,
    )
    server.add_generic_rpc_handlers([health_handler(servicer, receive_timeout_s, max_call_s)])
    return server, listen(server, host, port, listeners, "health"), cap
