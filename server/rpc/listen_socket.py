"""A gRPC port's listening socket: connections reach gRPC only once they send (issue 34, item 1).

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
connections (bounded by the listen backlog; past it the kernel answers with
SYN cookies), holds no descriptor and no place at gRPC's cap, and is dropped
by the kernel once the deferral and its SYN-ACK retries run out, or accepted
then and closed at gRPC's handshake deadline.

The socket is found by its bound port among the process's descriptors (the C
core opens it in ``add_insecure_port``); the option is set on a duplicate,
which shares the socket.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger("route18xx.server")

#: How long the kernel keeps a connection that has sent nothing from gRPC's ``accept()``.
#: Linux counts it in SYN-ACK retransmissions (1 s, 2 s, 4 s, …): 30 s is five of them,
#: past the flood of issue 34 (its connections gone before they are ever accepted).
DEFER_ACCEPT_S = 30


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
