"""What an operator sees (issue 23): /metrics after a known mix of calls, GetInfo and the
version on every answer, and readiness while warming up, stalled and draining.

The expected counts are the calls this test sends, counted by hand; the scrape is
parsed with ``prometheus_client.parser``, as Prometheus would read it.
"""

from __future__ import annotations

import json
import threading
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterable, Iterator

import grpc
import pytest
from google.protobuf import json_format
from prometheus_client.core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from route18xx.engine import api
from route18xx.server.convert import converters
from route18xx.server.rpc.app import RouteServer, ServerConfig, create_server
from route18xx.server.core.calls import SERVICE_NAME
from route18xx.server.core.runner import Limits
from route18xx.server.ops.metrics import SCRAPE_CACHE_S, ServerMetrics
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.server.conftest import (
    BASE_STATE_NAME, NOT_SERVING, SERVING, health_status, real_state,
)
from tests.route_server import started_server
from tests.server.http_calls import JSON, SERVICE, post

ROOT = Path(__file__).resolve().parents[2]
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def pyproject_version() -> str:
    """The version the package declares: the witness for --version and GetInfo."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return str(data["project"]["version"])


class GatedSolver:
    """The real engine's solve, held while ``gate`` is clear (to fill the lane on purpose)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.gate.wait(30)
        return api.solve_report(*args, **kwargs)


@pytest.fixture(scope="module")
def gated() -> GatedSolver:
    return GatedSolver()


@pytest.fixture(scope="module")
def ops(gated: GatedSolver) -> Iterator[RouteServer]:
    """One solve at a time and no queue: a second solve is refused while one runs."""
    config = ServerConfig(port=0, workers=1, queue=0, http_port=0, limits=Limits(max_call_s=20))
    with started_server(config, stop_wait_s=10, solve_fn=gated) as srv:
        yield srv


def scrape(server: RouteServer) -> Samples:
    with urllib.request.urlopen(f"{server.http_url}/metrics", timeout=10) as answer:
        assert answer.status == 200
        text = answer.read().decode("utf-8")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text) for s in family.samples
    }


def fresh_scrape(server: RouteServer) -> Samples:
    """A scrape rendered now: past the interval in which a rendering is served again."""
    time.sleep(SCRAPE_CACHE_S * 1.05)
    return scrape(server)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _http_solve(server: RouteServer, state: dict[str, Any]) -> str:
    request = converters.solve_request_to_proto(state)
    body = json.dumps(json_format.MessageToDict(request)).encode()
    assert server.http_url is not None
    return post(server.http_url, f"{SERVICE}/SolveRoutes", body, {"Content-Type": JSON}).code


def test_metrics_count_a_known_mix_of_calls(
    ops: RouteServer, gated: GatedSolver, base_state: dict[str, Any]
) -> None:
    good = converters.solve_request_to_proto(base_state)
    bad_state = {**base_state, "phase": "9"}
    bad = converters.solve_request_to_proto(bad_state)
    with grpc.insecure_channel(ops.target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        for _ in range(3):
            stub.SolveRoutes(good, timeout=20)
        for _ in range(2):
            with pytest.raises(grpc.RpcError) as info:
                stub.SolveRoutes(bad, timeout=20)
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        stub.GetInfo(pb.GetInfoRequest(), timeout=5)
        # The refused one: a solve holds the only worker, the next finds the lane full.
        gated.gate.clear()
        held = stub.SolveRoutes.future(good, timeout=20)
        deadline = time.monotonic() + 10
        while ops.lanes["solve"].counts().running < 1:
            assert time.monotonic() < deadline, "the held solve never started"
            time.sleep(0.02)
        with pytest.raises(grpc.RpcError) as info:
            stub.SolveRoutes(good, timeout=20)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        gated.gate.set()
        held.result()
    assert [_http_solve(ops, base_state) for _ in range(2)] == ["ok", "ok"]
    assert _http_solve(ops, bad_state) == "invalid_argument"

    sent = {  # (method, transport, code) → calls sent above
        ("SolveRoutes", "grpc", "OK"): 4,
        ("SolveRoutes", "grpc", "INVALID_ARGUMENT"): 2,
        ("SolveRoutes", "grpc", "RESOURCE_EXHAUSTED"): 1,
        ("GetInfo", "grpc", "OK"): 1,
        ("SolveRoutes", "http", "OK"): 2,
        ("SolveRoutes", "http", "INVALID_ARGUMENT"): 1,
    }
    # An HTTP call is counted just after its answer is sent: wait for the last one.
    deadline = time.monotonic() + 10
    while True:
        samples = scrape(ops)
        total = sum(v for (name, _), v in samples.items() if name == "route18xx_calls_total")
        if total >= sum(sent.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    counted = {
        (dict(labels)["method"], dict(labels)["transport"], dict(labels)["code"]): v
        for (name, labels), v in samples.items() if name == "route18xx_calls_total"
    }
    assert counted == sent
    for (method, transport, code), n in sent.items():
        labels = {"method": method, "transport": transport, "code": code}
        assert value(samples, "route18xx_call_duration_seconds_count", **labels) == n
        assert value(samples, "route18xx_call_duration_seconds_bucket", le="+Inf", **labels) == n
        assert value(samples, "route18xx_call_duration_seconds_sum", **labels) > 0
    assert value(samples, "route18xx_lane_refusals_total", lane="solve") == 1
    assert value(samples, "route18xx_lane_refusals_total", lane="suggest") == 0
    # Every OK solve of this small board is proven optimal: 4 over gRPC, 2 over HTTP.
    assert value(samples, "route18xx_solves_total", status="OPTIMAL") == 6
    assert value(samples, "route18xx_solve_duration_seconds_count", status="OPTIMAL") == 6
    assert value(samples, "route18xx_calls_in_flight", transport="grpc") == 0
    assert value(samples, "route18xx_lane_queue_depth", lane="solve") == 0
    assert value(samples, "process_resident_memory_bytes") > 10 * 2**20
    assert (value(samples, "route18xx_tree_resident_memory_bytes")
            >= value(samples, "process_resident_memory_bytes") * 0.9)


class SolveWitness:
    """Counts, by status, the solves the engine runs in this process (the solver's ``solve``
    wrapped where the engine imports it): the witness for ``route18xx_solves_total``, apart
    from the server's tally."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.seen: dict[str, int] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            solution = self.real(*args, **kwargs)
        except Exception:
            self.seen["ERROR"] = self.seen.get("ERROR", 0) + 1
            raise
        self.seen[solution.status] = self.seen.get(solution.status, 0) + 1
        return solution


def test_every_solve_is_counted_by_status(
    ops: RouteServer, gated: GatedSolver, base_state: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Solves inside a validation and a suggestion, and a failed call's, count (issue 23)."""
    from route18xx.engine.answer import optimize, prepared

    routes = real_state(BASE_STATE_NAME)["reference"]["recorded_routes"]
    before = fresh_scrape(ops)
    witness = SolveWitness(optimize.solve)
    for module in (optimize, prepared):  # every engine module that calls the solver
        monkeypatch.setattr(module, "solve", witness)
    with grpc.insecure_channel(ops.target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        stub.ValidateRoutes(converters.validate_request_to_proto(
            base_state, routes, compare=True), timeout=20)
        stub.SuggestMoves(pb.SuggestMovesRequest(
            state=converters.state_to_proto(base_state), top=2, time_limit_s=2), timeout=20)
        # A failed call: its solve starts after the client's deadline has passed.
        gated.gate.clear()
        late = stub.SolveRoutes.future(converters.solve_request_to_proto(base_state), timeout=0.5)
        with pytest.raises(grpc.RpcError) as info:
            late.result()
        assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        gated.gate.set()
        _wait(lambda: ops.lanes["solve"].counts().running == 0)
    after = fresh_scrape(ops)
    counted = {
        status: value(after, "route18xx_solves_total", status=status)
        - value(before, "route18xx_solves_total", status=status)
        for status in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN", "ERROR")
    }
    assert {k: v for k, v in counted.items() if v} == witness.seen
    assert sum(witness.seen.values()) >= 2  # the validation's and the suggestion's at least
    for status, n in witness.seen.items():
        assert (value(after, "route18xx_solve_duration_seconds_count", status=status)
                - value(before, "route18xx_solve_duration_seconds_count", status=status)) == n


def test_get_info_and_the_version_header(ops: RouteServer) -> None:
    with grpc.insecure_channel(ops.target) as channel:
        info, call = pb_grpc.RouteServiceStub(channel).GetInfo.with_call(
            pb.GetInfoRequest(), timeout=5)
        header = dict(call.initial_metadata())["x-route18xx-version"]
    assert info.version == pyproject_version()
    assert header.startswith(f"{info.version} (git {info.git_revision})")
    assert info.git_revision  # a revision or "unknown", never empty
    # RULES.md: 1888 is played under the north and the prototype rules.
    assert {t.title: sorted(t.rule_sets) for t in info.titles} == {
        "1888": ["north", "prototype"],
        "1830": ["multiple_brown_from_ipo", "multiple_brown_from_ipo+optional_6_train",
                 "optional_6_train", "standard"],
        "1889": ["beginner_game", "standard"],
        "18Chesapeake": ["standard"],
        "1882": ["standard"],
        "1856": ["alternate_destinations", "eight_train_variant", "standard", "unlimited_bonus_tokens"],
    }
    # each title's money as 18xx.games writes it (CURRENCY_FORMAT_STR of g_1888, g_1830, g_1889,
    # g_18_chesapeake)
    assert {t.title: t.currency_format for t in info.titles} == {
        "1888": "¥%s", "1830": "$%s", "1889": "¥%s", "18Chesapeake": "$%s", "1882": "$%s",
        "1856": "$%s"}
    assert {t.title: t.subsidies for t in info.titles} == {
        "1888": True, "1830": False, "1889": False, "18Chesapeake": False, "1882": False,
        "1856": False}
    assert info.limits.max_call_s == 20
    assert [(lane.name, lane.workers, lane.queue) for lane in info.limits.lanes] == [
        ("solve", 1, 0), ("suggest", 1, 4), ("fetch", 4, 0)]
    assert info.limits.max_receive_bytes == 4 * 2**20
    assert ops.http_url is not None
    answer = post(ops.http_url, f"{SERVICE}/GetInfo", b"{}", {"Content-Type": JSON})
    assert answer.status == 200
    assert json_format.ParseDict(answer.json, pb.GetInfoResponse()) == info
    assert answer.headers["x-route18xx-version"] == header
    with urllib.request.urlopen(f"{ops.http_url}/readyz", timeout=5) as page:
        assert page.headers["x-route18xx-version"] == header


def _readyz(server: RouteServer) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{server.http_url}/readyz", timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _wait(check: Any, within_s: float = 10.0) -> None:
    deadline = time.monotonic() + within_s
    while not check():
        assert time.monotonic() < deadline, "the condition did not hold in time"
        time.sleep(0.05)


def test_readiness_while_warming_up_stalled_and_draining(
    gated: GatedSolver, base_state: dict[str, Any]
) -> None:
    warm = threading.Event()
    config = ServerConfig(port=0, workers=1, queue=1, http_port=0, stall_after_s=0.5)
    srv = create_server(config, solve_fn=gated)
    srv.start(warm_up=lambda: warm.wait(30))
    try:
        with grpc.insecure_channel(srv.target) as channel:
            # Warming up: live, not ready.
            assert _readyz(srv) == (503, {"ready": False, "reasons": ["warming up"],
                                          "unavailable": []})
            assert health_status(channel) == SERVING
            assert health_status(channel, SERVICE_NAME) == NOT_SERVING
            warm.set()
            _wait(lambda: _readyz(srv)[0] == 200)
            assert health_status(channel, SERVICE_NAME) == SERVING
            # A stalled lane: neither live nor ready, until it moves again.
            gated.gate.clear()
            stub = pb_grpc.RouteServiceStub(channel)
            request = converters.solve_request_to_proto(base_state)
            held = [stub.SolveRoutes.future(request, timeout=20) for _ in range(2)]
            _wait(lambda: _readyz(srv)[1]["reasons"] == ["a lane is stalled"])
            assert health_status(channel, SERVICE_NAME) == NOT_SERVING
            gated.gate.set()
            for call in held:
                call.result()
            _wait(lambda: _readyz(srv)[0] == 200)
            # Draining: readiness says so at once; health turns NOT_SERVING.
            done = srv.stop(grace_s=1)
            assert "draining" in srv.readiness.reasons()
            assert done.wait(10)
    finally:
        gated.gate.set()
        srv.stop(0).wait(10)


def test_metrics_port_when_http_is_off() -> None:
    with started_server(ServerConfig(port=0, workers=1, metrics_port=0), stop_wait_s=10) as srv:
        assert srv.http_url is None and srv.metrics_port not in (None, 0)
        url = f"http://127.0.0.1:{srv.metrics_port}"
        with urllib.request.urlopen(f"{url}/metrics", timeout=5) as answer:
            names = {f.name for f in text_string_to_metric_families(answer.read().decode())}
        assert {"route18xx_calls", "route18xx_lane_refusals", "process_resident_memory_bytes"} <= names
        with urllib.request.urlopen(f"{url}/readyz", timeout=5) as answer:
            assert json.loads(answer.read()) == {"ready": True, "reasons": [], "unavailable": []}


class _CountingCollector(Collector):
    """No series: counts the registry's renderings (each scrape rendered anew collects once)."""

    def __init__(self) -> None:
        self.collects = 0

    def collect(self) -> Iterable[Metric]:
        self.collects += 1
        return []


def test_a_flood_of_scrapes_renders_the_page_at_most_once_a_second(ops: RouteServer) -> None:
    """Issue 34: each scrape cost 3.3 ms of CPU on the event loop, with no limit; 8 clients
    scraping in a loop moved a cheap call's median from 1 to 77 ms. Within
    ``SCRAPE_CACHE_S`` a scrape is the last rendering; after it, a fresh one."""
    counter = _CountingCollector()
    ops.metrics.registry.register(counter)
    try:
        scrape(ops)  # a rendering starts the interval (or is still served from the last)
        started = time.monotonic()
        scrapes = 0
        while time.monotonic() - started < 0.5 * SCRAPE_CACHE_S:
            scrape(ops)
            scrapes += 1
        elapsed = time.monotonic() - started
        assert scrapes >= 5
        # at most one rendering per interval begun, counted in the same run's time
        assert counter.collects <= 2 + int(elapsed / SCRAPE_CACHE_S), (counter.collects, scrapes)
        time.sleep(SCRAPE_CACHE_S * 1.1)
        before = counter.collects
        scrape(ops)
        assert counter.collects == before + 1  # past the interval: rendered anew
    finally:
        ops.metrics.registry.unregister(counter)


def test_a_rendering_is_served_again_within_the_interval_and_renewed_after_it() -> None:
    now = [100.0]
    metrics = ServerMetrics(cache_s=1.0, clock=lambda: now[0])
    first, kind = metrics.render("")
    metrics.call("SolveRoutes", "grpc", "OK", 0.01)
    now[0] += 0.9
    assert metrics.render("") == (first, kind)  # the call is not shown yet
    openmetrics, other = metrics.render("application/openmetrics-text; version=1.0.0")
    assert other != kind and b"route18xx_calls_total" in openmetrics  # each format apart
    now[0] += 0.1
    fresh, _ = metrics.render("")
    assert fresh != first and b'route18xx_calls_total{code="OK"' in fresh
