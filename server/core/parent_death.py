"""Child processes that end with their parent, however the parent ends (issue 20 §4).

A pool worker whose parent is killed (SIGKILL, the OOM killer, a crash) is
reparented to PID 1 and would run on: the audit's workers went on for minutes,
60 MiB each, and the multiprocessing resource tracker with them (it exits only
when every process holding its pipe is gone). ``die_with_parent`` runs first
thing in the child:

* on Linux it asks the kernel for ``SIGKILL`` when the parent dies
  (``prctl(PR_SET_PDEATHSIG)``, through ``ctypes``: no dependency). The kernel
  sends it when the *thread* that started the child ends; the pools here start
  their children from the parent's main thread, or from a single-threaded
  forkserver;
* it then checks that the parent is still the one expected: a parent that died
  before the signal was armed would never send it;
* elsewhere (no ``prctl``) a daemon thread polls the parent's pid each second.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

#: ``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``.
PR_SET_PDEATHSIG = 1
#: How often the fallback watcher looks at the parent (seconds).
POLL_S = 1.0


def _arm_pdeathsig(signum: int) -> bool:
    """True when the kernel will send ``signum`` at the parent's death."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent_pid: int) -> None:
    """The fallback: exit as soon as the parent is no longer ``parent_pid``."""
    while os.getppid() == parent_pid:
        time.sleep(POLL_S)
    os._exit(1)


def die_with_parent(parent_pid: int | None = None) -> None:
    """End this process when its parent (``parent_pid``, default the current one) ends."""
    expected = os.getppid() if parent_pid is None else parent_pid
    armed = _arm_pdeathsig(signal.SIGKILL)
    if os.getppid() != expected:  # the parent is already gone: no signal will come
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch, args=(expected,), name="parent-watch", daemon=True).start()
