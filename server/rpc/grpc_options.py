"""Channel options both gRPC servers share: one listener per port, calls per connection (issue 20).

``grpc.max_concurrent_streams`` is the connection's HTTP/2
SETTINGS_MAX_CONCURRENT_STREAMS: a gRPC client queues its calls beyond it (it
does not fail them), a client that ignores it has the excess refused
(REFUSED_STREAM), so one connection holds at most that many calls of the
server's cap. ``grpc.http.overload_protection`` is off because, on, gRPC counts a
stream until the Python call object that served it is freed, not until the
stream ends: a client multiplexing 40 cheap calls on one connection then had 18
of 120 refused as UNAVAILABLE (measured, limit 32); off, none is.
"""

from __future__ import annotations

from typing import Any


def connection_options(streams_per_connection: int) -> list[tuple[str, Any]]:
    """The options that bound one listener and one connection."""
    return [
        ("grpc.so_reuseport", 0),  # a port in use is an error, not a shared listener
        ("grpc.max_concurrent_streams", streams_per_connection),
        ("grpc.http.overload_protection", 0),
    ]
