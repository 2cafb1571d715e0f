"""A ``route18xx serve`` killed by SIGKILL takes its engine workers along (issue 20 §4, §7).

The workers are children of the forkserver, not of the server: the forkserver
exits when the server does, each worker has the kernel's parent-death signal
armed against it, and a worker busy with a job cancels it when its socket to
the server reaches end of file. The test kills the server while a worker runs
a suggestion ranking, then waits for every process of its tree (collected from
``/proc`` before the kill) to be gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import STATES_DIR
from tests.proc_tree import descendants, wait_gone

pytest.importorskip("ortools")
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

#: The forkserver, its two workers and the resource tracker.
TREE = 4


def _busy(target: str) -> None:
    """A long suggestion ranking on a worker; it fails when the server dies."""
    from route18xx.server.commands.client import RouteClient

    state = json.loads((STATES_DIR / "129026-399.json").read_text("utf-8"))["state"]
    try:
        with RouteClient(target) as client:
            client.suggest(state, top=50, include_tokens=True, time_limit_s=60, timeout_s=60)
    except Exception:  # the server is killed under the call
        pass


def test_sigkill_of_the_server_leaves_no_engine_worker() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "route18xx.server.cli", "serve", "--port", "0", "--no-http",
         "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stderr is not None
        port = None
        deadline = time.monotonic() + 120
        while port is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            if (found := re.search(r"serving .* on [\d.]+:(\d+)", line)) is not None:
                port = int(found.group(1))
        assert port is not None, "the server did not start"
        tree: set[int] = set()
        while len(tree) < TREE and time.monotonic() < deadline:
            tree = descendants(proc.pid)
            time.sleep(0.1)
        assert len(tree) >= TREE, tree
        call = threading.Thread(target=_busy, args=(f"127.0.0.1:{port}",), daemon=True)
        call.start()
        time.sleep(1.0)  # a worker is ranking
        tree |= descendants(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        left = wait_gone(tree, 15)
        for pid in left:  # no test leaks them, even when it fails
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        assert left == set()
        call.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
