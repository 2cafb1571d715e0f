"""Engine work in worker processes, so that throughput scales with cores (issue 11).

A solve is mostly Python around CP-SAT (building the route problem, the model,
the engine's re-check), and Python threads share one interpreter lock: with
threads, eight clients get little more than one core's worth of solves. The
solve lane can therefore run its jobs in a pool of processes, one per core:

* the pool forks its workers from a *forkserver* that preloads the engine, the
  solver and OR-Tools, before any gRPC thread exists: a worker starts in
  milliseconds and never inherits the server's sockets or threads;
* a job crosses as bytes: the method's name, the serialized request and the
  call's deadline; the answer comes back serialized. The engine's errors
  pickle whole (``MalformedInput`` keeps its field), so the error table maps
  them as it does in-process;
* the call's deadline bounds the job in the worker exactly as in a thread
  (the worker's ``CancelToken`` carries it; ``time.monotonic`` is the same
  clock in every process). An explicit client cancel stops a job that has not
  started; one that runs stops at its deadline.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from route18xx.engine import api
from route18xx.engine.api import OutOfTime
from route18xx.server.runner import EngineRunner, Limits

#: The engine calls of this worker process (set by ``init_worker``).
_RUNNER: EngineRunner | None = None

#: Modules the forkserver imports once, so every worker starts with them loaded.
PRELOAD = ["route18xx.server.workers", "route18xx.server.calls", "route18xx.engine.optimize"]


def init_worker(limits: Limits, suggest_workers: int) -> None:
    """Set up a worker: its engine runner, and one solve so nothing loads on a client's time."""
    global _RUNNER
    _RUNNER = EngineRunner(limits, suggest_workers=suggest_workers)
    api.warm_up()


def run_job(method_name: str, payload: bytes, deadline: float | None) -> bytes:
    """One call's work in this worker: decode, run the method's job, encode the answer."""
    from route18xx.server.calls import METHODS_BY_NAME, decode

    assert _RUNNER is not None, "init_worker did not run"
    cancel = api.new_cancel_token(deadline)
    if cancel.cancelled:  # the call ended while it waited: do nothing
        raise OutOfTime("the call", expired=True)
    method = METHODS_BY_NAME[method_name]
    response = method.job(_RUNNER, decode(method, payload), cancel)
    answer: bytes = response.SerializeToString()
    return answer


def ping() -> int:
    """A job that only proves a worker is up (used to start the pool ahead of clients)."""
    return 1


def process_pool(workers: int, limits: Limits, suggest_workers: int = 1) -> ProcessPoolExecutor:
    """A pool of ``workers`` engine processes forked from a preloaded forkserver."""
    context: Any = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=init_worker,
        initargs=(limits, suggest_workers),
    )
