"""The server factory: RouteService, health checking, reflection, bounded resources.

``create_server`` builds a ready-to-start ``RouteServer`` (tests start one on
port 0); ``serve`` runs one until SIGTERM/SIGINT and shuts it down gracefully:
health turns NOT_SERVING, new calls are refused, calls in flight get ``grace_s``
to finish (DESIGN.md §4).

The gRPC server is asyncio's (``grpc.aio``), running on an event loop thread of
its own behind this synchronous façade (issue 9, "fair under load"): a call
waiting for its request or for a worker holds no thread, so stalled clients
cannot starve the others. Engine work runs in lanes (``server.lanes``): solves
and validations in one, suggestion rankings in another, each with a bounded
queue. A watchdog turns health NOT_SERVING while a lane has work waiting but
makes no progress, and SERVING again when it recovers.

One client cannot take the whole call cap (issue 20): a connection holds at most
``max_streams_per_connection`` calls at once; health checks are not counted
against the cap (``server.call_cap``), and are also answered on a port of their
own (``server.health_port``), the port to probe.

Operators (issue 23): health's overall status is liveness; its per-service
status and ``/readyz`` are readiness (``server.readiness``: false while warming
up, draining or stalled). ``/metrics`` (``server.metrics``) is served on the
HTTP port, or alone on ``metrics_port`` when HTTP is off. The start line names
the version and git revision.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Callable

import grpc
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from route18xx.server.rpc.call_cap import CallCap
from route18xx.server.rpc.health_calls import health_handler
from route18xx.server.rpc.grpc_options import connection_options
from route18xx.server.rpc.listen_socket import (
    kernel_backlog,
    listen,
    listener_count,
    open_listeners,
)
from route18xx.server.rpc.health_port import create_health_server
from route18xx.server.ops.info import server_info
from route18xx.server.ops.metrics import ServerMetrics
from route18xx.server.ops.readiness import DRAINING, STALLED, WARMING_UP, Readiness
from route18xx.server.ops.version import version_text
from route18xx.server.core.lanes import Lane, LaneConfig
from route18xx.server.core.log_source import LogSourceConfig
from route18xx.server.core.worker_pool import WorkerPool
from route18xx.server.core.workers import DECODE, run_warm_jobs
from route18xx.server.core.runner import CheckFn, EngineRunner, Limits, SolveFn, SuggestFn
from route18xx.engine import api
from route18xx.server.core.calls import SERVICE_NAME, CallCore
from route18xx.server.core.warm_calls import warm_fetch, warm_jobs
from route18xx.server.rpc.servicer import RouteService

log = logging.getLogger("route18xx.server")

MiB = 1024 * 1024
#: A new gRPC connection's HTTP/2 preface and SETTINGS are due within this (or the receive
#: timeout, when shorter) of its first bytes: the kernel hands gRPC a connection only once
#: it sends (``server.rpc.listen_socket``), so a client slow to send does not lose it (issue 34).
HANDSHAKE_S = 2.0
#: The health status of ``FetchGameLog`` alone: NOT_SERVING while the log site is slow or
#: failing, which never touches liveness or readiness (issue 34).
FETCH_HEALTH = f"{SERVICE_NAME}/FetchGameLog"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def default_workers() -> int:
    """One solve per core: CP-SAT runs single-threaded per solve."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    #: Solve/validate lane: calls running at once.
    workers: int = field(default_factory=default_workers)
    #: Solve/validate lane: calls waiting beyond those, then RESOURCE_EXHAUSTED.
    queue: int = 64
    #: Run the solve lane's jobs in worker processes (one per worker) instead of threads:
    #: the Python part of solving then uses every core (server.workers).
    processes: bool = False
    #: Suggestion lane: rankings at once, and waiting.
    suggest_lanes: int = 1
    suggest_queue: int = 4
    #: Decode lane (with ``processes``): worker processes decoding large JSON requests
    #: (``calls.DECODE_LANE_MIN_BYTES``) before their lane runs them, and requests waiting
    #: beyond those. 0 = decode them in their own lane's workers.
    decode_workers: int = 1
    decode_queue: int = 8
    #: Solves at once within one suggestion ranking (the engine's own small pool).
    suggest_workers: int = field(default_factory=lambda: min(2, default_workers()))
    #: Calls accepted at once (waiting ones included), beyond which gRPC answers
    #: RESOURCE_EXHAUSTED. It counts a call from its headers on: it bounds the memory that
    #: calls still receiving their message may hold (up to ``max_receive_bytes`` each).
    #: Health checks are not counted (``server.call_cap``: they have a cap of their own).
    max_concurrent_rpcs: int = 256
    #: Calls at once on one HTTP/2 connection (its SETTINGS_MAX_CONCURRENT_STREAMS). A gRPC
    #: client queues its calls beyond it, ready ones behind silent ones: so a connection's
    #: silent calls keep only a quarter of it (``server.call_cap``), the rest stays for calls
    #: that send their message (issue 34; 32 whole let 40 stalled calls hold up the 41st).
    max_streams_per_connection: int = 128
    #: gRPC connections open at once on the service port (None: a quarter of the process's
    #: descriptors, at most 1000): past it a new one is closed at once (issue 34: a flood of
    #: 20 000 took every descriptor, and no port accepted a connection for ~10 s).
    max_grpc_connections: int | None = None
    #: Health checking alone on a port of its own, outside the call cap (issue 20): the
    #: port orchestrators should probe. None = off; 0 = any free port.
    health_port: int | None = None
    max_receive_bytes: int = 4 * MiB
    max_send_bytes: int = 4 * MiB
    grace_s: float = 5.0
    #: HTTP front end (Connect + gRPC-Web + the web page): None = off; 0 = any free port.
    http_port: int | None = None
    #: Origins allowed to call the HTTP API from a browser page (CORS); the page itself
    #: is served by the same origin and needs none.
    cors_origins: tuple[str, ...] = ()
    #: Host header values the HTTP front end serves (None: the loopback names and ``host``).
    allowed_hosts: tuple[str, ...] | None = None
    #: HTTP connections open at once (None: a quarter of the process's descriptors, at most 1000).
    max_http_connections: int | None = None
    #: uvicorn's HTTP/1.1 parser: "httptools" (C) or "h11" (pure Python) (``server.http_conn``).
    http_parser: str = "httptools"
    #: ``/metrics`` and ``/readyz`` alone on this port when the HTTP front end is off
    #: (None = off; 0 = any free port). With HTTP on they are on the HTTP port.
    metrics_port: int | None = None
    #: Health turns NOT_SERVING when a lane with waiting work made no progress for this long.
    stall_after_s: float = 10.0
    limits: Limits = Limits()
    #: The one site ``FetchGameLog`` fetches game logs from, and its bounds.
    log_source: LogSourceConfig = LogSourceConfig()
    #: ``FetchGameLog`` calls at once (threads: the fetch waits on the network); more are
    #: RESOURCE_EXHAUSTED at once (no queue: a slow site never stalls a lane).
    fetch_lanes: int = 4


class RouteServer:
    """A configured gRPC server; ``port`` is the bound port (useful with port 0)."""

    def __init__(
        self,
        config: ServerConfig,
        solve_fn: SolveFn | None = None,
        check_fn: CheckFn | None = None,
        suggest_fn: SuggestFn | None = None,
    ) -> None:
        self.config = config
        engine_fns = (("solve_fn", solve_fn), ("check_fn", check_fn), ("suggest_fn", suggest_fn))
        runner_kwargs: dict[str, Any] = {k: v for k, v in engine_fns if v}
        self.runner = EngineRunner(
            config.limits, suggest_workers=config.suggest_workers,
            log_source=config.log_source, **runner_kwargs
        )
        # Worker processes only for the real engine: stand-in functions (tests) stay in threads.
        processes = None
        #: Stand-in engine functions (tests): the lanes' warm-up calls would be theirs.
        self._stand_ins = bool(runner_kwargs)
        in_processes = config.processes and not runner_kwargs
        if in_processes:
            processes = WorkerPool(config.workers, config.limits)

        self.lanes = {
            "solve": Lane(LaneConfig("solve", config.workers, config.queue), processes),
            "suggest": Lane(
                LaneConfig("suggest", config.suggest_lanes, config.suggest_queue, retry_after_s=5.0)
            ),
            "fetch": Lane(LaneConfig("fetch", config.fetch_lanes, 0, retry_after_s=2.0,
                                     vital=False)),
        }
        if in_processes and config.decode_workers > 0:
            decoders = WorkerPool(config.decode_workers, config.limits, role=DECODE)
            self.lanes["decode"] = Lane(
                LaneConfig("decode", config.decode_workers, config.decode_queue), decoders
            )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="route18xx-grpc", daemon=True
        )
        self._thread.start()
        self._stopped = threading.Event()
        self._terminated = threading.Event()
        self._watchdog: asyncio.Future[None] | None = None
        self._http: Any = None  # uvicorn.Server, when the HTTP front end runs
        self._http_task: asyncio.Future[None] | None = None
        self._booting: list[asyncio.Future[None]] = []
        self._warming: asyncio.Future[None] | None = None
        #: The warm-up calls' token: a stop cancels the one running on a lane's thread.
        self._warm_cancel = api.new_cancel_token(time.monotonic() + 300.0)
        self.metrics = ServerMetrics()
        self.readiness = Readiness()
        self._ops_http: Any = None  # uvicorn.Server on the metrics port, when it is on
        self._ops_task: asyncio.Future[None] | None = None
        self.metrics_port: int | None = None
        self.http_port: int | None = None
        self.health_server: grpc.aio.Server | None = None
        self.health_port: int | None = None  # the bound health port, when it is on
        self.health_cap: CallCap | None = None  # the health port's cap, when it is on
        try:
            self.port = self._call(self._build())
        except BaseException:
            self._close_loop()
            raise

    # -- the event loop thread -------------------------------------------------------

    def _call(self, coro: Any) -> Any:
        """Run ``coro`` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def _close_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    async def _build(self) -> int:
        config = self.config
        self.health = health.aio.HealthServicer()
        info = server_info(config, [lane.config for lane in self.lanes.values()])
        self.core = CallCore(self.runner, self.lanes, config.limits, self.metrics, info)
        # Each kind of call has a cap of its own (health outside the service's); gRPC's own
        # cap bounds the sum. A call refused there still logs its line.
        self.call_cap = CallCap(config.max_concurrent_rpcs, self.core.finish,
                                config.max_streams_per_connection)
        max_connections = config.max_grpc_connections or default_max_connections()
        listeners = listener_count(max_connections)
        self.grpc_server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", config.max_receive_bytes),
                ("grpc.max_send_message_length", config.max_send_bytes),
                *connection_options(config.max_streams_per_connection, max_connections,
                                    min(config.limits.receive_timeout_s, HANDSHAKE_S),
                                    listeners),
            ],
            interceptors=[self.call_cap],
            maximum_concurrent_rpcs=self.call_cap.hard_limit,
        )
        service = RouteService(self.core)
        limits = config.limits
        self.grpc_server.add_generic_rpc_handlers([
            service.generic_handler(),
            health_handler(self.health, limits.receive_timeout_s, limits.max_call_s),
        ])
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.grpc_server
        )
        port = listen(self.grpc_server, config.host, config.port, listeners, "gRPC")
        if config.health_port is not None:
            self.health_server, self.health_port, self.health_cap = create_health_server(
                self.health, config.host, config.health_port, config.max_streams_per_connection,
                limits.receive_timeout_s, limits.max_call_s, min(limits.receive_timeout_s,
                                                                 HANDSHAKE_S),
            )
        return port

    async def _start(self, warm_up: Callable[[], None] | None) -> None:
        # Worker processes boot beside the first calls (which wait in the pool's queue),
        # so that the server is live without waiting for them; it is ready once they are.
        for lane in self.lanes.values():  # a server that warms up warms every worker process
            if lane.processes is not None:
                lane.processes.warm_calls = warm_up is not None
        self._booting = [asyncio.ensure_future(lane.start()) for lane in self.lanes.values()]
        await self.grpc_server.start()
        if self.health_server is not None:
            await self.health_server.start()
        if self.config.http_port is not None:
            await self._start_http()
        elif self.config.metrics_port is not None:
            await self._start_ops_http(self.config.metrics_port)
        await asyncio.sleep(0)  # lanes of threads have started now
        if warm_up is None and all(f.done() for f in self._booting):
            self.readiness.set(WARMING_UP, False)
        else:
            self._warming = asyncio.ensure_future(self._warm(warm_up))
        await self._set_health(SERVING)
        self._watchdog = asyncio.ensure_future(self._watch())

    async def _warm(self, warm_up: Callable[[], None] | None) -> None:
        """Ready once the worker processes said READY and ``warm_up`` (the engine's) ran."""
        await asyncio.gather(*self._booting)
        if warm_up is not None:
            try:
                await asyncio.get_running_loop().run_in_executor(None, warm_up)
                await self._warm_lanes()
            except Exception:
                log.exception("warming up failed: the server stays not ready")
                return
        self.readiness.set(WARMING_UP, False)
        if not self._stopped.is_set():
            log.info("ready: warmed up", extra={"event": "ready"})
            await self._set_health(SERVING)

    async def _warm_lanes(self) -> None:
        """A call of every kind on each lane of threads, as a call runs it (its thread, its
        modules, its converters; ``server.warm_calls``): the first client's SuggestMoves
        after ready paid ~90 ms for them, a ReplayGame ~1 s, a FetchGameLog ~0.1-0.4 s.
        Lanes of worker processes warm in each worker before it says READY; a server on
        stand-in engine functions (tests) warms none."""
        if self._stand_ins:
            return
        cancel = self._warm_cancel
        for name, lane in self.lanes.items():
            if lane.in_processes or cancel.cancelled:
                continue
            jobs = warm_jobs(name)
            await lane.run(functools.partial(run_warm_jobs, self.runner, jobs, cancel), cancel)
            if name == "fetch":
                await lane.run(warm_fetch, cancel)
        # A ranking's solves run on its own pool's threads, outside ``solve_tally.uncounted``:
        # the warm-up's are not a client's (a call served while warming loses its own here).
        api.solve_tally.take()

    async def _start_ops_http(self, port: int) -> None:
        """``/metrics`` and ``/readyz`` alone on ``port`` (the HTTP front end is off)."""
        import uvicorn

        from route18xx.server.httpd.ops_http import create_ops_app

        sockets = open_listeners(self.config.host, port, listener_count(None), "metrics")
        config = uvicorn.Config(
            create_ops_app(self.metrics, self.readiness), host=self.config.host, port=port,
            log_level="warning", log_config=None, lifespan="off", timeout_keep_alive=5,
            backlog=kernel_backlog(),
        )
        self._ops_http = uvicorn.Server(config)
        self._ops_task = asyncio.ensure_future(self._ops_http.serve(sockets))
        while not self._ops_http.started:
            if self._ops_task.done():
                self._ops_task.result()
                raise OSError(f"cannot listen for metrics on {self.config.host}:{port}")
            await asyncio.sleep(0.01)
        self.metrics_port = self._ops_http.servers[0].sockets[0].getsockname()[1]

    async def _start_http(self) -> None:
        """Connect/gRPC-Web and the web page on uvicorn, in this loop, sharing the lanes."""
        import uvicorn

        from route18xx.server.httpd.http_app import create_http_app
        from route18xx.server.httpd.http_conn import AcceptErrorLog, bounded_protocol, parser_protocol
        from route18xx.server.httpd.http_headers import default_allowed_hosts

        config_ = self.config
        app = create_http_app(
            self.core, cors_origins=config_.cors_origins,
            max_receive_bytes=config_.max_receive_bytes,
            allowed_hosts=config_.allowed_hosts or default_allowed_hosts(config_.host),
            readiness=self.readiness,
        )
        assert config_.http_port is not None
        # Connections are bounded in number and time (issue 20): the request head must
        # arrive within the receive timeout, an idle keep-alive ends sooner.
        receive_s = config_.limits.receive_timeout_s
        protocol = bounded_protocol(
            config_.max_http_connections or default_max_http_connections(), receive_s,
            parser_protocol(config_.http_parser),
        )
        asyncio.get_running_loop().set_exception_handler(AcceptErrorLog())
        config = uvicorn.Config(
            app, host=config_.host, port=config_.http_port, log_level="warning",
            log_config=None, lifespan="off", timeout_graceful_shutdown=int(config_.grace_s) or None,
            http=protocol, timeout_keep_alive=max(1, int(min(receive_s, 5.0))),
            backlog=kernel_backlog(),
        )
        # Silent connections wait in the kernel, as on the gRPC ports (issue 34's flood).
        sockets = open_listeners(config_.host, config_.http_port, listener_count(None), "HTTP")
        self._http = uvicorn.Server(config)
        self._http_task = asyncio.ensure_future(self._http.serve(sockets))
        while not self._http.started:
            if self._http_task.done():  # it failed to start (port in use …)
                self._http_task.result()
                raise OSError(f"cannot listen for HTTP on {self.config.host}:{self.config.http_port}")
            await asyncio.sleep(0.01)
        self.http_port = self._http.servers[0].sockets[0].getsockname()[1]
        self.metrics_port = self.http_port

    async def _set_health(self, live: int) -> None:
        """Liveness on the overall status (``""``); readiness on the service's own."""
        await self.health.set("", live)
        ready = live == SERVING and self.readiness.ready
        await self.health.set(SERVICE_NAME, SERVING if ready else NOT_SERVING)

    async def _watch(self) -> None:
        """Health follows the vital lanes: NOT_SERVING while one is stalled (``Lane.stalled``).

        A lane that waits on a dependency (the log site's) is not vital: its stall, or the
        site's failure, marks only its calls unavailable (``FETCH_HEALTH``; issue 34).
        """
        serving, fetching = True, True
        await self.health.set(FETCH_HEALTH, SERVING)
        while not self._stopped.is_set():
            await asyncio.sleep(0.5)
            after = self.config.stall_after_s
            healthy = not any(lane.stalled(after) for lane in self.lanes.values()
                              if lane.config.vital)
            fetch = self.lanes["fetch"]
            can_fetch = self.runner.log_site.available and not fetch.stalled(after)
            if can_fetch != fetching and not self._stopped.is_set():
                fetching = can_fetch
                self.readiness.set_unavailable("FetchGameLog", not can_fetch)
                log.warning("FetchGameLog: %s", "available again" if can_fetch else
                            f"unavailable (the log site {self.config.log_source.origin} is "
                            "slow or failing)", extra={"event": "health"})
                await self.health.set(FETCH_HEALTH, SERVING if can_fetch else NOT_SERVING)
            if healthy != serving and not self._stopped.is_set():
                serving = healthy
                self.readiness.set(STALLED, not healthy)
                log.warning("health: %s", "SERVING again" if healthy else "NOT_SERVING (a lane is stalled)",
                            extra={"event": "health"})
                await self._set_health(SERVING if healthy else NOT_SERVING)

    async def _stop(self, grace: float) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        self.runner.log_site.stop()  # a fetch waits on the site: cut short, not given the grace
        await self.health.enter_graceful_shutdown()
        if self._http is not None:
            self._http.should_exit = True
        if self._ops_http is not None:
            self._ops_http.should_exit = True
        if self._warming is not None:
            self._warming.cancel()
            self._warm_cancel.cancel()  # the warm-up call running on a lane stops too
        await self.grpc_server.stop(grace)
        if self.health_server is not None:  # NOT_SERVING through the grace, then gone
            await self.health_server.stop(0)
        tasks = [t for t in (self._http_task, self._ops_task) if t is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=grace + 1)

    # -- the façade -------------------------------------------------------------------

    @property
    def target(self) -> str:
        return f"{self.config.host}:{self.port}"

    @property
    def http_url(self) -> str | None:
        """The HTTP front end's base URL, once started (None when it is off)."""
        if self.http_port is None:
            return None
        return f"http://{self.config.host}:{self.http_port}"

    def start(self, warm_up: Callable[[], None] | None = None) -> None:
        """Start serving; ready once the worker processes booted and ``warm_up`` ran (in a thread)."""
        self._call(self._start(warm_up))
        log.info("route18xx %s serving %s on %s (%d workers)", version_text(), SERVICE_NAME,
                 self.target, self.config.workers, extra={"event": "start"})
        if self.health_port is not None:
            log.info("serving health (outside the call cap) on %s:%d", self.config.host,
                     self.health_port)
        if self.http_url:
            log.info("serving HTTP (Connect, gRPC-Web, the web page, /metrics, /readyz) on %s",
                     self.http_url)
        elif self.metrics_port is not None:
            log.info("serving /metrics and /readyz on http://%s:%d", self.config.host,
                     self.metrics_port)

    def wait_booted(self, timeout: float | None = None) -> bool:
        """Wait until every lane's worker processes said ``READY`` (True), or ``timeout``
        seconds (False). Calls made before then run on the lanes' threads in this process
        (``Lane.booting``); a test of the workers themselves waits for them."""
        async def booted() -> None:
            await asyncio.gather(*self._booting)

        try:
            asyncio.run_coroutine_threadsafe(booted(), self._loop).result(timeout)
        except TimeoutError:
            return False
        return True

    def stop(self, grace_s: float | None = None) -> threading.Event:
        """Begin a graceful stop: NOT_SERVING, refuse new calls, let calls in flight finish."""
        grace = self.config.grace_s if grace_s is None else grace_s
        if not self._stopped.is_set():
            self._stopped.set()
            self.readiness.set(DRAINING, True)
            log.info("shutting down: draining", extra={"event": "stop"})
            future = asyncio.run_coroutine_threadsafe(self._stop(grace), self._loop)
            threading.Thread(target=self._finish, args=(future,), daemon=True).start()
        return self._terminated

    def _finish(self, future: Any) -> None:
        try:
            future.result()
        finally:
            for lane in self.lanes.values():
                lane.shutdown()
            self._close_loop()
            self._terminated.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the server has stopped (True), or ``timeout`` seconds (False)."""
        return self._terminated.wait(timeout)


def default_max_connections() -> int:
    """A quarter of the process's file descriptors (the other doors and the workers need
    theirs), at most 1000: the default of the HTTP and the gRPC connection caps each."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1000
    return max(16, min(1000, soft // 4))


default_max_http_connections = default_max_connections


def create_server(
    config: ServerConfig | None = None,
    *,
    solve_fn: SolveFn | None = None,
    check_fn: CheckFn | None = None,
    suggest_fn: SuggestFn | None = None,
) -> RouteServer:
    """A RouteServer ready to ``start()``; the ``*_fn`` arguments replace the engine's."""
    return RouteServer(config or ServerConfig(), solve_fn, check_fn, suggest_fn)


def serve(config: ServerConfig) -> int:
    """Run until SIGTERM or SIGINT, then stop gracefully. Returns the exit status."""
    from route18xx.engine.api import warm_up
    from route18xx.server.core.memory import return_large_buffers

    return_large_buffers()  # freed request bodies go back to the system, not kept in heaps
    server = create_server(config)
    server.start(warm_up)  # not ready until then: the first client must not pay for OR-Tools

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("received %s", signal.Signals(signum).name)
        server.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while not server.wait(0.5):  # wake for signals
        pass
    return 0
