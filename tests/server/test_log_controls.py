"""A client cannot forge the server's log (issue 34): control characters are escaped in every format.

A percent-encoded CR, an ANSI escape, a C1 control or a Unicode line separator in an
unknown method's path is decoded by the HTTP front end and logged with the call's line
(``server.httpd.http_connect``). Written raw, the CR sent the terminal back to the start of
the line to print a forged one over it, and the escape repainted the operator's terminal
(a decoded LF never reaches the log: the router refuses that path first). A real ``route18xx serve`` runs in each log
format; its log is read back byte for byte.
"""

from __future__ import annotations

import http.client
import json
import signal
from pathlib import Path

import pytest

from tests.server.abuse import start_server
from tests.timing import wait_until

FORGED = "2030-01-01 00:00:00,000 INFO route18xx.server forged"
#: Percent-encoded paths under the service, each carrying a control character.
PATHS = [
    f"/route18xx.v1.RouteService/x%0d{FORGED.replace(' ', '%20')}",
    "/route18xx.v1.RouteService/x%1b%5b31mred%1b%5b0m",
    "/route18xx.v1.RouteService/x%c2%9b31m%e2%80%a8y%7f%00z",
]
RAW = ["\r", "\x1b", "\x9b", "\u2028", "\x7f", "\x00"]


def _post(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, body=b"{}", headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_control_characters_in_an_unknown_path_are_escaped_in_the_log(log_format: str) -> None:
    servers = start_server("--threads", "--workers", "1", "--log-format", log_format, http=True)
    server = next(servers)
    try:
        assert server.http_port is not None
        for path in PATHS:
            assert _post(server.http_port, path) == 404

        def all_logged() -> bool:  # a call's line follows its answer: wait for the event
            text = Path(server.log_path).read_bytes().decode("utf-8", "replace")
            return text.count("RouteService/x") >= len(PATHS)

        wait_until(all_logged, timeout_s=10)
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(30)
    finally:
        servers.close()
    text = Path(server.log_path).read_bytes().decode("utf-8")
    lines = text.split("\n")
    assert not [c for c in RAW if c in text], [line for line in lines if "/x" in line]
    assert not any(part.startswith(FORGED) for part in text.replace("\r", "\n").split("\n"))
    logged = [line for line in lines if "RouteService/x" in line]
    assert len(logged) == len(PATHS), logged
    if log_format == "json":
        messages = [json.loads(line)["message"] for line in logged]
        assert any("\r2030-01-01" in m for m in messages)  # escaped in the line, whole when read
        assert any("\x1b[31m" in m for m in messages)
        assert any("\x9b" in m and "\u2028" in m for m in messages)
    else:
        assert any("x\\r2030-01-01" in line for line in logged)
        assert any("x\\x1b[31mred" in line for line in logged)
        assert any("x\\x9b31m\\u2028y\\x7f\\x00z" in line for line in logged)
