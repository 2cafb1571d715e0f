"""Issue 20's HTTP reproducers against a real ``route18xx serve`` process: each is bounded.

A gzip bomb is refused at once without the memory it would inflate to; a
body that lies about its length is answered and its connection closed; idle
and slow-header connections end after the receive timeout; a flood of idle
connections leaves gRPC, health and HTTP answering; large JSON bodies are
decoded off the event loop, so cheap gRPC calls stay fast meanwhile.
"""

from __future__ import annotations

import json
import socket
import statistics
import time
from pathlib import Path
from typing import Any, Iterator

import grpc
import pytest
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from route18xx.v1 import route_service_pb2 as pb
from tests.server.abuse import (
    ServerProcess, game_log_text, solve_request, start_server, state, stub, timed,
)
from tests.server.http_calls import GRPC_WEB, JSON, envelope, gzip_bomb, leaks, post
from tests.server.http_load import SOLVE, cheap_calls_while, p99
from tests.timing import slowdown, wait_until

RECEIVE_TIMEOUT_S = 2.0
MAX_CONNECTIONS = 200
#: The issue's bounds: a bomb refused within 100 ms, cheap gRPC calls' p99 under 100 ms.
BOUND_S = 0.1
#: Under abuse, cheap calls' median and p99 may be this many times a control run's …
CONTROL_RATIO = 3.0
#: … their p99 at least this (twice the issue's bound: a loaded 2-core machine), never over CEILING_S.
TAIL_FLOOR_S = 0.2
CEILING_S = 0.5


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    yield from start_server(
        "--workers", "2", "--receive-timeout-s", str(RECEIVE_TIMEOUT_S),
        "--max-http-connections", str(MAX_CONNECTIONS), http=True,
    )


@pytest.fixture(scope="module")
def service(served: ServerProcess) -> Iterator[Any]:
    channel, service = stub(served.target)
    service.SolveRoutes(solve_request(state()), timeout=30)  # warm: the first answer is in
    yield service
    channel.close()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return gzip_bomb(1 << 30)  # ~1 MB that inflates to 1 GiB


def _serving(served: ServerProcess) -> bool:
    with grpc.insecure_channel(served.target) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check
        status = check(health_pb2.HealthCheckRequest(), timeout=5).status
    return bool(status == health_pb2.HealthCheckResponse.SERVING)


# -- bodies ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def control(
    served: ServerProcess, service: Any, tmp_path_factory: pytest.TempPathFactory
) -> list[float]:
    """Cheap gRPC calls' latencies while 4 clients loop sending a small body refused at once.

    The issue's bound for cheap calls beside abusive bodies is p99 < 100 ms.
    On 2 cores shared with other work, 4 looping clients slow everything (this
    test's own client too), whatever the server does, so the bodies' tests take
    their bound relative to this control, run in the same module: the same 4
    clients, the same pace, a 8-byte gzip body that is refused as not gzip.
    """
    headers = {"Content-Type": JSON, "Content-Encoding": "gzip"}
    latencies, lines = cheap_calls_while(
        served, service, b"not gzip", headers, tmp_path_factory.mktemp("control"))
    assert lines and all(line.startswith("invalid_argument") for line in lines), lines[:3]
    return latencies


def _assert_as_fast_as(latencies: list[float], control: list[float]) -> None:
    """Cheap calls under abuse are as fast as in the control, with a margin for a busy machine.

    The median, which shows a call queueing behind the abuse (a cheap solve
    waiting on a worker busy with a large body: 0.2-0.3 s), may be at most
    ``CONTROL_RATIO`` times the control's (the issue's 100 ms when that is
    more). The p99 (the 2nd-slowest of 60 calls) is noisier on 2 shared cores
    (at load 10, a few of 60 cheap calls took 100-220 ms beside the large
    bodies while the control's slowest took 41 ms, and in other runs the
    control's own p99 passed 100 ms): at most ``CONTROL_RATIO`` times the
    control's p99 or the control's slowest call, whichever is more, at least
    ``TAIL_FLOOR_S`` and never over ``CEILING_S``.
    """
    median, control_median = statistics.median(latencies), statistics.median(control)
    assert median < max(BOUND_S, CONTROL_RATIO * control_median), (median, control_median)
    bound = min(max(TAIL_FLOOR_S, CONTROL_RATIO * p99(control), max(control)), CEILING_S)
    assert p99(latencies) < bound, (sorted(latencies)[-5:], sorted(control)[-5:])


def test_a_gzip_bomb_is_refused_at_once_and_grpc_stays_fast(
    served: ServerProcess, service: Any, bomb: bytes, control: list[float], tmp_path: Path
) -> None:
    """While 4 clients send 1 GiB bombs in a loop, cheap gRPC calls are as fast as in the control.

    The bombs may not make the cheap calls slower than the control by more than
    ``_assert_as_fast_as`` allows: a bomb inflated on the event loop held it
    5-14 s per bomb, far past it. The server's process tree grows less than 20 MiB meanwhile,
    and a bomb alone is refused within the issue's 100 ms.
    """
    headers = {"Content-Type": JSON, "Content-Encoding": "gzip"}
    first = post(served.http_url, SOLVE, bomb, headers)  # pages touched once
    assert (first.status, first.code) == (429, "resource_exhausted"), first
    assert "4 MiB" in first.message and not leaks(first.message), first.message
    before = served.rss_mib()
    latencies, lines = cheap_calls_while(served, service, bomb, headers, tmp_path)
    assert len(lines) >= 20 and all(line.startswith("resource_exhausted") for line in lines), (
        len(lines), lines[:3])
    # Alone, a bomb is refused within the bound (the 4 senders above share 2 cores).
    alone = min(post(served.http_url, SOLVE, bomb, headers).seconds for _ in range(5))
    assert alone < BOUND_S, alone
    _assert_as_fast_as(latencies, control)
    assert served.rss_mib() < before + 20, (before, served.rss_mib())


def test_a_grpc_web_gzip_bomb_is_refused(served: ServerProcess, bomb: bytes) -> None:
    answer = post(served.http_url, SOLVE, envelope(bomb, flags=1),
                  {"Content-Type": GRPC_WEB, "grpc-encoding": "gzip"})
    assert answer.code == "resource_exhausted", answer
    assert "4 MiB" in answer.message
    assert answer.seconds < 1.0


def test_a_lying_content_length_is_answered_and_closed(served: ServerProcess) -> None:
    """Content-Length 64 MiB, 300 bytes sent: refused from the header, the connection closed."""
    assert served.http_port is not None
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=5) as sock:
        sock.sendall(
            f"POST {SOLVE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {JSON}\r\n"
            f"Content-Length: {64 << 20}\r\n\r\n".encode() + b"{" * 300
        )
        started = time.monotonic()
        received = _read_until_closed(sock, 5)
        took = time.monotonic() - started
    assert received.startswith(b"HTTP/1.1 429"), received[:200]
    assert b"connection: close" in received.lower()
    assert took < 1.0, took


def test_4_large_json_bodies_leave_grpc_fast(
    served: ServerProcess, service: Any, control: list[float], tmp_path: Path
) -> None:
    """4 clients looping 3.5 MB JSON bodies: cheap gRPC calls are as fast as in the control.

    Each body (700 000 train names) costs ~35 ms of CPU to decode before the
    JSON value limit refuses it, naming ``state.trains``. The solve lane's
    workers decoded them, so cheap solves queued behind them (p99 0.4-0.6 s,
    median 0.2-0.3 s); a JSON body of 64 KiB or more is now decoded in the
    decode lane, a worker process of its own, so the cheap calls only share the
    cores with it. The bound is the bomb test's (``_assert_as_fast_as``):
    relative to the control run, generous for a loaded 2-core machine.
    ``benchmarks/json_bodies.py`` measures it side by side.
    """
    raw = state("129026-743")
    raw["trains"] = ["D"] * 700_000
    body = json.dumps({"state": raw}).encode()
    assert 3.5e6 < len(body) < 4 * 1024 * 1024, len(body)
    latencies, lines = cheap_calls_while(served, service, body, {"Content-Type": JSON}, tmp_path)
    # The senders kept the decode lane busy throughout (decoding ~35 ms of CPU per body).
    assert len(lines) >= 8 and all(line.startswith("invalid_argument") for line in lines), (
        len(lines), lines[:3])
    assert "state.trains" in lines[0]
    _assert_as_fast_as(latencies, control)


def test_a_large_legitimate_json_request_is_answered_as_over_grpc(
    served: ServerProcess, service: Any
) -> None:
    """A game log of 150 kB over Connect JSON (through the decode lane): gRPC's answer."""
    request = pb.SolveRoutesRequest(game_log=game_log_text(), action_id=68)
    body = json_format.MessageToJson(request).encode()
    assert len(body) >= 64 * 1024, len(body)
    answer = post(served.http_url, SOLVE, body, {"Content-Type": JSON}, timeout=30)
    assert answer.status == 200, answer
    over_http = json_format.ParseDict(answer.json, pb.SolveRoutesResponse())
    over_grpc = service.SolveRoutes(request, timeout=30)
    assert over_grpc.routes and over_grpc.revenue > 0  # a real answer to compare
    assert (over_http.revenue, over_http.subsidy) == (over_grpc.revenue, over_grpc.subsidy)
    assert [r.hexes for r in over_http.routes] == [r.hexes for r in over_grpc.routes]


# -- connections ---------------------------------------------------------------------------


def _read_until_closed(sock: socket.socket, timeout_s: float) -> bytes:
    sock.settimeout(timeout_s)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def test_an_idle_connection_is_closed_after_the_receive_timeout(served: ServerProcess) -> None:
    """A connection idle after its first byte is closed. (One that sends nothing at all
    never reaches the server: the kernel keeps it, ``server.rpc.listen_socket``.)"""
    assert served.http_port is not None
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=5) as sock:
        sock.sendall(b"G")
        started = time.monotonic()
        assert _read_until_closed(sock, RECEIVE_TIMEOUT_S + 3) == b""
        assert time.monotonic() - started < RECEIVE_TIMEOUT_S + 1


def test_a_slow_header_connection_is_closed_after_the_receive_timeout(
    served: ServerProcess,
) -> None:
    assert served.http_port is not None
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(f"POST {SOLVE} HTTP/1.1\r\n".encode())
        closed = False
        for i in range(40):  # a header byte every 0.2 s, for up to 8 s
            try:
                sock.sendall(b"X-Slow-%d: 1\r\n" % i)
            except OSError:
                closed = True
                break
            sock.settimeout(0.2)
            try:
                if sock.recv(1024) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
        took = time.monotonic() - started
    assert closed
    assert took < RECEIVE_TIMEOUT_S + 1, took


def test_2000_idle_connections_leave_grpc_health_and_http_answering(
    served: ServerProcess, service: Any
) -> None:
    """A cheap solve answers within 1 s, on a loaded machine within 1 s times the
    slowdown measured in this run (``tests.timing.slowdown``) or 3 times the same solve's
    time just before the flood (issue 34: the bare 1 s failed under load). It is timed
    once the server has taken the flood: its listening socket's accept queue empty
    (``/proc/net/tcp``), not after a guessed 0.5 s."""
    assert served.http_port is not None
    request = solve_request(state("129026-138"))
    control = statistics.median(timed(service.SolveRoutes, request, timeout=5)[2] for _ in range(3))
    idle = []
    try:
        for _ in range(2000):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", served.http_port))
            idle.append(sock)
        assert wait_until(lambda: _accept_queue(served.http_port) == 0, timeout_s=30)
        before = slowdown()
        _, error, took = timed(service.SolveRoutes, request, timeout=5)
        bound = max(1.0 * max(before, slowdown()), CONTROL_RATIO * control)
        assert error is None and took < bound, (error, took, bound, control)
        assert _serving(served)
        answer = post(served.http_url, SOLVE, json.dumps({"state": state("129026-138")}).encode(),
                      {"Content-Type": JSON}, timeout=5)
        assert answer.status == 200, answer
    finally:
        for sock in idle:
            sock.close()
    assert served.alive()


def _accept_queue(port: int | None) -> int:
    """Connections waiting for the server to accept them on ``port`` (a LISTEN socket's
    ``rx_queue`` in ``/proc/net/tcp``); 0 when it has taken every one."""
    waiting = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                waiting += int(fields[4].split(":")[1], 16)
    return waiting


def test_the_server_is_serving_and_small_after_the_abuse(served: ServerProcess) -> None:
    assert served.alive()
    assert _serving(served)
    assert served.rss_mib() < 400, served.rss_mib()
