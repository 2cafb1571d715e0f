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
  neither started nor finished a job for a while: the server can no longer answer.

CP-SAT releases the GIL while it searches, so threads run solves in parallel;
the Python around it shares the interpreter. A lane may instead run its jobs
in worker processes (``server.workers``): jobs are then plain picklable
callables, and a pool whose worker died is replaced (the call that lost its
worker is told to retry).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, TypeVar

from route18xx.engine.api import CancelSignal, OutOfTime
from route18xx.server.errors import Overloaded, ServerStopping, WorkerLost

T = TypeVar("T")
log = logging.getLogger("route18xx.server")


@dataclass(frozen=True)
class LaneConfig:
    """One lane's size: ``workers`` jobs run at once, ``queue`` more may wait."""

    name: str
    workers: int
    queue: int
    #: The retry hint sent with ``RESOURCE_EXHAUSTED`` when the lane is full.
    retry_after_s: float = 1.0


class Lane:
    """A bounded thread pool for one kind of call (see the module docstring)."""

    def __init__(
        self, config: LaneConfig, processes: Callable[[], Executor] | None = None
    ) -> None:
        """``processes``: a factory of the process pool the jobs run in (None: threads)."""
        if config.workers < 1 or config.queue < 0:
            raise ValueError(f"lane {config.name}: needs workers >= 1 and queue >= 0")
        self.config = config
        self._processes = processes
        self._pool: Executor = processes() if processes else ThreadPoolExecutor(
            max_workers=config.workers, thread_name_prefix=f"route18xx-{config.name}"
        )
        self._lock = threading.Lock()
        self._admitted = 0  # running + waiting
        self._running = 0
        self._last_progress = time.monotonic()
        self._closed = False

    @property
    def in_processes(self) -> bool:
        """Jobs run in worker processes: they must be picklable and return picklable values."""
        return self._processes is not None

    def start(self) -> None:
        """Start every worker now (processes only), so no client waits for one to boot."""
        if self._processes is not None:
            from route18xx.server.workers import ping

            for future in [self._pool.submit(ping) for _ in range(self.config.workers)]:
                future.result()

    @property
    def capacity(self) -> int:
        return self.config.workers + self.config.queue

    @property
    def admitted(self) -> int:
        """Jobs running or waiting in this lane now."""
        return self._admitted

    def _admit(self) -> None:
        with self._lock:
            if self._closed:
                raise ServerStopping("the server is shutting down")
            if self._admitted >= self.capacity:
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
        """Run ``job`` on this lane; ``Overloaded`` at once when the lane is full.

        If the awaiting call is cancelled, a job still waiting is dropped; a
        running one is stopped through ``cancel`` by the caller.
        """
        self._admit()
        try:
            if self._processes is not None:  # the worker checks the deadline itself
                future = self._pool.submit(job)
            else:
                future = self._pool.submit(self._work, job, cancel)
        except BrokenProcessPool:
            self._release()
            self._replace_pool()
            raise WorkerLost("an engine worker process died; retry") from None
        except RuntimeError:
            self._release()
            raise ServerStopping("the server is shutting down") from None
        # Released when the job ends, or when it is dropped before it started
        # (cancelling the awaiting coroutine cancels a job that is still waiting).
        future.add_done_callback(lambda _: self._release())
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace_pool()
            raise WorkerLost("an engine worker process died during the call; retry") from None

    def _replace_pool(self) -> None:
        """A worker process died: start a fresh pool for the calls to come."""
        assert self._processes is not None
        with self._lock:
            if self._closed:
                return
            broken, self._pool = self._pool, self._processes()
        log.error("lane %s: a worker process died; the pool was replaced", self.config.name)
        broken.shutdown(wait=False, cancel_futures=True)

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
