"""``route18xx audit`` killed leaves no process behind (issue 20 §4, §7).

SIGTERM stops it as Ctrl-C does: status 143, the resume hint, a valid results
file. SIGKILL cannot be caught: the kernel's parent-death signal ends the pool's
workers, and the resource tracker follows once they are gone. The processes of
its tree are collected from ``/proc`` before the kill.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.audit.conftest import GENERATED_DIR, LOGS
from tests.launch import launched
from tests.proc_tree import descendants, wait_gone

pytest.importorskip("ortools")
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

#: A pool of two workers plus the resource tracker.
TREE = 3


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared logs and four generated games: more than the pool does in a few seconds."""
    folder = tmp_path_factory.mktemp("kill-corpus")
    for path in LOGS.glob("*.json"):
        shutil.copy(path, folder / path.name)
    for packed in sorted(GENERATED_DIR.glob("random-*.json.gz"))[:4]:
        (folder / packed.name.removesuffix(".gz")).write_bytes(gzip.decompress(packed.read_bytes()))
    return folder


def _start(corpus: Path, out: Path, *, sigint_ignored: bool = False
           ) -> tuple[subprocess.Popen[bytes], set[int]]:
    """An audit on a pool of 2, once its workers and tracker run and its loop is on.

    Its output goes to files beside ``out``: a pipe would stay open as long as
    any leftover worker lives, and the test would hang instead of failing.
    """
    with (out.parent / "stderr").open("wb") as err:
        proc = subprocess.Popen(  # no preexec_fn: tests/launch.py says why
            launched([sys.executable, "-m", "route18xx.server.cli", "audit", str(corpus),
                      "--out", str(out), "--jobs", "2", "--time-limit", "2", "--no-progress"],
                     ignore_sigint=sigint_ignored),
            stdout=subprocess.DEVNULL, stderr=err,
        )
    deadline = time.monotonic() + 120
    tree: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        tree = descendants(proc.pid)
        if len(tree) >= TREE and out.exists():
            break
        time.sleep(0.1)
    assert proc.poll() is None and len(tree) >= TREE, f"the pool did not start: {tree}"
    time.sleep(1.0)  # the workers are auditing
    return proc, tree | descendants(proc.pid)


def _left(tree: set[int]) -> set[int]:
    """The processes of ``tree`` still alive after 15 s; killed then, so no test leaks them."""
    left = wait_gone(tree, 15)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left


def _stopped_by(sig: signal.Signals, corpus: Path, out: Path, *,
                sigint_ignored: bool = False) -> tuple[int, str]:
    """An audit (``_start``) sent ``sig``: its exit status and its stderr, once no process
    of its tree is left."""
    proc, tree = _start(corpus, out, sigint_ignored=sigint_ignored)
    proc.send_signal(sig)
    status = proc.wait(timeout=60)
    assert _left(tree) == set()
    return status, (out.parent / "stderr").read_text()


def test_ctrl_c_stops_an_audit_whose_parent_ignored_sigint(small_corpus: Path, tmp_path: Path) -> None:
    """A parent that ignores SIGINT (a script's background job, a test runner's worker)
    passes SIG_IGN on; the audit still stops on Ctrl-C: 130 and the resume hint."""
    status, err = _stopped_by(signal.SIGINT, small_corpus, tmp_path / "results.jsonl",
                              sigint_ignored=True)
    assert status == 130, err
    assert "resume" in err and "Traceback" not in err


def test_sigterm_stops_the_audit_with_the_resume_hint_and_no_process_left(
    small_corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "results.jsonl"
    status, err = _stopped_by(signal.SIGTERM, small_corpus, out)
    assert status == 143, err
    assert "resume" in err and "Traceback" not in err
    assert out.read_text().endswith("\n") or out.read_text() == ""


def test_sigkill_leaves_no_worker_or_tracker(small_corpus: Path, tmp_path: Path) -> None:
    status, _ = _stopped_by(signal.SIGKILL, small_corpus, tmp_path / "results.jsonl")
    assert status == -signal.SIGKILL


def _catches_sigterm(pid: int) -> bool:
    """The process has a handler for SIGTERM (``SigCgt`` in /proc/<pid>/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def test_sigterm_before_the_audit_loop_exits_143_with_the_resume_hint(
    small_corpus: Path, tmp_path: Path
) -> None:
    """SIGTERM as soon as the audit command handles it: before the logs are found or the pool
    starts (``--out`` is not yet opened). Same status and hint as in the loop, nothing left."""
    out = tmp_path / "results.jsonl"
    with (tmp_path / "stderr").open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "route18xx.server.cli", "audit", str(small_corpus), "--out",
             str(out), "--jobs", "2", "--time-limit", "2", "--no-progress"],
            stdout=subprocess.DEVNULL, stderr=err,
        )
    deadline = time.monotonic() + 60
    while not _catches_sigterm(proc.pid):
        assert proc.poll() is None and time.monotonic() < deadline, "no SIGTERM handler"
        time.sleep(0.002)
    tree = descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(timeout=60)
    assert _left(tree | descendants(proc.pid)) == set()
    err_text = (tmp_path / "stderr").read_text()
    assert status == 143, err_text
    assert "resume" in err_text and "Traceback" not in err_text, err_text
    assert not out.exists(), "the signal came after the loop began: the test missed its window"
