"""Issue 22 (d): a game log loaded through the server from its configured site only.

A stand-in for 18xx.games runs in the test (``http.server`` on 127.0.0.1) and
serves the shared log 129026 at ``/api/game/129026`` (and the shared 1830 log
26855 at ``/api/game/26855``), as the site serves a
game's JSON; it records every path asked for, so the tests can tell that the
server asked for exactly that path and nothing else, and no test touches the
internet. Errors are answered over HTTP (Connect) with a 4xx naming the field.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any, Iterator

import pytest

from route18xx.server.rpc.app import RouteServer, ServerConfig
from route18xx.server.core.log_source import LogSourceConfig
from tests.conftest import LOGS_DIR
from tests.local_site import SiteHandler, local_site
from tests.route_server import started_server

SERVICE = "/route18xx.v1.RouteService"
LOG_TEXT = (LOGS_DIR / "129026.json").read_text()
LOG_1830 = (LOGS_DIR.parent / "1830" / "26855.json").read_text()
#: Bytes the stand-in sends for the "huge" game: over the server's cap.
CAP = 256 * 1024


class StandIn(SiteHandler):
    """The site: a real 1888 game and a real 1830 one, one huge, one redirecting, one of a
    title not served, one slow."""

    asked: list[str] = []
    release = threading.Event()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        StandIn.asked.append(self.path)
        routes = {
            "/api/game/129026": (200, LOG_TEXT.encode()),
            "/api/game/7": (200, b"x" * (CAP + 1)),
            "/api/game/26855": (200, LOG_1830.encode()),
            "/api/game/8": (200, json.dumps({"title": "1846", "actions": []}).encode()),
            "/api/game/9": (200, b"<html>maintenance</html>"),
        }
        if self.path == "/api/game/5":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.end_headers()
            return
        if self.path == "/api/game/6":
            StandIn.release.wait(5)  # slower than the server's timeout
        self.reply(*routes.get(self.path, (404, b"Game does not exist")))


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with local_site(StandIn) as url:
        yield url
        StandIn.release.set()  # the slow game's request ends, so the site can stop


@pytest.fixture(scope="module")
def server(site: str) -> Iterator[RouteServer]:
    with started_server(ServerConfig(
            port=0, workers=1, http_port=0,
            log_source=LogSourceConfig(site, max_bytes=CAP, timeout_s=1.0))) as srv:
        yield srv


def fetch(srv: RouteServer, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{srv.http_url}{SERVICE}/FetchGameLog", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def field_of(answer: dict[str, Any]) -> str:
    details = answer.get("details") or [{}]
    debug = details[0].get("debug", {})
    violations = debug.get("fieldViolations", [{}])
    return str(violations[0].get("field", ""))


@pytest.mark.parametrize("body", [
    {"gameId": "129026"},
    {"url": "GAME_PAGE"},
    {"url": "API"},
])
def test_a_game_by_id_or_by_url_on_the_site(server: RouteServer, site: str,
                                            body: dict[str, str]) -> None:
    StandIn.asked.clear()
    if "url" in body:
        body = {"url": f"{site}/game/129026" if body["url"] == "GAME_PAGE"
                else f"{site}/api/game/129026/"}
    status, answer = fetch(server, body)
    assert status == 200, answer
    assert answer["gameId"] == "129026" and answer["sourceUrl"] == f"{site}/api/game/129026"
    assert answer["gameLog"] == LOG_TEXT
    assert StandIn.asked == ["/api/game/129026"]


def _replayed(server: RouteServer, game_log: str) -> Any:
    """``ReplayGame`` over HTTP/JSON on a fetched log's text, without solving."""
    request = urllib.request.Request(
        f"{server.http_url}{SERVICE}/ReplayGame", method="POST",
        data=json.dumps({"gameLog": game_log, "skipSolve": True}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def test_the_fetched_text_replays_like_the_file(server: RouteServer) -> None:
    _, answer = fetch(server, {"gameId": "129026"})
    replayed = _replayed(server, answer["gameLog"])
    assert replayed["scoresMatch"] and len(replayed["runs"]) == 95


def test_an_1830_game_is_fetched_and_replays_to_its_result(server: RouteServer) -> None:
    """Issue 25: the log source takes every title the engine plays; 26855 has 43 runs
    (1830 ACTIONS.md §4) and replays to the site's recorded result."""
    StandIn.asked.clear()
    status, answer = fetch(server, {"gameId": "26855"})
    assert status == 200, answer
    assert answer["gameLog"] == LOG_1830 and StandIn.asked == ["/api/game/26855"]
    replayed = _replayed(server, answer["gameLog"])
    assert replayed["title"] == "1830" and replayed["scoresMatch"] and len(replayed["runs"]) == 43


@pytest.mark.parametrize("body, status, field, words", [
    ({"gameId": "12a"}, 400, "game_id", "game number"),
    ({"gameId": ""}, 400, "game_id", "game number"),
    ({"url": "https://evil.example/game/129026"}, 400, "url", "must be a game on"),
    ({"url": "SITE/profile/3"}, 400, "url", "must name a game"),
    ({"url": "SITE/game/129026/../../admin"}, 400, "url", "must name a game"),
    ({}, 400, "game_id", "is missing"),
    ({"gameId": "4"}, 404, "game_id", "has no game 4"),
    ({"gameId": "5"}, 400, "game_id", "answered 302"),
    ({"gameId": "6"}, 400, "game_id", "did not send game 6 within"),
    ({"gameId": "7"}, 400, "game_id", "limit"),
    ({"gameId": "8"}, 400, "game_id", "game of '1846': only 1830, 1888 and 1889 logs"),
    ({"url": "SITE/game/9"}, 400, "url", "other than JSON"),
])
def test_every_refusal_is_a_4xx_naming_the_field(
    server: RouteServer, site: str, body: dict[str, str], status: int, field: str, words: str,
) -> None:
    StandIn.asked.clear()
    body = {k: v.replace("SITE", site) for k, v in body.items()}
    got, answer = fetch(server, body)
    assert (got, field_of(answer)) == (status, field), answer
    assert words in answer["message"] and answer["message"].startswith(f"{field}: ")
    number = body.get("gameId", "")
    # the site is asked for its API path of a well-formed id only, and for nothing else
    assert StandIn.asked == ([f"/api/game/{number}"] if number.isdigit() else
                             ["/api/game/9"] if body.get("url", "").endswith("/game/9") else [])


def test_the_log_source_must_be_a_site_not_a_path() -> None:
    for bad in ("ftp://18xx.games", "https://18xx.games/api", "18xx.games", "https://u:p@x.org"):
        with pytest.raises(ValueError, match="scheme://host"):
            LogSourceConfig(bad)


def test_serve_refuses_a_log_source_that_is_not_a_site(capsys: pytest.CaptureFixture[str]) -> None:
    from route18xx.server.cli import main

    assert main(["serve", "--port", "0", "--no-http", "--log-source-url", "https://x.org/api"]) == 2
    assert capsys.readouterr().err.startswith("error: --log-source-url: must be scheme://host")
