"""Issue 34, item 1: a connection flood leaves health and cheap calls answering.

Two processes open connections to the service port as fast as they can and
hold them, more than the server has file descriptors (it runs with 4096 here,
so the flood is 2 × 3000, not 20 000). The service port holds at most a
quarter of the descriptors (``ServerConfig.max_grpc_connections``) and closes
the excess as it accepts it, and connections that send nothing are closed
after the handshake timeout (``server.grpc_options``): the health port answers
every probe on a fresh connection, a client's open connection its cheap
solves, and HTTP ``/healthz``, each within 1 s of a control taken before (no
port accepted a connection for ~10 s: the descriptors were gone).
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from typing import Iterator

import grpc
import pytest

from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.server.abuse import ServerProcess, solve_request, start_server, state, timed
from tests.server.conftest import SERVING, health_status
from tests.server.stalled import OWN_CONNECTION

#: The server's descriptors, and each flooding process's connections (together more).
NOFILE, FLOOD = 4096, 3000
#: How long the flood holds its connections, and the probes go on.
HOLD_S = 8.0

FLOODER = """
import socket, sys, time
port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
held = []
for _ in range(count):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    except OSError:
        s.close()
        continue
    held.append(s)
print(len(held), flush=True)
time.sleep(hold)
"""


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    yield from start_server("--workers", "1", http=True, nofile=NOFILE)


def _healthz(served: ServerProcess) -> bool:
    with urllib.request.urlopen(f"{served.http_url}/healthz", timeout=5) as answer:
        return answer.status == 200


def test_a_connection_flood_leaves_health_and_cheap_calls_answering(
        served: ServerProcess) -> None:
    cheap = solve_request(state("129026-138"))
    port = served.target.rsplit(":", 1)[1]
    with grpc.insecure_channel(served.target, options=OWN_CONNECTION) as client:
        service = pb_grpc.RouteServiceStub(client)
        controls = []
        for _ in range(3):
            _, error, took = timed(service.SolveRoutes, cheap, timeout=30)
            assert error is None, error
            controls.append(took)
        control = min(controls)
        flood = [subprocess.Popen([sys.executable, "-c", FLOODER, port, str(FLOOD), str(HOLD_S)],
                                  stdout=subprocess.PIPE) for _ in range(2)]
        try:
            opened = [int(f.stdout.readline() or 0) for f in flood if f.stdout is not None]
            assert sum(opened) > NOFILE, opened  # the flood is larger than the descriptors
            end = time.monotonic() + HOLD_S / 2
            probes = 0
            while time.monotonic() < end:
                started = time.monotonic()
                with grpc.insecure_channel(served.health_target, options=OWN_CONNECTION) as probe:
                    assert health_status(probe) == SERVING
                assert time.monotonic() - started < 1.0 + 3 * control
                _, error, took = timed(service.SolveRoutes, cheap, timeout=5)
                assert error is None, (error.code(), error.details())
                assert took < 1.0 + 3 * control, (took, control)
                started = time.monotonic()
                assert _healthz(served)
                assert time.monotonic() - started < 1.0 + 3 * control
                probes += 1
                time.sleep(0.1)
            assert probes >= 3
        finally:
            for process in flood:
                process.kill()
                process.wait()
