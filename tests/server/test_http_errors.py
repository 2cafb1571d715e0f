"""The HTTP door's one error map, call-log lines, Host check and headers (issue 20, items 3, 4, 8).

Against a real ``route18xx serve``: every request the server cannot read is
answered ``invalid_argument`` naming ``request`` or the field, in the
request's protocol (Connect: HTTP 400; gRPC-Web: its trailers), never 5xx,
``unknown`` or Python's exception text, and every call has its log line. Only
the allowed ``Host`` values are served; the page and the API carry the
security headers. ``--allowed-hosts`` and ``--max-http-connections`` are
checked on a second server, and refused cleanly when invalid.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from typing import Iterator

import pytest

from tests.server.abuse import REPO, ServerProcess, start_server, state
from tests.timing import wait_until
from tests.server.http_calls import (
    GRPC_WEB, JSON, PROTO, SERVICE, Answer, envelope, gzip, leaks, post,
)

SOLVE = f"{SERVICE}/SolveRoutes"
GW_JSON = "application/grpc-web+json"
J = {"Content-Type": JSON}
GW = {"Content-Type": GRPC_WEB}

#: name → (body, headers, the message's start: the field named, or ``request``/``the …``).
MALFORMED: dict[str, tuple[bytes, dict[str, str], str]] = {
    "state-a-number": (b'{"state": 5}', J, "state:"),
    "bad-utf8": (b'{"state": "\xff\xfe"}', J, "request: not UTF-8"),
    "deep-arrays": (b'{"state": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", J, "request:"),
    "deep-objects": (b'{"state": ' + b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"}", J, "request:"),
    "unknown-field": (b'{"state": {"nope": 1}}', J, "state: unknown field 'nope'"),
    "unknown-top-field": (b'{"zzz": 1}', J, "request: unknown field 'zzz'"),
    "not-json": (b"{", J, "request: not JSON"),
    "an-array": (b"[]", J, "request: must be a JSON object"),
    "trains-a-number": (json.dumps({"state": {"trains": 5}}).encode(), J, "state.trains:"),
    "nested-field": (json.dumps({"state": {"tiles": [{"hex": 5}]}}).encode(), J,
                     "state.tiles.hex:"),
    "bad-enum": (b'{"objective": "NOPE"}', J, "objective:"),
    "long-number": (b'{"state": {"cash": 1' + b"0" * 5000 + b"}}", J, "request:"),
    "surrogate": (b'{"state": {"phase": "\\ud800"}}', J, "state.phase:"),
    "proto-garbage": (b"\xff\xff\xff\xff\x0f", {"Content-Type": PROTO}, "the request is not"),
    "bad-gzip": (b"not gzip", {**J, "Content-Encoding": "gzip"}, "the request is not valid gzip"),
    "two-gzip-members": (gzip(b"{}") + gzip(b"{}"), {**J, "Content-Encoding": "gzip"},
                         "request: more than one gzip member"),
    "unknown-encoding": (b"{}", {**J, "Content-Encoding": "br"}, "unknown request encoding"),
    "timeout-not-a-number": (b"{}", {**J, "Connect-Timeout-Ms": "abc"}, "the timeout header"),
    "timeout-negative": (b"{}", {**J, "Connect-Timeout-Ms": "-5"}, "the timeout header"),
    "timeout-signed": (b"{}", {**J, "Connect-Timeout-Ms": "+5"}, "the timeout header"),
    "timeout-too-long": (b"{}", {**J, "Connect-Timeout-Ms": "9" * 20}, "the timeout header"),
    "gw-timeout": (envelope(b""), {**GW, "grpc-timeout": "xyz"}, "the timeout header"),
    "gw-timeout-negative": (envelope(b""), {**GW, "grpc-timeout": "-1S"}, "the timeout header"),
    "gw-short-frame": (b"\x00\x00", GW, "the request is not one enveloped message"),
    "gw-length-lies": (b"\x00\x00\x00\x00\x09abc", GW, "the request is not one enveloped"),
    "gw-two-frames": (envelope(b"") + envelope(b""), GW, "the request is not one enveloped"),
    "gw-unknown-flags": (b"\x40\x00\x00\x00\x00", GW, "the request's envelope has unknown"),
    "gw-compressed-no-encoding": (envelope(b"abc", 1), GW, "the request is marked compressed"),
    "gw-bad-gzip": (envelope(b"abc", 1), {**GW, "grpc-encoding": "gzip"},
                    "the request is not valid gzip"),
    "gw-unknown-encoding": (envelope(b"abc", 1), {**GW, "grpc-encoding": "br"},
                            "unknown request encoding"),
    "gw-proto-garbage": (envelope(b"\xff\xff\xff"), GW, "the request is not"),
    "gw-json-wrong-type": (envelope(b'{"state": 5}'), {"Content-Type": GW_JSON}, "state:"),
    "gw-json-nested": (envelope(b'{"state": {"tiles": [{"hex": 5}]}}'),
                       {"Content-Type": GW_JSON}, "state.tiles.hex:"),
}


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    yield from start_server("--workers", "2", http=True)


def _log_lines(served: ServerProcess, after: int, wanted: int, timeout_s: float = 5.0) -> list[str]:
    """The call-log lines the server wrote past byte ``after`` (waiting for ``wanted`` of them)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with served.log_path.open("rb") as log:
            log.seek(after)
            lines = [line for line in log.read().decode().splitlines() if " http /" in line]
        if len(lines) >= wanted or time.monotonic() > deadline:
            return lines


def _assert_clean_refusal(answer: Answer, start: str) -> None:
    assert answer.code == "invalid_argument", answer
    grpc_web = answer.headers.get("content-type", "").startswith("application/grpc-web")
    assert answer.status == (200 if grpc_web else 400), answer
    assert answer.message.startswith(start), answer.message
    assert not leaks(answer.message), answer.message


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_request_the_server_cannot_read_is_invalid_argument_and_logged(
    served: ServerProcess, name: str
) -> None:
    body, headers, start = MALFORMED[name]
    mark = served.log_path.stat().st_size
    answer = post(served.http_url, SOLVE, body, headers)
    _assert_clean_refusal(answer, start)
    lines = _log_lines(served, mark, 1)
    assert len(lines) == 1 and lines[0].split(" http ")[1].startswith(
        f"{SOLVE} INVALID_ARGUMENT "
    ), lines


def test_every_call_has_its_log_line_whatever_its_outcome(served: ServerProcess) -> None:
    """OK, refused by the service, refused before it (415, 404, 429), each one line."""
    calls = [
        (SOLVE, json.dumps({"state": state("129026-138")}).encode(), J, "OK"),
        (SOLVE, b'{"state": 5}', J, "INVALID_ARGUMENT"),
        (SOLVE, b"{}", {"Content-Type": "text/plain"}, "HTTP_415"),
        (SOLVE, b"{}", {**J, "Content-Length": str(64 << 20)}, "RESOURCE_EXHAUSTED"),
        (f"{SERVICE}/NoSuchMethod", b"{}", J, "HTTP_404"),
        (SOLVE, envelope(b"\x00"), GW, "INVALID_ARGUMENT"),
    ]
    for path, body, headers, outcome in calls:
        mark = served.log_path.stat().st_size
        if "Content-Length" in headers:  # a lying length: sent raw, the body never follows
            _raw_request(served, path, headers)
        else:
            post(served.http_url, path, body, headers)
        lines = _log_lines(served, mark, 1)
        assert len(lines) == 1, (path, outcome, lines)
        assert re.search(rf" http {re.escape(path)} {outcome} [0-9.]+ ms$", lines[0]), lines[0]


def _raw_request(served: ServerProcess, path: str, headers: dict[str, str]) -> bytes:
    assert served.http_port is not None
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{head}\r\n".encode())
        return sock.recv(65536)


# -- Host and headers ----------------------------------------------------------------------


def _get(served: ServerProcess, path: str, host: str) -> Answer:
    import http.client

    assert served.http_port is not None
    conn = http.client.HTTPConnection("127.0.0.1", served.http_port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read(), 0.0)
    finally:
        conn.close()


SECURITY = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _assert_security_headers(answer: Answer) -> None:
    for name, value in SECURITY.items():
        assert answer.headers.get(name) == value, (name, answer.headers)
    csp = answer.headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, csp


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "LOCALHOST:1234"])
def test_the_loopback_names_are_served(served: ServerProcess, host: str) -> None:
    answer = _get(served, "/", host)
    assert answer.status == 200, answer
    assert b"<html" in answer.body.lower()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example"])
def test_another_host_is_refused_on_the_page_and_the_api(served: ServerProcess, host: str) -> None:
    page = _get(served, "/", host)
    assert (page.status, page.body) == (400, b"Invalid host header"), page
    _assert_security_headers(page)
    api = post(served.http_url, SOLVE, b"{}", {**J, "Host": host})
    assert api.status == 400 and api.body == b"Invalid host header", api


def test_the_page_and_the_api_carry_the_security_headers(served: ServerProcess) -> None:
    _assert_security_headers(_get(served, "/", "127.0.0.1"))
    ok = post(served.http_url, SOLVE, json.dumps({"state": state("129026-138")}).encode(), J)
    assert ok.status == 200
    _assert_security_headers(ok)
    _assert_security_headers(post(served.http_url, SOLVE, b"{", J))
    _assert_security_headers(post(served.http_url, SOLVE, envelope(b"\xff"), GW))


# -- the options -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def configured() -> Iterator[ServerProcess]:
    yield from start_server(
        "--workers", "1", "--allowed-hosts", "Route.Example, *.route.example",
        "--max-http-connections", "3", http=True,
    )


def test_allowed_hosts_serves_only_the_names_given(configured: ServerProcess) -> None:
    assert _get(configured, "/", "route.example").status == 200
    assert _get(configured, "/", "api.route.example:8080").status == 200
    assert _get(configured, "/", "127.0.0.1").status == 400  # the defaults are replaced
    assert _get(configured, "/", "evilroute.example").status == 400


def test_max_http_connections_closes_the_connections_past_the_cap(
    configured: ServerProcess,
) -> None:
    """3 allowed: of 8 connections idle in their request head at least 5 are closed at once;
    calls still answered. (A connection that sends nothing at all never reaches the server:
    the kernel keeps it, ``server.rpc.listen_socket``.)"""
    assert configured.http_port is not None
    socks = [socket.create_connection(("127.0.0.1", configured.http_port), timeout=5)
             for _ in range(8)]
    for sock in socks:
        sock.sendall(b"GET / HTTP/1.1\r\n")
    closed: set[int] = set()

    def five_closed() -> bool:  # the event checked, waited for (not a guessed sleep)
        for i, sock in enumerate(socks):
            if i in closed:
                continue
            sock.settimeout(0.01)
            try:
                if sock.recv(1) == b"":
                    closed.add(i)
            except socket.timeout:
                pass
            except OSError:  # reset
                closed.add(i)
        return len(closed) >= 5

    try:
        assert wait_until(five_closed, timeout_s=10), closed
        answer = post(configured.http_url, SOLVE, b"{", {**J, "Host": "route.example"})
        assert answer.code == "invalid_argument", answer
    finally:
        for sock in socks:
            sock.close()


def test_a_flood_from_one_address_makes_room_from_its_own_connections(
    configured: ServerProcess,
) -> None:
    """Issue 34, item 1 (per-peer fairness): 3 allowed; a client's idle keep-alive
    connection outlives 10 connections from another address sending their heads slowly: at
    the cap the address holding the most connections makes room. Before, the oldest idle
    connection went first: the client's, at the flood's third connection."""
    import http.client

    assert configured.http_port is not None
    client = http.client.HTTPConnection("127.0.0.1", configured.http_port, timeout=5)
    try:
        client.request("GET", "/healthz", headers={"Host": "route.example"})
        first = client.getresponse()
        first.read()
        assert first.status == 200
        flood = []
        for _ in range(10):
            sock = socket.create_connection(("127.0.0.1", configured.http_port), timeout=5,
                                            source_address=("127.0.0.2", 0))
            sock.sendall(b"GET / HTTP/1.1\r\n")
            flood.append(sock)
        closed: set[int] = set()

        def flood_made_room() -> bool:  # the server took in every flood connection
            for i, sock in enumerate(flood):
                if i in closed:
                    continue
                sock.settimeout(0.01)
                try:
                    if sock.recv(1) == b"":
                        closed.add(i)
                except socket.timeout:
                    pass
                except OSError:
                    closed.add(i)
            return len(closed) >= 8

        try:
            # 8 of 10 closed: the flood kept 2 places, the client its one
            assert wait_until(flood_made_room, timeout_s=4), (
                f"{len(closed)} of 10 flood connections closed: another made room")
            client.request("GET", "/healthz", headers={"Host": "route.example"})
            again = client.getresponse()  # on the same connection: it was kept
            again.read()
            assert again.status == 200
        finally:
            for sock in flood:
                sock.close()
    finally:
        client.close()


def test_ops_pages_answer_while_every_connection_is_in_a_call(
    configured: ServerProcess,
) -> None:
    """Issue 23: /metrics, /readyz and /healthz are outside the connection cap.

    3 connections in a call (each sent a request head and part of its body) fill the cap
    of 3; a new connection is then kept for the operator's pages: they answer, and an API
    call on it is refused ``resource_exhausted`` (429) as the cap refuses it.

    Each call is known to be in progress before the next connection opens: its head says
    ``Expect: 100-continue`` and the server's ``100 Continue`` comes once the service reads
    the body (issue 34: a guessed 0.3 s was too short on a loaded machine; a head not yet
    read leaves its connection idle, dropped to make room, and the API call got through: 400).
    """
    assert configured.http_port is not None
    head = (f"POST {SOLVE} HTTP/1.1\r\nHost: route.example\r\nContent-Type: {JSON}\r\n"
            "Expect: 100-continue\r\nContent-Length: 1000\r\n\r\n").encode()
    socks: list[socket.socket] = []
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", configured.http_port), timeout=10)
            socks.append(sock)
            sock.sendall(head)
            assert sock.recv(100).startswith(b"HTTP/1.1 100 "), "the call did not start"
            sock.sendall(b'{"state": ')
        metrics = _get(configured, "/metrics", "route.example")
        assert metrics.status == 200, metrics
        assert b"route18xx_calls_total" in metrics.body
        assert _get(configured, "/readyz", "route.example").status in (200, 503)
        healthz = _get(configured, "/healthz", "route.example")
        assert healthz.status == 200 and json.loads(healthz.body) == {"live": True}, healthz
        busy = post(configured.http_url, SOLVE, b"{}", {**J, "Host": "route.example"}, timeout=5)
        assert busy.status == 429 and busy.code == "resource_exhausted", busy
        assert "max-http-connections" in busy.message, busy
        for sock in socks:  # the calls were not disturbed: still waiting for their bodies
            sock.settimeout(0.05)
            with pytest.raises(socket.timeout):
                sock.recv(1)
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("args, reason", [
    (["--allowed-hosts", "a*b"], "--allowed-hosts: 'a*b': a wildcard only"),
    (["--allowed-hosts", "*example.org"], "--allowed-hosts: '*example.org': a wildcard only"),
    (["--allowed-hosts", "localhost:8080"], "--allowed-hosts: 'localhost:8080': a host name without"),
    (["--allowed-hosts", " , "], "--allowed-hosts: no host given"),
    (["--max-http-connections", "0"], "--max-http-connections: 0 is out of range"),
])
def test_invalid_http_options_are_a_clean_error(args: list[str], reason: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", "serve", "--port", "0", *args],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"error: {reason}" or done.stderr.strip().startswith(
        f"error: {reason}"
    ), done.stderr
    assert "Traceback" not in done.stderr and "AssertionError" not in done.stderr
