"""Timing checks that hold on a loaded machine (issue 34, item 4).

A test that asserts a wall-clock bound fails when other work takes the cores
(the suite runs on 2 cores shared with other jobs), not when the code is slow.
Each such test now measures against a control taken in the same run, or waits
for the event it checks:

* ``cpu_timed``: the process's CPU seconds beside the wall seconds of a call;
  CPU seconds do not grow when other processes take the cores;
* ``slowdown``: how much longer than its CPU time a fixed piece of pure-Python
  work takes on the wall clock right now (1.0 on an idle core); a wall-clock
  bound for work done in this process scales by it;
* ``wait_until``: polls a condition (the event a test checks) instead of
  sleeping a guessed time.
"""

from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")


def cpu_timed(call: Callable[[], T]) -> tuple[T, float, float]:
    """``call()``'s result, the CPU seconds of this process meanwhile, and the wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = call()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def slowdown(work_s: float = 0.02) -> float:
    """Wall seconds over CPU seconds of about ``work_s`` of CPU-bound work, at least 1."""
    cpu, wall = time.process_time(), time.perf_counter()
    x = 0
    while time.process_time() - cpu < work_s:
        for i in range(2000):
            x += i
    spent = time.process_time() - cpu
    return max(1.0, (time.perf_counter() - wall) / spent) if spent > 0 else 1.0


def wait_until(condition: Callable[[], bool], timeout_s: float = 10.0, every_s: float = 0.02) -> bool:
    """True once ``condition()`` holds, polling every ``every_s``; False after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(every_s)
    return True
