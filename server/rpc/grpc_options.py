"""Channel options both gRPC servers share: one listener per port, calls per connection (issue 20).

``grpc.max_concurrent_streams`` is the connection's HTTP/2
SETTINGS_MAX_CONCURRENT_STREAMS: a gRPC client queues its calls beyond it (it
does not fail them), a client that ignores it has the excess refused
(REFUSED_STREAM), so one connection holds at most that many calls of the
server's cap. ``grpc.http.overload_protection`` is off because, on, gRPC counts a
stream until the Python call object that served it is freed, not until the
stream ends: a client multiplexing 40 cheap calls on one connection then had 18
of 120 refused as UNAVAILABLE (measured, limit 32); off, none is.

A connection flood (issue 34: two processes opening 20 000 connections as fast
as they can) took every file descriptor, and for ~10 s neither port accepted a
connection (health, gRPC and HTTP blocked). So each port holds at most
``max_connections`` (``grpc.max_allowed_incoming_connections``: the one past it
is closed as it is accepted, its descriptor freed at once), and a connection
must send its HTTP/2 preface and SETTINGS within ``handshake_s``
(``grpc.server_handshake_timeout_ms``), so connections that send nothing do not
keep their places for gRPC's default 120 s. Connections that send nothing at all
do not even reach gRPC: the kernel keeps them until their first bytes
(``server.rpc.listen_socket``), so the deadline runs from those.
"""

from __future__ import annotations

from typing import Any


def connection_options(streams_per_connection: int, max_connections: int,
                       handshake_s: float, listeners: int) -> list[tuple[str, Any]]:
    """The options that bound one port of ``listeners`` listening sockets and one connection.

    The sockets share the port (``server.rpc.listen_socket``: another process on it is
    still an error) and each holds its share of ``max_connections``: gRPC counts its cap
    per listening socket.
    """
    return [
        ("grpc.so_reuseport", 1 if listeners > 1 else 0),
        ("grpc.max_concurrent_streams", streams_per_connection),
        ("grpc.http.overload_protection", 0),
        ("grpc.max_allowed_incoming_connections", max(1, max_connections // listeners)),
        ("grpc.server_handshake_timeout_ms", max(1, int(handshake_s * 1000))),
    ]
