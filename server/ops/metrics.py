"""The server's Prometheus metrics (issue 23), with prometheus-client.

One ``ServerMetrics`` per server, on a registry of its own (two servers in one
process, as in the tests, count apart). What it holds:

* per call, by ``method``, ``transport`` (grpc, http) and ``code`` (the call's
  real outcome: OK or the gRPC status name): ``route18xx_calls_total`` and the
  latency histogram ``route18xx_call_duration_seconds`` (the same calls: each
  series' ``_count`` equals its counter); ``route18xx_calls_in_flight``;
* per solve, by solver ``status`` (OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN, or
  ERROR when it raised): ``route18xx_solves_total`` and
  ``route18xx_solve_duration_seconds`` (graph, model and search). Every solve
  counts: those inside validations, suggestions and turns, and those of calls
  that failed (a deadline, a dropped client), in this process or in an engine
  worker's (``engine.api.solve_tally``: taken at each call's end and each scrape;
  the tally is the process's, so two servers in one process share their solves);
* read from the lanes and worker pools when scraped (``LaneCollector``): queue
  depth, running calls, refusals (RESOURCE_EXHAUSTED because the lane was full),
  engine worker starts, deaths and replacements;
* memory: prometheus-client's process collector (``process_resident_memory_bytes``
  …) and the resident memory of the whole process tree, workers and forkserver
  included (``route18xx_tree_resident_memory_bytes``, psutil).

The lanes and pools keep plain counts; nothing outside this module imports
prometheus-client.

A scrape is rendered at most once per ``SCRAPE_CACHE_S`` for each format
(``ServerMetrics.render``; issue 34): rendering walks every series, the process
tree and /proc, 3.3 ms of CPU on the event loop, and 8 clients scraping in a
loop moved a cheap call's median from 1 ms to 77 ms. Within the interval a
scrape gets the last rendering, so a flood of scrapes costs what serving bytes
costs. One second is far below any scrape interval (Prometheus' default: 15 s).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping

import psutil
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from route18xx.engine.api import solve_tally

if TYPE_CHECKING:
    from route18xx.server.core.lanes import Lane

#: Call latency buckets (seconds): a solve takes milliseconds, a ranking up to its deadline.
CALL_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                30.0, 60.0)
#: Solver time buckets (seconds).
SOLVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                 60.0)
#: How long a rendered scrape is served again (seconds): at most one rendering per format
#: per interval (module docstring; measured: 3.3 ms of CPU each, 250 scrapes/s from 8 clients).
SCRAPE_CACHE_S = 1.0


class ServerMetrics:
    """The metrics of one server (module docstring); ``registry`` is what ``/metrics`` shows."""

    def __init__(self, *, cache_s: float = SCRAPE_CACHE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._cache_s = cache_s
        self._clock = clock
        self._rendered: dict[str, tuple[float, bytes]] = {}  # content type → (when, page)
        self._render_lock = threading.Lock()
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.calls = Counter(
            "route18xx_calls", "Calls answered, by method, transport and outcome (gRPC code).",
            ("method", "transport", "code"), registry=r,
        )
        self.call_seconds = Histogram(
            "route18xx_call_duration_seconds",
            "Call latency from its arrival to its answer, by method, transport and outcome.",
            ("method", "transport", "code"), buckets=CALL_BUCKETS, registry=r,
        )
        self.in_flight = Gauge(
            "route18xx_calls_in_flight", "Calls arrived and not yet answered, by transport.",
            ("transport",), registry=r,
        )
        solve_tally.enable()
        solve_tally.take()  # solves before this server (in tests: other tests') are not its own
        r.register(_TakeSolves(self))  # before the solves' series: a scrape shows them all
        self.solves = Counter(
            "route18xx_solves", "Solves run (every call's, failed or not), by solver status.",
            ("status",), registry=r,
        )
        self.solve_seconds = Histogram(
            "route18xx_solve_duration_seconds",
            "Solver time (graph, model and search) of every solve, by solver status.",
            ("status",), buckets=SOLVE_BUCKETS, registry=r,
        )
        ProcessCollector(registry=r)
        self.lanes = LaneCollector()
        r.register(self.lanes)
        r.register(TreeMemoryCollector())

    def render(self, accept: str) -> tuple[bytes, str]:
        """The page for a scraper's ``Accept`` header and its content type: rendered anew
        at most once per ``cache_s`` for each format, else the last rendering (module
        docstring)."""
        encode, content_type = choose_encoder(accept)
        with self._render_lock:
            now = self._clock()
            last = self._rendered.get(content_type)
            if last is None or not 0 <= now - last[0] < self._cache_s:
                last = (now, encode(self.registry))
                self._rendered[content_type] = last
            return last[1], content_type

    def call(self, method: str, transport: str, code: str, duration_s: float) -> None:
        """One call answered."""
        self.calls.labels(method, transport, code).inc()
        self.call_seconds.labels(method, transport, code).observe(max(0.0, duration_s))

    def solved(self, status: str, seconds: float) -> None:
        """One solve with its status and time."""
        self.solves.labels(status).inc()
        self.solve_seconds.labels(status).observe(max(0.0, seconds))

    def take_solves(self) -> None:
        """The solves recorded since last taken (``engine.api.solve_tally``), into the metrics."""
        for status, seconds in solve_tally.take():
            self.solved(status, seconds)


class _TakeSolves(Collector):
    """No series of its own: at each scrape, the solves not yet taken are taken first."""

    def __init__(self, metrics: ServerMetrics) -> None:
        self._metrics = metrics

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        self._metrics.take_solves()
        return []


class LaneCollector(Collector):
    """The lanes' and their worker pools' state, read at each scrape."""

    def __init__(self) -> None:
        self._lanes: Mapping[str, Lane] = {}

    def watch(self, lanes: Mapping[str, Lane]) -> None:
        self._lanes = lanes

    def collect(self) -> Iterable[Metric]:
        label = ["lane"]
        waiting = GaugeMetricFamily("route18xx_lane_queue_depth",
                                    "Calls admitted to a lane and waiting for a worker.", labels=label)
        running = GaugeMetricFamily("route18xx_lane_running", "Calls running in a lane.", labels=label)
        capacity = GaugeMetricFamily("route18xx_lane_capacity",
                                     "Calls a lane admits at once (workers + queue).", labels=label)
        refused = CounterMetricFamily("route18xx_lane_refusals",
                                      "Calls refused because the lane was full (RESOURCE_EXHAUSTED).",
                                      labels=label)
        workers = GaugeMetricFamily("route18xx_engine_workers",
                                    "Engine worker processes alive.", labels=label)
        starts = CounterMetricFamily("route18xx_engine_worker_starts",
                                     "Engine worker processes started (ready).", labels=label)
        deaths = CounterMetricFamily("route18xx_engine_worker_deaths",
                                     "Engine worker processes that died or broke the protocol.",
                                     labels=label)
        replaced = CounterMetricFamily("route18xx_engine_worker_replacements",
                                       "Engine worker processes started to replace a dead one.",
                                       labels=label)
        for name, lane in self._lanes.items():
            counts = lane.counts()
            waiting.add_metric([name], counts.waiting)
            running.add_metric([name], counts.running)
            capacity.add_metric([name], lane.capacity)
            refused.add_metric([name], counts.refused)
            pool = lane.processes
            if pool is not None:
                workers.add_metric([name], pool.stats.alive)
                starts.add_metric([name], pool.stats.starts)
                deaths.add_metric([name], pool.stats.deaths)
                replaced.add_metric([name], pool.stats.replacements)
        yield from (waiting, running, capacity, refused, workers, starts, deaths, replaced)


class TreeMemoryCollector(Collector):
    """Resident memory of this process and all its descendants (engine workers, forkserver)."""

    def collect(self) -> Iterator[Metric]:
        rss, count = 0, 0
        try:
            me = psutil.Process()
            tree = [me, *me.children(recursive=True)]
        except psutil.Error:
            tree = []
        for process in tree:
            try:
                rss += int(process.memory_info().rss)
                count += 1
            except psutil.Error:  # it ended meanwhile
                continue
        yield GaugeMetricFamily("route18xx_tree_resident_memory_bytes",
                                "Resident memory of the server and its worker processes.",
                                value=rss)
        yield GaugeMetricFamily("route18xx_tree_processes",
                                "Processes in the server's tree (itself included).", value=count)
