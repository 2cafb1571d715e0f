"""Issue 34, item 1: a port's listening sockets hold a flood past one kernel queue, and
sharing a port stays within this process (``server.rpc.listen_socket``)."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from route18xx.server.rpc.listen_socket import (
    HALF_OPEN_HELD,
    MAX_LISTENERS,
    MIN_SHARE,
    listen,
    listener_count,
    open_listeners,
)

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="TCP_DEFER_ACCEPT and /proc are Linux's")


@linux_only
def test_enough_listeners_hold_the_flood_between_their_queues() -> None:
    assert listener_count(None, backlog=4096) * 4096 >= HALF_OPEN_HELD
    assert listener_count(None, backlog=4096) == -(-HALF_OPEN_HELD // 4096)
    assert listener_count(None, backlog=HALF_OPEN_HELD) == 1
    assert listener_count(None, backlog=16) == MAX_LISTENERS  # bounded


@linux_only
def test_a_split_cap_leaves_each_listener_a_fair_share() -> None:
    """gRPC counts its connection cap per listening socket: a small cap is not split."""
    assert listener_count(MIN_SHARE - 1, backlog=4096) == 1
    assert listener_count(2 * MIN_SHARE, backlog=4096) == 2
    assert listener_count(1000, backlog=4096) * MIN_SHARE <= 1000


def _defers(sock: socket.socket) -> bool:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT) > 0


@linux_only
def test_open_listeners_share_one_port_and_defer() -> None:
    sockets = open_listeners("127.0.0.1", 0, 3, "test")
    try:
        ports = {sock.getsockname()[1] for sock in sockets}
        assert len(sockets) == 3 and len(ports) == 1
        assert all(_defers(sock) for sock in sockets)
    finally:
        for sock in sockets:
            sock.close()


HOLDER = """
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen()
print(s.getsockname()[1], flush=True)
time.sleep(60)
"""


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port another process listens on, willing to share it (``SO_REUSEPORT``)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, "127.0.0.1", "0"],
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None
        yield int(holder.stdout.readline())
    finally:
        holder.kill()
        holder.wait()


@linux_only
def test_a_port_another_process_listens_on_is_refused(held_port: int) -> None:
    """The sockets share their port with each other only: another process listening there,
    even one that would share, is an error as it was with one socket."""
    with pytest.raises(OSError, match="cannot listen for HTTP on 127.0.0.1"):
        open_listeners("127.0.0.1", held_port, 2, "HTTP")
    server = grpc.server(futures.ThreadPoolExecutor(1), options=[("grpc.so_reuseport", 1)])
    try:
        with pytest.raises(OSError, match="cannot listen for gRPC on 127.0.0.1"):
            listen(server, "127.0.0.1", held_port, 2, "gRPC")
    finally:
        server.stop(None)


@linux_only
def test_grpc_listens_on_as_many_deferring_sockets() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(1), options=[("grpc.so_reuseport", 1)])
    try:
        port = listen(server, "127.0.0.1", 0, 3, "gRPC")
        from route18xx.server.rpc.listen_socket import listening_sockets

        found = listening_sockets(port)
        assert len(found) == 3
        for fd in found:
            sock = socket.socket(fileno=socket.dup(fd))
            try:
                assert _defers(sock)
            finally:
                sock.close()
    finally:
        server.stop(None)


@linux_only
def test_another_address_on_the_same_port_is_no_clash(held_port: int) -> None:
    """A process listening on 127.0.0.1:P leaves 127.0.0.2:P free, as a plain bind would."""
    sockets = open_listeners("127.0.0.2", held_port, 2, "HTTP")
    try:
        assert {sock.getsockname() for sock in sockets} == {("127.0.0.2", held_port)}
    finally:
        for sock in sockets:
            sock.close()
