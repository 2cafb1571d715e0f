"""The server's side of its engine worker processes, driven from the event loop (issue 11).

Each worker (``server.workers``) is a process forked from a *forkserver* that
preloads the engine, the solver and OR-Tools before any gRPC thread exists: a
worker starts in milliseconds and never inherits the server's sockets or
threads. It is joined to the server by one socket pair, and the event loop
reads and writes its frames (``server.frames``) directly: a job costs one
write and one read on the loop, with no executor thread in between (a
``ProcessPoolExecutor`` hands every job through two threads and two pickled
queues, which cost more than a whole solve on a busy two-core machine).

* A call takes an idle worker (it waits in the lane's bounded queue until one
  is free), sends its job and awaits the answer.
* A call whose client went away (its awaiting coroutine is cancelled, or its
  ``CancelToken`` is cancelled) sends ``CANCEL``: the worker stops the job
  mid-search, then answers, and only then takes the next job.
* A worker that dies fails the call it was running with ``WorkerLost`` (the
  client is told to retry) and is replaced at once.
* A server that dies (even by SIGKILL) takes its workers along: the forkserver
  exits when the server does, each worker has the kernel's parent-death signal
  armed against the forkserver, and a worker whose socket reaches end of file
  cancels its job and exits (``server.workers``, issue 20 §4).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import multiprocessing
import pickle
import socket
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

from route18xx.engine import api
from route18xx.engine.api import CancelToken, OutOfTime
from route18xx.server.core.errors import ServerStopping, WorkerLost
from route18xx.server.core.frames import ANSWER, CANCEL, ERROR, HEADER, JOB, READY, SOLVES, frame
from route18xx.server.core.runner import Limits
from route18xx.server.core.workers import ENGINE, PRELOAD, worker_process

log = logging.getLogger("route18xx.server")


@dataclass(eq=False)
class Worker:
    """One engine process and the loop's ends of its socket."""

    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    job_id: int = -1
    alive: bool = field(default=True)

    def send_cancel(self, job_id: int) -> None:
        """Ask the worker to stop job ``job_id`` (ignored if it is already done)."""
        if self.alive and self.job_id == job_id and not self.writer.is_closing():
            self.writer.write(frame(CANCEL, job_id, b""))


class _CancelForward:
    """Attached to a call's ``CancelToken``: its cancel reaches the worker (any thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, worker: Worker, job_id: int) -> None:
        self._loop, self._worker, self._job_id = loop, worker, job_id

    def stop_search(self) -> None:
        try:
            self._loop.call_soon_threadsafe(self._worker.send_cancel, self._job_id)
        except RuntimeError:  # the loop is closed: the server is gone
            pass


@dataclass
class PoolStats:
    """Counts of a pool's life, for its metrics (``server.metrics``)."""

    alive: int = 0
    starts: int = 0
    deaths: int = 0
    replacements: int = 0


#: Socket buffers of the pair joining a worker: a request of up to the 4 MiB message limit
#: then crosses in one or a few writes, not in ~200 kB pieces that the loop's transport
#: buffers and shifts after each (the kernel caps it at net.core.wmem_max/rmem_max).
SOCKET_BUFFER_BYTES = 4 * 1024 * 1024


def _large_buffers(*socks: socket.socket) -> None:
    for sock in socks:
        for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, SOCKET_BUFFER_BYTES)
            except OSError:  # not allowed here: the default stands
                pass


class WorkerPool:
    """``size`` engine processes answering one job at a time each."""

    def __init__(
        self, size: int, limits: Limits, suggest_workers: int = 1, role: str = ENGINE
    ) -> None:
        """``role``: what the processes do (``server.workers.ENGINE`` or ``DECODE``)."""
        self.size = size
        self.role = role
        self._limits = limits
        self._suggest_workers = suggest_workers
        self._context: Any = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._idle: asyncio.Queue[Worker] = asyncio.Queue()
        self._workers: set[Worker] = set()
        self._ids = itertools.count(1)
        self._closed = False
        #: A worker has said ``READY`` (calls wait for the pool only from then on).
        self.booted = False
        #: Each worker answers a call of every kind before it says ``READY``
        #: (``server.warm_calls``): set by a server that warms up before it is ready.
        self.warm_calls = False
        self.stats = PoolStats()

    # -- starting and replacing workers -------------------------------------------

    async def start(self) -> None:
        """Start every worker; returns once all of them said ``READY``."""
        await asyncio.gather(*(self._spawn() for _ in range(self.size)))

    async def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair()
        _large_buffers(ours, theirs)
        try:
            process = await loop.run_in_executor(None, self._start_process, theirs)
        finally:
            theirs.close()
        reader, writer = await asyncio.open_connection(sock=ours)
        worker = Worker(process, reader, writer)
        self._workers.add(worker)
        try:
            kind, _, _ = HEADER.unpack(await reader.readexactly(HEADER.size))
        except (asyncio.IncompleteReadError, OSError):
            kind = -1
        if kind != READY or self._closed:
            self._retire(worker)
            if not self._closed:
                log.error("an engine worker process failed to start")
            return
        self.stats.starts += 1
        self.stats.alive = len(self._workers)
        self.booted = True
        self._idle.put_nowait(worker)

    def _start_process(self, sock: socket.socket) -> BaseProcess:
        process: BaseProcess = self._context.Process(
            target=worker_process,
            args=(sock, self._limits, self._suggest_workers, self.role, self.warm_calls),
            name=f"route18xx-{self.role}", daemon=True,
        )
        process.start()
        return process

    def _retire(self, worker: Worker) -> None:
        worker.alive = False
        self._workers.discard(worker)
        self.stats.alive = len(self._workers)
        worker.writer.close()
        if worker.process.is_alive():
            worker.process.kill()

    def _lost(self, worker: Worker) -> None:
        """A worker died or broke the protocol: retire it and start another."""
        if not worker.alive:
            return
        self._retire(worker)
        self.stats.deaths += 1
        if not self._closed:
            log.error("an %s worker process died; a new one is starting", self.role)
            self.stats.replacements += 1
            asyncio.ensure_future(self._spawn())

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the operator)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    # -- jobs ------------------------------------------------------------------------------

    async def run(self, method_name: str, payload: bytes, cancel: CancelToken) -> bytes:
        """The serialized answer of ``method_name`` on ``payload`` from a free worker.

        Raises what the job raised in the worker, ``OutOfTime`` when the call
        ended while it waited, ``WorkerLost`` when its worker died.
        """
        worker = await self._idle_worker(cancel)
        if not worker.alive:  # killed while idle: its replacement is on the way
            self._lost(worker)
            raise WorkerLost("an engine worker process died; retry")
        if self._closed:
            raise ServerStopping("the server is shutting down")
        if cancel.cancelled:  # the call ended while it waited: do nothing
            self._idle.put_nowait(worker)
            raise OutOfTime("the call", expired=cancel.expired)
        job_id = next(self._ids)
        worker.job_id = job_id
        body = pickle.dumps((method_name, payload, cancel.deadline))
        exchange = asyncio.ensure_future(self._exchange(worker, job_id, body))
        forward = _CancelForward(asyncio.get_running_loop(), worker, job_id)
        cancel.attach(forward)
        try:
            kind, answer = await asyncio.shield(exchange)
        except asyncio.CancelledError:
            worker.send_cancel(job_id)  # the worker stops, answers, and comes back idle
            raise
        finally:
            cancel.detach(forward)
        if kind == ERROR:
            raise pickle.loads(answer)
        return answer

    async def _idle_worker(self, cancel: CancelToken) -> Worker:
        """The next idle worker, waited for until the call's deadline at most (workers
        still booting, or all busy): a call answers at its deadline, not after it."""
        left = cancel.time_left()
        if self._idle.qsize() and (left is None or left > 0):
            # A worker is idle: taken at once. ``wait_for`` would wrap the get in a task
            # of its own and hand the worker over one loop turn later, for nothing.
            return self._idle.get_nowait()
        try:
            return await asyncio.wait_for(self._idle.get(), None if left is None else max(left, 0.0))
        except asyncio.TimeoutError:
            raise OutOfTime("the call", expired=True) from None

    async def _exchange(self, worker: Worker, job_id: int, body: bytes) -> tuple[int, bytes]:
        """Send one job and read its answer; the worker is idle again afterwards."""
        try:
            worker.writer.write(frame(JOB, job_id, body))
            await worker.writer.drain()
            while True:
                kind, answered, size = HEADER.unpack(
                    await worker.reader.readexactly(HEADER.size))
                answer = await worker.reader.readexactly(size) if size else b""
                if kind != SOLVES or answered != job_id:
                    break
                api.solve_tally.add(_solves(answer))  # the metrics take them at the call's end
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._lost(worker)
            raise WorkerLost("an engine worker process died during the call; retry") from None
        if answered != job_id or kind not in (ANSWER, ERROR):
            self._lost(worker)
            raise WorkerLost(f"an engine worker answered frame {kind} for job {answered}, "
                             f"expected job {job_id}; retry")
        worker.job_id = -1
        self._idle.put_nowait(worker)
        return kind, answer

    def shutdown(self) -> None:
        """Stop every worker (calls in flight have had their grace already)."""
        self._closed = True
        for worker in list(self._workers):
            worker.alive = False
            if worker.process.is_alive():
                worker.process.kill()
        self._workers.clear()
        self.stats.alive = 0


def _solves(body: bytes) -> list[tuple[str, float]]:
    """A ``SOLVES`` frame's [status, seconds] pairs (``server.frames``)."""
    return [(str(status), float(seconds)) for status, seconds in json.loads(body)]
