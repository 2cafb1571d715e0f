"""Lanes: bounded worker pools, one per kind of call, so cheap calls never queue behind heavy ones.

Issue 9 ("fair under load"): a solve or a validation takes milliseconds, a
suggestion ranking up to its whole time limit. Each kind of call runs in its own
lane, a thread pool of fixed size with a bounded queue in front of it:

* admission is decided at once: when ``workers + queue`` jobs are already
  running or waiting, the call is refused with ``Overloaded`` (gRPC
  ``RESOURCE_EXHAUSTED`` with a retry hint), instead of waiting without end;
* a job whose call has ended (deadline passed, client gone) before a worker
  takes it is dropped without doing any work;
* ``stalled()`` tells the health watchdog that a lane has work waiting but has
  neither started nor finished a job for a while: the server can no longer answer
  (or, for a lane that is not ``vital``, the calls of that lane alone cannot).

CP-SAT releases the GIL while it searches, so threads run solves in parallel;
the Python around it shares the interpreter. A lane may instead run its calls
in engine worker processes (``server.worker_pool``): a call then crosses as
its method's name and request bytes (``run_in_worker``), a worker that died is
replaced, and the call that lost it is told to retry.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TypeVar

from route18xx.engine.api import CancelSignal, CancelToken, OutOfTime
from route18xx.server.core.errors import Overloaded, ServerStopping

if TYPE_CHECKING:
    from route18xx.server.core.worker_pool import WorkerPool

T = TypeVar("T")
log = logging.getLogger("route18xx.server")


@dataclass(frozen=True)
class LaneCounts:
    """A lane's state at one moment, for its metrics (``server.metrics``)."""

    waiting: int
    running: int
    #: Calls refused since the start because the lane was full.
    refused: int


@dataclass(frozen=True)
class LaneConfig:
    """One lane's size: ``workers`` jobs run at once, ``queue`` more may wait."""

    name: str
    workers: int
    queue: int
    #: The retry hint sent with ``RESOURCE_EXHAUSTED`` when the lane is full.
    retry_after_s: float = 1.0
    #: Its stall is the server's (health turns NOT_SERVING). False for a lane that waits on
    #: a dependency (the log site): its stall marks only its own calls unavailable (issue 34).
    vital: bool = True


class Lane:
    """A bounded pool of threads or worker processes for one kind of call (see the module docstring)."""

    def __init__(self, config: LaneConfig, processes: WorkerPool | None = None) -> None:
        """``processes``: the worker processes the calls run in (None: threads)."""
        if config.workers < 1 or config.queue < 0:
            raise ValueError(f"lane {config.name}: needs workers >= 1 and queue >= 0")
        self.config = config
        self.processes = processes
        self._pool = ThreadPoolExecutor(
            max_workers=config.workers, thread_name_prefix=f"route18xx-{config.name}"
        )
        self._lock = threading.Lock()
        self._admitted = 0  # running + waiting
        self._running = 0
        self._refused = 0
        self._last_progress = time.monotonic()
        self._closed = False

    @property
    def in_processes(self) -> bool:
        """Calls run in worker processes (``run_in_worker``), not as jobs in threads."""
        return self.processes is not None

    async def start(self) -> None:
        """Start every worker process now, so no client waits for one to boot."""
        if self.processes is not None:
            await self.processes.start()

    @property
    def capacity(self) -> int:
        return self.config.workers + self.config.queue

    @property
    def admitted(self) -> int:
        """Jobs running or waiting in this lane now."""
        return self._admitted

    def counts(self) -> LaneCounts:
        """Calls waiting and running now, and refused so far."""
        with self._lock:
            return LaneCounts(max(0, self._admitted - self._running), self._running, self._refused)

    def _admit(self) -> None:
        with self._lock:
            if self._closed:
                raise ServerStopping("the server is shutting down")
            if self._admitted >= self.capacity:
                self._refused += 1
                raise Overloaded(
                    f"the service is busy: {self.config.name} lane full "
                    f"({self.config.workers} running, {self.config.queue} waiting); "
                    f"retry in {self.config.retry_after_s:g} s",
                    self.config.retry_after_s,
                )
            self._admitted += 1

    def _release(self) -> None:
        with self._lock:
            self._admitted -= 1
            self._last_progress = time.monotonic()

    def _work(self, job: Callable[[], T], cancel: CancelSignal) -> T:
        with self._lock:
            self._running += 1
            self._last_progress = time.monotonic()
        try:
            if cancel.cancelled:  # the call ended while it waited: do nothing
                raise OutOfTime("the call", expired=cancel.expired)
            return job()
        finally:
            with self._lock:
                self._running -= 1

    async def run(self, job: Callable[[], T], cancel: CancelSignal) -> T:
        """Run ``job`` on this lane's threads; ``Overloaded`` at once when the lane is full.

        If the awaiting call is cancelled, a job still waiting is dropped; a
        running one is stopped through ``cancel`` by the caller.
        """
        self._admit()
        try:
            future = self._pool.submit(self._work, job, cancel)
        except RuntimeError:
            self._release()
            raise ServerStopping("the server is shutting down") from None
        # Released when the job ends, or when it is dropped before it started
        # (cancelling the awaiting coroutine cancels a job that is still waiting).
        future.add_done_callback(lambda _: self._release())
        return await asyncio.wrap_future(future)

    async def run_in_worker(self, method_name: str, payload: bytes, cancel: CancelToken) -> bytes:
        """A call's answer from a worker process; ``Overloaded`` at once when the lane is full."""
        assert self.processes is not None, "run_in_worker on a lane of threads"
        self._admit()
        try:
            return await self.processes.run(method_name, payload, cancel)
        finally:
            self._release()

    def stalled(self, after_s: float) -> bool:
        """Work is waiting, yet no job started or ended in the last ``after_s`` seconds."""
        with self._lock:
            waiting = self._admitted > self._running or self._running >= self.config.workers
            return waiting and self._admitted > 0 and (
                time.monotonic() - self._last_progress > after_s
            )

    def shutdown(self) -> None:
        """Refuse new jobs; drop waiting ones; running ones finish."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown()
