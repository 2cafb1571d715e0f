"""Issue 34, item 2: the log site is a dependency, and a dependency cannot hurt health.

A stand-in site (``tests.local_site``) misbehaves as a hostile or broken one
would: it trickles its answer's head or body a byte at a time, or sends a head
``http.client`` cannot read. The fetch holds to its total deadline (connect,
head, body) and frees its lane then, a malformed head is the documented
``FAILED_PRECONDITION``, the slow site marks only ``FetchGameLog`` unavailable
(liveness, readiness and ``/readyz`` stay SERVING), and SIGTERM does not wait
for the site.
"""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

import grpc
import pytest

from route18xx.server.core.log_source import LogSourceConfig
from route18xx.server.rpc.app import FETCH_HEALTH, RouteServer, ServerConfig
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.conftest import LOGS_DIR
from tests.local_site import SiteHandler, local_site
from tests.route_server import started_server
from tests.server.abuse import start_server
from tests.server.conftest import NOT_SERVING, SERVING, health_status
from tests.server.stalled import wait_until

SERVICE = "/route18xx.v1.RouteService"
LOG_TEXT = (LOGS_DIR / "129026.json").read_text()
#: The longest a trickling answer goes on (unless released): far past every bound tested.
TRICKLE_S = 60.0
#: The heads the site sends for games 11 to 14 (RFC 9112 §4: none is a status line and headers).
MALFORMED = {
    11: b"HTTP/1.1 abc OK\r\n\r\n",  # the status is not a number
    12: b"HTTP/1.1 200 " + b"x" * (70 * 1024) + b"\r\n\r\n",  # over http.client's 64 KiB line
    13: b"HTTP/1.1 200 OK\r\n" + b"X-Many: 1\r\n" * 101 + b"\r\n",  # over its 100 headers
    14: b"SSH-2.0-OpenSSH_9.6\r\n\r\n",  # not HTTP at all
}


class Hostile(SiteHandler):
    """Game 1 trickles its body, game 2 its head; 11–14 answer with a malformed head;
    129026 is a real log. ``asked`` is set as a request arrives."""

    release = threading.Event()
    asked = threading.Semaphore(0)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        Hostile.asked.release()
        number = int(self.path.rsplit("/", 1)[-1])
        if number in MALFORMED:
            self.wfile.write(MALFORMED[number])
            return
        if number == 1:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 1000000\r\n\r\n")
            self._trickle(b" ")
        elif number == 2:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            self._trickle(b"a")
        else:
            self.reply(200, LOG_TEXT.encode())

    def _trickle(self, byte: bytes) -> None:
        """A byte every 0.1 s, so that no read ever waits long, until released."""
        end = time.monotonic() + TRICKLE_S
        try:
            while time.monotonic() < end and not Hostile.release.wait(0.1):
                self.wfile.write(byte)
        except OSError:  # the server gave up: as it should
            pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    Hostile.release.clear()
    with local_site(Hostile) as url:
        yield url
        Hostile.release.set()


def fetch(srv: RouteServer, game: str) -> tuple[int, dict[str, Any], float]:
    """``FetchGameLog`` over HTTP/JSON: its status, its answer and the seconds it took."""
    request = urllib.request.Request(
        f"{srv.http_url}{SERVICE}/FetchGameLog", data=json.dumps({"gameId": game}).encode(),
        method="POST", headers={"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=TRICKLE_S + 30) as response:
            return response.status, json.loads(response.read()), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), time.monotonic() - started


def _server(site: str, **config: Any) -> Any:
    timeout_s = config.pop("timeout_s", 1.0)
    return started_server(ServerConfig(
        port=0, workers=1, http_port=0, log_source=LogSourceConfig(site, timeout_s=timeout_s),
        **config))


@pytest.mark.parametrize("game", ["1", "2"], ids=["body", "head"])
def test_a_trickling_site_is_cut_at_the_fetch_deadline_and_frees_its_lanes(
        site: str, game: str) -> None:
    """Every fetch lane on a site that trickles its answer: each fetch ends at its 1 s
    deadline (it waited for the site to stop, 60 s here), and the lanes are free then."""
    with _server(site, fetch_lanes=2) as srv:
        with ThreadPoolExecutor(2) as pool:
            fetches = list(pool.map(lambda _: fetch(srv, game), range(2)))
        for status, answer, took in fetches:
            assert status == 400 and answer["code"] == "failed_precondition", answer
            assert f"did not send game {game} within 1.0 s" in answer["message"], answer
            assert took < 1.0 + 4.0, took  # the deadline, and a loaded machine's slack
        status, answer, _ = fetch(srv, "129026")  # no lane is held any longer
        assert status == 200 and answer["gameLog"] == LOG_TEXT


@pytest.mark.parametrize("game", sorted(MALFORMED))
def test_a_malformed_head_is_failed_precondition(site: str, game: int) -> None:
    """A bad status line, a status line over 64 KiB, over 100 headers, not HTTP: the
    documented FAILED_PRECONDITION naming ``game_id`` (it was INTERNAL, 500), on HTTP and gRPC."""
    with _server(site) as srv:
        status, answer, _ = fetch(srv, str(game))
        assert status == 400 and answer["code"] == "failed_precondition", answer
        assert "not HTTP" in answer["message"], answer
        with grpc.insecure_channel(srv.target) as channel:
            with pytest.raises(grpc.RpcError) as info:
                pb_grpc.RouteServiceStub(channel).FetchGameLog(
                    pb.FetchGameLogRequest(game_id=str(game)), timeout=10)
        assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION, info.value.details()


def _readyz(srv: RouteServer) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{srv.http_url}/readyz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_slow_site_marks_only_the_fetch_unavailable(site: str) -> None:
    """Every fetch lane held by a trickling site past the stall bound: ``FetchGameLog``'s
    own health status turns NOT_SERVING and ``/readyz`` lists it, while liveness, readiness
    and ``/readyz`` stay SERVING (they all turned NOT_SERVING: a restart would not help)."""
    with _server(site, fetch_lanes=2, stall_after_s=0.5, timeout_s=30.0,
                 health_port=0) as srv:
        with ThreadPoolExecutor(2) as pool:
            held = [pool.submit(fetch, srv, "1") for _ in range(2)]
            with grpc.insecure_channel(srv.target) as channel:
                wait_until(lambda: health_status(channel, FETCH_HEALTH) == NOT_SERVING, 20,
                           "FetchGameLog was never marked unavailable")
                assert health_status(channel) == SERVING  # liveness
                assert health_status(channel, "route18xx.v1.RouteService") == SERVING
            with grpc.insecure_channel(f"127.0.0.1:{srv.health_port}") as channel:
                assert health_status(channel) == SERVING
                assert health_status(channel, "route18xx.v1.RouteService") == SERVING
            status, ready = _readyz(srv)
            assert status == 200 and ready["ready"], ready
            assert ready["unavailable"] == ["FetchGameLog"], ready
            srv.stop(0)  # the fetches are cut short, not waited for
            for call in held:
                assert call.result(timeout=10)[0] == 503


def test_sigterm_does_not_wait_for_a_trickling_site(site: str) -> None:
    """SIGTERM while a fetch reads a trickling site: the server exits within 5 s (it
    waited for the site, 118.6 s in the report)."""
    Hostile.asked = threading.Semaphore(0)
    served = start_server("--workers", "1", "--log-source-url", site)
    server = next(served)
    try:
        with grpc.insecure_channel(server.target) as channel:
            call = pb_grpc.RouteServiceStub(channel).FetchGameLog.future(
                pb.FetchGameLogRequest(game_id="1"), timeout=TRICKLE_S)
            assert Hostile.asked.acquire(timeout=30), "the fetch never reached the site"
            time.sleep(0.2)  # the fetch reads the trickle now
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=TRICKLE_S)
            took = time.monotonic() - started
            assert took < 5.0, took
            assert call.exception(timeout=10) is not None
    finally:
        served.close()
