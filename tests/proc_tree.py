"""A process's tree read from ``/proc`` (Linux), for the tests that kill a command (issue 20).

No dependency: ``/proc/<pid>/stat`` gives each process's parent and state. A
zombie (state ``Z``) counts as gone: it has exited, and only waits for a parent
(PID 1 in a container may never reap it).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PROC = Path("/proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of ``pid``, or None when it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name may hold spaces and parentheses
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    found = _stat(pid)
    return found is not None and found[0] != "Z"


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (children, their children, …)."""
    parents: dict[int, int] = {}
    for entry in os.listdir(PROC):
        if entry.isdigit() and (found := _stat(int(entry))) is not None and found[0] != "Z":
            parents[int(entry)] = found[1]
    below: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - below
        below |= frontier
    return below


def wait_gone(pids: set[int], timeout_s: float) -> set[int]:
    """The pids of ``pids`` still alive after up to ``timeout_s`` seconds."""
    deadline = time.monotonic() + timeout_s
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = {p for p in left if alive(p)}
    return left
