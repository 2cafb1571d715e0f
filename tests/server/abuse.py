"""A real ``route18xx serve`` process for the abuse tests, and the reproducers of issue 9.

The abuse tests run the service as users run it (its own process, the embedded
data, two engine workers) so that its memory can be read from /proc and a
request that takes it down is seen as such.
"""

from __future__ import annotations

import copy
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import grpc

from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import load_json, state_files

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "tests" / "data" / "logs"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """A ``route18xx serve`` child process on 127.0.0.1."""

    process: subprocess.Popen[bytes]
    target: str
    #: The server's log (one line per call): a file, so that a full pipe never blocks it.
    log_path: Path
    #: Its health port (``--health-port``), outside the call cap (issue 20).
    health_target: str
    #: The HTTP front end's port (None: served with ``--no-http``).
    http_port: int | None = None

    @property
    def http_url(self) -> str:
        assert self.http_port is not None, "this server has no HTTP front end"
        return f"http://127.0.0.1:{self.http_port}"

    def rss_mib(self) -> float:
        """Memory of the server and all its worker processes, in MiB (from /proc).

        Each process counts its proportional share of the pages it shares with
        the others (PSS: workers forked from one forkserver share most of theirs),
        so the sum is what the server really holds.
        """
        return sum(_pss_kib(pid) for pid in _tree(self.process.pid)) / 1024

    def alive(self) -> bool:
        return self.process.poll() is None


def _tree(root: int) -> list[int]:
    """``root`` and every process descended from it (the forkserver, the workers)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    tree, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def _pss_kib(pid: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    match = re.search(r"^Pss:\s+(\d+) kB", rollup, re.M)
    return int(match.group(1)) if match else 0


def start_server(*args: str, http: bool = False,
                 nofile: int | None = None) -> Iterator[ServerProcess]:
    """Start ``route18xx serve`` with ``args``; yields once it reports SERVING.

    ``http``: also serve HTTP (Connect, gRPC-Web) on a free port, else ``--no-http``;
    ``nofile``: the server's limit of open files (None: this process's).
    """
    port, health_port = free_port(), free_port()
    http_port = free_port() if http else None
    door = ["--http-port", str(http_port)] if http_port else ["--no-http"]
    cmd = [sys.executable, "-m", "route18xx.server.cli", "serve", "--port", str(port), *door,
           "--health-port", str(health_port), *args]
    log = tempfile.NamedTemporaryFile(prefix="route18xx-serve-", suffix=".log", delete=False)
    def limit_files() -> None:
        if nofile is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    process = subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=limit_files,
    )
    log.close()
    target = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
        if http_port is not None:
            _wait_for_port(http_port, 30)
        yield ServerProcess(process, target, Path(log.name), f"127.0.0.1:{health_port}", http_port)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_for_port(port: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def state(name: str = "129026-743") -> dict[str, Any]:
    """A copy of a real state's board (without its reference)."""
    path = next(p for p in state_files() if p.stem == name)
    return copy.deepcopy(load_json(path)["state"])


def recorded_routes(name: str) -> list[dict[str, Any]]:
    path = next(p for p in state_files() if p.stem == name)
    return copy.deepcopy(load_json(path)["reference"]["recorded_routes"])


def game_log_text(name: str = "129026") -> str:
    return (LOGS / f"{name}.json").read_text()


def solve_request(raw_state: dict[str, Any]) -> pb.SolveRoutesRequest:
    from route18xx.server.convert import converters

    return converters.solve_request_to_proto(raw_state)


def stub(target: str) -> tuple[grpc.Channel, pb_grpc.RouteServiceStub]:
    channel = grpc.insecure_channel(
        target, options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]
    )
    return channel, pb_grpc.RouteServiceStub(channel)


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, grpc.RpcError | None, float]:
    """``call(*args, **kwargs)``: its response or error, and the seconds it took."""
    started = time.monotonic()
    try:
        response, error = call(*args, **kwargs), None
    except grpc.RpcError as exc:
        response, error = None, exc
    return response, error, time.monotonic() - started


def log_with_undos(count: int) -> str:
    """The 129026 log with ``count`` bare undo entries appended (issue 9 reproducer 3)."""
    log = json.loads(game_log_text())
    next_id = max(a["id"] for a in log["actions"] if isinstance(a.get("id"), int)) + 1
    log["actions"].extend(
        {"type": "undo", "entity": "JHR", "entity_type": "corporation", "id": next_id + i}
        for i in range(count)
    )
    return json.dumps(log)
