"""A gRPC port's listening sockets: connections reach gRPC only once they send (issue 34, item 1).

A connection flood (two processes opening 20 000 connections as fast as they
can and sending nothing) filled the service port's connection cap
(``server.grpc_options``) with connections that never send their HTTP/2
preface: for the 2 s of the handshake deadline a fresh client's connection
was closed as it was accepted (UNAVAILABLE at once; measured: every fresh
connection for the first 1.5 s of a 2 × 3000 flood). gRPC's C core holds the
listening socket and offers no hook on its accept (no pool of its own for
connections still handshaking, no limit per peer), so the kernel is asked to
keep those connections instead: with ``TCP_DEFER_ACCEPT`` a connection is
handed to ``accept()`` only once its first bytes have arrived. A gRPC client
sends its preface as soon as it connects, so it is accepted at once; a
connection that sends nothing waits in the kernel's queue of half-open
connections, holds no descriptor and no place at gRPC's cap, and is dropped
by the kernel once the deferral and its SYN-ACK retries run out, or accepted
then and closed at gRPC's handshake deadline.

One listening socket's queue of half-open connections is bounded by the listen
backlog (``net.core.somaxconn``, 4096 here). Past it the kernel answers with SYN
cookies, and a connection made by a cookie is accepted on its first ACK, data or
not: the flood reached gRPC's cap again and turned fresh clients away for ~2 s
(measured with 2 × 10 000 connections: 15 of 58 fresh health checks UNAVAILABLE).
So a port listens on several sockets sharing it (``SO_REUSEPORT``; the kernel
spreads connections over them by their addresses), as many as hold
``HALF_OPEN_HELD`` silent connections between them; each has its share of the
port's connection cap (gRPC counts the cap per listening socket). Another
process listening on the same port is an error, as it was without sharing
(``foreign_listeners``).

The sockets are found by their bound port among the process's descriptors (the C
core opens them in ``add_insecure_port``); the option is set on a duplicate,
which shares the socket.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any, Protocol

log = logging.getLogger("route18xx.server")

#: How long the kernel keeps a connection that has sent nothing from gRPC's ``accept()``.
#: Linux counts it in SYN-ACK retransmissions (1 s, 2 s, 4 s, …): 30 s is five of them,
#: past the flood of issue 34 (its connections gone before they are ever accepted).
DEFER_ACCEPT_S = 30
#: Silent connections a port keeps from gRPC's ``accept()`` between its listening sockets:
#: issue 34's flood was 20 000.
HALF_OPEN_HELD = 32768
#: Listening sockets a port has at most (each is one descriptor and one poll of gRPC's).
MAX_LISTENERS = 16
#: The listen backlog where the kernel's is unknown (Linux's default since 5.4).
DEFAULT_BACKLOG = 4096


def kernel_backlog() -> int:
    """The longest listen backlog the kernel grants (``net.core.somaxconn``)."""
    try:
        with open("/proc/sys/net/core/somaxconn", encoding="ascii") as setting:
            return max(1, int(setting.read().strip()))
    except (OSError, ValueError):
        return DEFAULT_BACKLOG


#: The fewest connections of the port's cap each listening socket holds: the kernel spreads
#: connections over the sockets by their addresses, not evenly, so a small share would
#: refuse a connection while the port's cap has room.
MIN_SHARE = 32


def listener_count(max_connections: int | None, backlog: int | None = None) -> int:
    """Listening sockets a port needs to hold ``HALF_OPEN_HELD`` silent connections; where
    they split a cap of ``max_connections`` (gRPC's), each with a share of at least
    ``MIN_SHARE``; one where the platform cannot defer accepting."""
    if getattr(socket, "TCP_DEFER_ACCEPT", None) is None or not hasattr(socket, "SO_REUSEPORT"):
        return 1
    queue = kernel_backlog() if backlog is None else backlog
    wanted = -(-HALF_OPEN_HELD // queue)
    if max_connections is not None:
        wanted = min(wanted, max_connections // MIN_SHARE)
    return max(1, min(MAX_LISTENERS, wanted))


def _socket_inode(fd: int) -> int | None:
    try:
        link = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    return int(link[8:-1]) if link.startswith("socket:[") else None


def _listening_on(port: int) -> list[tuple[str, int]]:
    """Every TCP socket of the system listening on ``port``: (local address, inode), the
    address as ``/proc/net/tcp{,6}`` writes it, an IPv4-mapped IPv6 one as its IPv4."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as rows:
                lines = rows.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, _, port_hex = fields[1].rpartition(":")
            if fields[3] == "0A" and int(port_hex, 16) == port:
                if len(address) == 32 and address.startswith("0000000000000000FFFF0000"):
                    address = address[24:]
                found.append((address, int(fields[9])))
    return found


def foreign_listeners(port: int) -> int:
    """TCP sockets of other processes listening on ``port`` where this process's do (the same
    address, or either a wildcard); 0 where the system does not say (outside Linux)."""
    if not os.path.isdir("/proc/self/fd"):
        return 0
    inodes = {_socket_inode(int(name)) for name in os.listdir("/proc/self/fd")}
    listening = _listening_on(port)
    ours = {address for address, inode in listening if inode in inodes}

    def clashes(address: str) -> bool:
        return address in ours or set(address) == {"0"} or any(set(a) == {"0"} for a in ours)

    return sum(1 for address, inode in listening if inode not in inodes and clashes(address))


class Listener(Protocol):
    """What ``listen`` needs of a gRPC server."""

    def add_insecure_port(self, address: str) -> int: ...


def listen(server: Listener, host: str, port: int, listeners: int, what: str) -> int:
    """Bind ``listeners`` sockets of ``server`` on ``host:port`` (a free port where 0),
    defer their accepting, and return the port; ``OSError`` naming ``what`` where the
    address is in use (by another process too) or not an address."""
    try:
        bound: int = server.add_insecure_port(f"{host}:{port}")
        for _ in range(listeners - 1):
            if bound == 0 or server.add_insecure_port(f"{host}:{bound}") != bound:
                bound = 0
    except RuntimeError:
        bound = 0
    if bound == 0 or foreign_listeners(bound):
        raise OSError(f"cannot listen for {what} on {host}:{port} (in use or not an address)")
    defer_accept(bound)  # a connection that sends nothing never reaches gRPC's cap
    return bound


def listening_sockets(port: int) -> list[int]:
    """This process's descriptors of TCP sockets listening on ``port``."""
    found = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                continue
            sock = socket.socket(fileno=os.dup(fd))
        except OSError:  # closed meanwhile, or not a socket we may read
            continue
        try:
            if (sock.type == socket.SOCK_STREAM
                    and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
                    and sock.getsockname()[1] == port):
                found.append(fd)
        except OSError:
            pass
        finally:
            sock.close()
    return found


def defer_accept(port: int, seconds: int = DEFER_ACCEPT_S) -> int:
    """Set ``TCP_DEFER_ACCEPT`` on every socket listening on ``port``; how many were set.

    Where the platform has no such option (not Linux) nothing changes: the port
    keeps gRPC's connection cap and handshake deadline alone.
    """
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    if option is None:
        return 0
    done = 0
    for fd in listening_sockets(port):
        sock = socket.socket(fileno=os.dup(fd))
        try:
            sock.setsockopt(socket.IPPROTO_TCP, option, seconds)
            done += 1
        except OSError as exc:
            log.warning("port %d: cannot defer accepting silent connections: %s", port, exc)
        finally:
            sock.close()
    return done


def _bind_one(family: int, address: tuple[Any, ...], shared: bool) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if shared:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(kernel_backlog())
    except BaseException:
        sock.close()
        raise
    return sock


def open_listeners(host: str, port: int, listeners: int, what: str) -> list[socket.socket]:
    """``listeners`` listening sockets sharing ``host:port`` (a free port where 0) for each of
    the host's addresses, as ``asyncio``'s server binds them, each deferring its accepting;
    ``OSError`` naming ``what`` where the address is in use (by another process too) or not
    an address. For servers that take their sockets (uvicorn's)."""
    try:
        addresses = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError):
        raise OSError(f"cannot listen for {what} on {host}:{port} (not an address)") from None
    opened: list[socket.socket] = []
    try:
        for family, address in dict.fromkeys((a[0], a[4]) for a in addresses):
            for _ in range(listeners):
                bound = opened[0].getsockname()[1] if opened else port
                opened.append(_bind_one(family, (address[0], bound, *address[2:]),
                                        listeners > 1))
        bound = opened[0].getsockname()[1]
        if foreign_listeners(bound):
            raise OSError(f"{host}:{bound} is in use by another process")
    except OSError:
        for sock in opened:
            sock.close()
        raise OSError(f"cannot listen for {what} on {host}:{port} (in use or not an address)") \
            from None
    defer_accept(bound)
    return opened
