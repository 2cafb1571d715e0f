"""One engine worker process: jobs in, answers out, over one socket (issue 11).

A solve is mostly Python around CP-SAT (building the route problem, the model,
the engine's re-check), and Python threads share one interpreter lock: with
threads, eight clients get little more than one core's worth of solves. The
solve lane therefore runs its jobs in engine processes, one per core
(``server.worker_pool`` starts them and talks to them from the event loop).

The worker's side of the conversation, in ``server.frames``' frames:

* ``JOB`` (id, method name, serialized request, the call's deadline): the job
  runs on this process's main thread with a ``CancelToken`` carrying the
  deadline (``time.monotonic`` is the same clock in every process), exactly as
  in a thread; its ``ANSWER`` is the serialized response, or its ``ERROR`` the
  engine's exception pickled whole (``MalformedInput`` keeps its field), so the
  error table maps it as it does in-process;
* ``CANCEL`` (id): the client went away; a reader thread cancels the job's
  token at once, which stops CP-SAT mid-search and every loop that polls it;
* end of file: the server is gone; the worker cancels the job it is running
  and exits, so a long suggestion does not outlive a killed server (issue 20 §4).

Before a job's ``ANSWER`` or ``ERROR``, a ``SOLVES`` frame lists the solves it ran
(status and time, ``solver.tally``), so that the server's metrics count every
solve, those of failed calls and of validations and suggestions included.

The worker also dies with its parent, the forkserver, which exits when the
server does (``server.parent_death``: the kernel's parent-death signal).

The same process serves the decode lane (role ``DECODE``, issue 20): its jobs
are ``Name:json>proto``, a large JSON request turned into its protobuf bytes,
which the solve lane's workers then read in microseconds.
"""

from __future__ import annotations

import gc
import json
import logging
import pickle
import queue
import socket
import threading
import time
from typing import Any

from route18xx.engine import api
from route18xx.engine.api import OutOfTime
from route18xx.server.core.parent_death import die_with_parent
from route18xx.server.core.frames import (
    ANSWER, CANCEL, ERROR, JOB, READY, SOLVES, read_frame, write_frame,
)
from route18xx.server.core.runner import EngineRunner, Limits

log = logging.getLogger("route18xx.worker")

#: A worker's role: an engine worker runs any job; a decode worker decodes large JSON requests.
ENGINE, DECODE = "engine", "decode"

#: The deadline of a worker's warm-up calls, all together (they take ~0.5 s of CPU).
WARM_UP_S = 120.0

#: Modules the forkserver imports once, so every worker starts with them loaded.
PRELOAD = ["route18xx.server.core.workers", "route18xx.server.core.calls", "route18xx.engine.answer.optimize"]


def run_job(runner: EngineRunner, method_name: str, payload: bytes, cancel: Any) -> bytes:
    """One call's work: decode, run the method's job, encode the answer."""
    from route18xx.server.core.calls import DECODE_ONLY, Encoded, decode_encoded, job_method

    if cancel.cancelled:  # the call ended while it waited: do nothing
        raise OutOfTime("the call", expired=cancel.expired)
    method, codec = job_method(method_name)  # "SolveRoutes", or "SolveRoutes:json" from HTTP
    if codec == DECODE_ONLY:  # the decode lane: JSON in, the request's protobuf bytes out
        decoded: bytes = decode_encoded(method, Encoded(payload, "json")).SerializeToString()
        return decoded
    request = decode_encoded(method, Encoded(payload, "json" if codec == "json" else "proto"))
    response = method.job(runner, request, cancel)
    answer: bytes = response.SerializeToString()
    return answer


def run_warm_jobs(runner: EngineRunner, jobs: list[tuple[str, bytes]], cancel: Any) -> list[str]:
    """Run a server's warm-up jobs (``server.warm_calls``) as a call's: their solves are not
    a client's (``solve_tally.uncounted``), and one that fails (out of time on a starved
    machine) is logged, never raised: a warm-up never keeps a server from serving. A job the
    engine refuses as a client's call would be (``MalformedInput``: 1882's warm-up board has
    no lay to draw as a suggestion) has run its course: its refusal is returned."""
    refused: list[str] = []
    with api.solve_tally.uncounted():
        for name, payload in jobs:
            if cancel.cancelled:  # the server is stopping
                break
            try:
                run_job(runner, name, payload, cancel)
            except api.MalformedInput as exc:
                refused.append(f"{name}: {exc}")
            except Exception as exc:
                if not cancel.cancelled:
                    log.warning("warm-up: %s failed (%s: %s)", name, type(exc).__name__, exc)
    return refused


class _Current:
    """The job running now (its id and token), shared with the reader thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.job_id = -1
        self.token: Any = None
        self.cancelled: set[int] = set()  # cancels that arrived before their job started
        self.gone = False  # the server is gone: every job is cancelled as it starts

    def start(self, job_id: int, token: Any) -> None:
        with self.lock:
            self.job_id, self.token = job_id, token
            if job_id in self.cancelled or self.gone:
                self.cancelled.discard(job_id)
                token.cancel()

    def cancel(self, job_id: int) -> None:
        with self.lock:
            if job_id == self.job_id and self.token is not None:
                self.token.cancel()
            else:
                self.cancelled.add(job_id)

    def cancel_running(self) -> None:
        """Stop whatever job runs now (the server is gone: nobody awaits its answer)."""
        with self.lock:
            self.gone = True
            if self.token is not None:
                self.token.cancel()

    def end(self) -> None:
        with self.lock:
            self.job_id, self.token = -1, None
            self.cancelled.clear()


def _read_jobs(sock: socket.socket, jobs: queue.SimpleQueue[Any], current: _Current) -> None:
    """The reader thread: jobs to the main thread, cancels straight to the running token."""
    try:
        while True:
            frame = read_frame(sock)
            if frame is None:
                break
            kind, job_id, body = frame
            if kind == JOB:
                jobs.put((job_id, body))
            elif kind == CANCEL:
                current.cancel(job_id)
    except OSError:
        pass
    current.cancel_running()  # the server is gone
    jobs.put(None)


def _answer(job_id: int, runner: EngineRunner, body: bytes, current: _Current) -> tuple[int, bytes]:
    method_name, payload, deadline = pickle.loads(body)
    token = api.new_cancel_token(deadline)
    current.start(job_id, token)
    try:
        return ANSWER, run_job(runner, method_name, payload, token)
    except Exception as exc:  # sent whole; the server's error table maps it
        try:
            return ERROR, pickle.dumps(exc)
        except Exception:  # an exception that does not pickle: INTERNAL on the server
            log.exception("worker: job %d failed with an exception that cannot be sent", job_id)
            return ERROR, pickle.dumps(RuntimeError(f"{type(exc).__name__} in a worker"))
    finally:
        current.end()


def worker_main(
    sock: socket.socket, limits: Limits, suggest_workers: int, role: str = ENGINE,
    warm_calls: bool = False,
) -> None:
    """A worker process's life: warm up, say ``READY``, answer jobs until the server is gone.

    ``role``: ``ENGINE`` runs any job; ``DECODE`` (the decode lane) only
    decodes JSON requests, so it skips the warm-up solve. With ``warm_calls`` (a
    server that warms up before it is ready) it also answers a call of every kind
    its lane sends it first (``server.warm_calls``; issue 34: ready means answerable now).
    """
    runner = EngineRunner(limits, suggest_workers=suggest_workers)
    if role != DECODE:
        api.warm_up()  # one solve, so nothing loads on a client's time
    if warm_calls:
        from route18xx.server.core.warm_calls import warm_jobs

        run_warm_jobs(runner, warm_jobs("decode" if role == DECODE else "solve"),
                      api.new_cancel_token(time.monotonic() + WARM_UP_S))
    # What the process holds now (modules, game data, OR-Tools) lives as long as it:
    # moved out of the collector's full passes (``gc.freeze``), which otherwise walk it
    # inside a client's answer (a 20 ms answer measured 53 -> 33 ms at its worst pause).
    gc.collect()
    gc.freeze()
    api.solve_tally.enable()  # from now on every solve is sent back with its job's answer
    api.solve_tally.take()  # (in tests, a worker in a thread: none of the test's own solves)
    sock.setblocking(True)
    jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
    current = _Current()
    threading.Thread(target=_read_jobs, args=(sock, jobs, current), daemon=True).start()
    write_frame(sock, READY, 0, b"")
    while (job := jobs.get()) is not None:
        job_id, body = job
        kind, answer = _answer(job_id, runner, body, current)
        try:
            solves = api.solve_tally.take()
            if solves:
                write_frame(sock, SOLVES, job_id, json.dumps(solves).encode())
            write_frame(sock, kind, job_id, answer)
        except OSError:
            break
    sock.close()


def worker_process(
    sock: socket.socket, limits: Limits, suggest_workers: int, role: str = ENGINE,
    warm_calls: bool = False,
) -> None:
    """The worker process's entry point: die with the forkserver, then ``worker_main``.

    Apart from ``worker_main`` (which tests also run in a thread) so that only a
    real worker process asks for the parent-death signal.
    """
    die_with_parent()
    worker_main(sock, limits, suggest_workers, role, warm_calls)
