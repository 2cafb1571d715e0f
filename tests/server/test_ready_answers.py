"""Ready means answerable now (issue 34, "readiness says SERVING too early"): once ``/readyz``
answers 200, the first call of every kind — SolveRoutes, ValidateRoutes (routes and hex
paths), RenderBoard, SuggestMoves, SuggestTurn, ReplayGame, FetchGameLog; on a state and on a
game log; over gRPC and over HTTP — costs the server no more than the same calls again.

Before the fix the first call of a kind loaded what it needed on the client's time: the game
engine for a call on a log (in each worker process), the drawing, the turn planner, the
titles' game tables; measured under load, 0.1-1.4 s more than the same call again.

Measured in the CPU time of the server's whole process tree (every thread of the server, its
forkserver and its worker processes: ``/proc/<pid>/task/*/schedstat``), which other work on
the machine does not grow, against later rounds of the same calls in the same run
(tests/timing.py's same-run control), never against a bound in seconds. Each round sends
each kind once per engine worker at once, so that every worker's first call is in the first
round. The game log is a real log cut after its first run (129026, 64 actions): its replay is
short, so what a cold process loads for it shows.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import STATES_DIR
from tests.engine.test_1830_routes import STATES as STATES_1830
from tests.local_site import SiteHandler, local_site
from tests.proc_tree import descendants
from tests.server.abuse import LOGS, free_port
from tests.timing import wait_until

pytest.importorskip("ortools")
pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")

#: Engine worker processes: each round sends each solve-lane kind this many times at once.
WORKERS = 2
#: The later rounds (the same calls again): their median is the control.
CONTROLS = 3
#: How much more CPU than the control round the first round may take, all kinds together
#: (cold, before the fix: 2.1-2.5x, e.g. 584 against 282 ms; warm: 0.9-1.15x).
FACTOR = 1.5


def _short_log() -> tuple[str, int]:
    """129026 up to its first run_routes (action 68), and that action's id."""
    log = json.loads((LOGS / "129026.json").read_text("utf-8"))
    end = next(i for i, a in enumerate(log["actions"]) if a.get("type") == "run_routes")
    log["actions"] = log["actions"][:end + 1]
    return json.dumps(log), int(log["actions"][end]["id"])


LOG, RUN = _short_log()


class _Site(SiteHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.reply(200, LOG.encode())


def _calls() -> dict[str, tuple[str, Message, int]]:
    """name → (method, request, how many at once): each kind of call a client makes."""
    state = converters.state_to_proto(
        json.loads((STATES_DIR / "129026-231.json").read_text("utf-8"))["state"])
    state_1830 = converters.state_to_proto(STATES_1830["26855-458"]["state"])
    bypass = pb.HexPath(train="6-0", hexes=["F6", "G7", "H8", "H10", "H12", "H14", "I15"])
    log = {"game_log": LOG, "action_id": RUN}
    return {
        "SolveRoutes": ("SolveRoutes", pb.SolveRoutesRequest(state=state), WORKERS),
        "SolveRoutes log": ("SolveRoutes", pb.SolveRoutesRequest(**log), WORKERS),  # type: ignore[arg-type]
        "ValidateRoutes log": ("ValidateRoutes", pb.ValidateRoutesRequest(**log), WORKERS),  # type: ignore[arg-type]
        "ValidateRoutes hex paths": ("ValidateRoutes", pb.ValidateRoutesRequest(
            state=state_1830, hex_paths=[bypass]), WORKERS),
        "RenderBoard": ("RenderBoard", pb.RenderBoardRequest(state=state), WORKERS),
        "RenderBoard suggestion": ("RenderBoard", pb.RenderBoardRequest(
            state=state, suggestion=1), WORKERS),
        "RenderBoard log": ("RenderBoard", pb.RenderBoardRequest(
            **log, routes_mode=pb.ROUTES_MODE_BOTH), WORKERS),  # type: ignore[arg-type]
        "SuggestMoves": ("SuggestMoves", pb.SuggestMovesRequest(state=state, top=3), 1),
        "SuggestTurn": ("SuggestTurn", pb.SuggestTurnRequest(state=state, top=2), 1),
        "SuggestTurn log": ("SuggestTurn", pb.SuggestTurnRequest(**log, top=2), 1),  # type: ignore[arg-type]
        "ReplayGame": ("ReplayGame", pb.ReplayGameRequest(game_log=LOG), 1),
        "FetchGameLog": ("FetchGameLog", pb.FetchGameLogRequest(game_id="129026"), 1),
    }


def _cpu_ns(pid: int) -> int:
    """The CPU time every thread of ``pid`` and of its descendants has run so far, in ns."""
    total = 0
    for process in {pid} | descendants(pid):
        try:
            tasks = list(Path(f"/proc/{process}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):  # a thread that ended meanwhile
                pass
    return total


def _ready(http_port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/readyz", timeout=5) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[subprocess.Popen[bytes], int, int]]:
    with local_site(_Site) as site:
        port, http_port = free_port(), free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "route18xx.server.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--http-port", str(http_port), "--workers", str(WORKERS),
             "--log-source-url", site],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            assert wait_until(lambda: _ready(http_port) or proc.poll() is not None, 300, 0.05)
            assert proc.poll() is None, "the server exited before it was ready"
            yield proc, port, http_port
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _rounds(pid: int, send: Callable[[str, Message], None]) -> dict[str, list[float]]:
    """Per kind of call, the server's CPU ms of each round (the first, then the controls)."""
    took: dict[str, list[float]] = {}
    with ThreadPoolExecutor(WORKERS) as pool:
        for _ in range(1 + CONTROLS):
            for name, (method, request, at_once) in _calls().items():
                start = _cpu_ns(pid)
                list(pool.map(lambda _: send(method, request), range(at_once)))
                took.setdefault(name, []).append((_cpu_ns(pid) - start) / 1e6)
    return took


def _verdict(took: dict[str, list[float]]) -> None:
    first = sum(t[0] for t in took.values())
    controls = [sum(t[i] for t in took.values()) for i in range(1, 1 + CONTROLS)]
    control = statistics.median(controls)
    table = "\n".join(f"  {name:26} first {t[0]:7.0f} ms, then "
                      + ", ".join(f"{x:.0f}" for x in t[1:]) for name, t in took.items())
    assert first <= FACTOR * control, (
        f"the first round took {first:.0f} ms of the server's CPU, the later ones "
        f"{', '.join(f'{c:.0f}' for c in controls)}:\n{table}")


def test_every_kind_of_call_is_warm_when_ready_grpc(served: Any) -> None:
    proc, port, _ = served
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = pb_grpc.RouteServiceStub(channel)  # type: ignore[no-untyped-call]
        stub.GetInfo(pb.GetInfoRequest(), timeout=30)  # the connection is up: not timed

        def send(method: str, request: Message) -> None:
            getattr(stub, method)(request, timeout=120)

        _verdict(_rounds(proc.pid, send))


def test_every_kind_of_call_is_warm_when_ready_http(served: Any) -> None:
    """The same over HTTP (Connect JSON, as the page calls), on the same server: the JSON
    codec of each request and answer is the HTTP door's own first use."""
    proc, _, http_port = served

    def send(method: str, request: Message) -> None:
        body = json_format.MessageToJson(request).encode()
        post = urllib.request.Request(
            f"http://127.0.0.1:{http_port}/route18xx.v1.RouteService/{method}", data=body,
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(post, timeout=120) as answer:
            answer.read()

    _verdict(_rounds(proc.pid, send))
