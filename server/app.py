"""The server factory: RouteService, health checking, reflection, bounded resources.

``create_server`` builds a ready-to-start ``RouteServer`` (tests start one on
port 0); ``serve`` runs one until SIGTERM/SIGINT and shuts it down gracefully:
health turns NOT_SERVING, new calls are refused, calls in flight get ``grace_s``
to finish (DESIGN.md §4).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from server.calllog import CallLogInterceptor
from server.runner import CheckFn, EngineRunner, Limits, SolveFn, SuggestFn
from server.servicer import RouteServicer

log = logging.getLogger("route18xx.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RouteService"].full_name
MiB = 1024 * 1024


def default_workers() -> int:
    """One solve per core: CP-SAT runs single-threaded per solve."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    #: Engine worker threads: solves (or suggestion rankings) running at once.
    workers: int = field(default_factory=default_workers)
    #: Solves at once within one suggestion ranking (the engine's own small pool).
    suggest_workers: int = field(default_factory=lambda: min(2, default_workers()))
    #: gRPC handler threads (calls waiting for a worker hold one).
    handler_threads: int = 32
    #: Calls accepted at once, beyond which gRPC answers RESOURCE_EXHAUSTED.
    max_concurrent_rpcs: int = 256
    max_receive_bytes: int = 4 * MiB
    max_send_bytes: int = 4 * MiB
    grace_s: float = 5.0
    limits: Limits = Limits()


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
            config.workers, config.limits, suggest_workers=config.suggest_workers, **runner_kwargs
        )
        self.health = health.HealthServicer(experimental_non_blocking=True)
        self.grpc_server = grpc.server(
            ThreadPoolExecutor(max_workers=config.handler_threads, thread_name_prefix="grpc"),
            interceptors=[CallLogInterceptor()],
            options=[
                ("grpc.max_receive_message_length", config.max_receive_bytes),
                ("grpc.max_send_message_length", config.max_send_bytes),
                ("grpc.so_reuseport", 0),  # a port in use is an error, not a shared listener
            ],
            maximum_concurrent_rpcs=config.max_concurrent_rpcs,
        )
        pb_grpc.add_RouteServiceServicer_to_server(RouteServicer(self.runner), self.grpc_server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc_server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.grpc_server
        )
        try:
            self.port = self.grpc_server.add_insecure_port(f"{config.host}:{config.port}")
        except RuntimeError:
            self.port = 0
        if self.port == 0:
            raise OSError(f"cannot listen on {config.host}:{config.port} (in use or not an address)")
        self._stopped = threading.Event()

    @property
    def target(self) -> str:
        return f"{self.config.host}:{self.port}"

    def start(self) -> None:
        self.grpc_server.start()
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        log.info("serving %s on %s (%d workers)", SERVICE_NAME, self.target, self.config.workers)

    def stop(self, grace_s: float | None = None) -> threading.Event:
        """Begin a graceful stop: NOT_SERVING, refuse new calls, let calls in flight finish."""
        if not self._stopped.is_set():
            self._stopped.set()
            log.info("shutting down")
            self.health.enter_graceful_shutdown()
        grace = self.config.grace_s if grace_s is None else grace_s
        done = self.grpc_server.stop(grace)
        threading.Thread(target=self._finish, args=(done,), daemon=True).start()
        return done

    def _finish(self, done: threading.Event) -> None:
        done.wait()
        self.runner.shutdown()

    def wait(self) -> None:
        self.grpc_server.wait_for_termination()


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
    from engine.api import warm_up

    warm_up()  # before SERVING: the first client must not pay for loading OR-Tools
    server = create_server(config)
    server.start()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("received %s", signal.Signals(signum).name)
        server.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.wait()
    return 0
