"""A game log fetched by the server from 18xx.games (issue 22: load a log by URL or game id).

The page cannot fetch another site's JSON itself (CORS, and this origin's
Content-Security-Policy), so the server does it, for one configured site only:
``--log-source-url`` (default ``https://18xx.games``). A client names a game by
its id (``129026``) or by a URL on that site (``https://18xx.games/game/129026``
or ``…/api/game/129026``); either way the server fetches exactly
``<base>/api/game/<id>`` (18xx.games' own route for a game's JSON with its
actions, ``routes/game.rb`` of the site), so no client can make it contact
another host or another path. Redirects are refused, the body is capped
(``max_bytes``) and the whole fetch (connect, head, body) is bounded by
``timeout_s`` and the call's deadline, however slowly the site sends
(``server.site_get``). Every refusal names the request's field (``game_id`` or ``url``):

* malformed id, or a URL off the configured site → ``MalformedInput`` (INVALID_ARGUMENT, 400);
* the site has no such game → ``LogNotFound`` (NOT_FOUND, 404);
* the site does not answer in time, fails, redirects, sends an answer that is
  not HTTP (a malformed head), more than the cap or something that is not a game
  log of a title the engine plays (1888, 1830: ``engine.api.served_title``) →
  ``LogSourceFailed`` (FAILED_PRECONDITION, 400);
* the server is shutting down → ``FetchStopped`` (UNAVAILABLE).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from route18xx.engine.api import (
    MalformedInput, OutOfTime, decode_json, excerpt, served_title, titles_replayed,
)
from route18xx.server.core.site_get import GetStopped, OpenGets, SiteError, get

#: The public site, whose ``/api/game/<id>`` serves a game's JSON.
DEFAULT_BASE_URL = "https://18xx.games"
#: A game id as 18xx.games numbers them.
_GAME_ID = re.compile(r"[1-9][0-9]{0,11}")
#: The site's paths that name a game: its page and its API route.
_GAME_PATH = re.compile(r"/(?:api/)?game/([1-9][0-9]{0,11})/?")


class LogNotFound(MalformedInput):
    """The site has no game of that id (HTTP 404 there): NOT_FOUND, naming the field."""


class LogSourceFailed(MalformedInput):
    """The site could not give the log (no answer in time, an error, too large, not a
    log of a title served): FAILED_PRECONDITION, naming the field."""


@dataclass(frozen=True)
class LogSourceConfig:
    """Where game logs may be fetched from, and the bounds of one fetch."""

    #: scheme://host[:port] of the one site the server fetches from (no path).
    base_url: str = DEFAULT_BASE_URL
    #: The largest body accepted: below the 4 MiB message limit, so the log fits
    #: in the answer and in the ReplayGame call the page makes with it.
    max_bytes: int = 3 * 1024 * 1024
    #: The whole fetch (connect, headers, body), at most; the call's deadline too.
    timeout_s: float = 10.0

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/") \
                or parts.query or parts.fragment or parts.username or parts.password:
            raise ValueError(
                f"must be scheme://host[:port] (http or https), not {self.base_url!r}")
        if self.max_bytes < 1 or not self.timeout_s > 0:
            raise ValueError("the log source needs max_bytes >= 1 and timeout_s > 0")

    @property
    def origin(self) -> str:
        """``scheme://host[:port]``, lower-cased, without a trailing slash."""
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}".lower()


def game_id_of(config: LogSourceConfig, game_id: str | None, url: str | None) -> tuple[int, str]:
    """The game id a request names and the field that named it (``game_id`` or ``url``).

    A URL must be on the configured site (same scheme, host and port) and name a
    game (``/game/<id>`` or ``/api/game/<id>``); anything else is ``MalformedInput``.
    """
    if game_id is not None:
        text = game_id.strip()
        if not _GAME_ID.fullmatch(text):
            raise MalformedInput("game_id", f"must be an 18xx.games game number such as 129026, "
                                            f"not {excerpt(game_id)}")
        return int(text), "game_id"
    if url is None or not url.strip():
        raise MalformedInput("game_id", "is missing: give game_id or url")
    parts = urlsplit(url.strip())
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    if origin != config.origin or parts.username or parts.password:
        raise MalformedInput("url", f"must be a game on {config.origin}, not {excerpt(url)}")
    match = _GAME_PATH.fullmatch(parts.path)
    if match is None:
        raise MalformedInput("url", f"must name a game ({config.origin}/game/<id>), "
                                    f"not {excerpt(parts.path)}")
    return int(match.group(1)), "url"


class FetchStopped(Exception):
    """The server is shutting down: a fetch in flight is cut short (UNAVAILABLE)."""


class LogSite:
    """The configured site as the server sees it: its GETs in flight and whether it answers.

    A slow or failing site marks only ``FetchGameLog`` as unavailable (issue 34,
    item 2): ``available`` is false after the site failed (no answer in time,
    unreachable, a malformed answer, a 5xx) until it next answers; liveness and
    readiness never read it. ``stop`` cuts every fetch in flight short, so that
    SIGTERM does not wait for the site.
    """

    def __init__(self, config: LogSourceConfig) -> None:
        self.config = config
        self.gets = OpenGets()
        self.available = True

    def stop(self) -> None:
        self.gets.stop()


def fetch_game_log(
    site: LogSite | LogSourceConfig, game_id: str | None, url: str | None,
    time_left: float | None = None, cancel: Any = None,
) -> tuple[int, str, str]:
    """Fetch a game's JSON from the configured site: (game id, the URL fetched, the text).

    ``time_left`` (the call's remaining time) shortens ``config.timeout_s``, which
    bounds the whole fetch (``server.site_get``); ``cancel`` (the call's
    ``CancelToken``) cuts it short. The text is checked to be a game log (JSON
    with an ``actions`` list) of a title the engine plays before it is returned.
    """
    if isinstance(site, LogSourceConfig):
        site = LogSite(site)
    config = site.config
    number, field = game_id_of(config, game_id, url)
    path = f"/api/game/{number}"
    target = f"{config.origin}{path}"
    budget = config.timeout_s if time_left is None else max(0.001, min(config.timeout_s, time_left))
    name = config.origin
    try:
        answer = get(config.origin, path, {
            "Accept": "application/json", "Accept-Encoding": "identity",
            "User-Agent": "route18xx (https://github.com/; game log for a route audit)"},
            budget_s=budget, max_bytes=config.max_bytes, cancel=cancel, gets=site.gets)
    except GetStopped as exc:
        if exc.why == "stopping":
            raise FetchStopped("the server is shutting down") from None
        raise OutOfTime("the fetch", expired=False) from None
    except SiteError as exc:
        if exc.kind == "too large":  # the site answers; this log is too large
            raise LogSourceFailed(field, f"game {number}'s log on {name} is over the "
                                         f"{config.max_bytes}-byte limit") from None
        site.available = False
        if exc.kind == "timeout":
            raise LogSourceFailed(field, f"{name} did not send game {number} within "
                                         f"{budget:.1f} s") from None
        raise LogSourceFailed(field, f"{name} {excerpt(str(exc))}") from None
    if answer.status == 404:
        site.available = True
        raise LogNotFound(field, f"{name} has no game {number}")
    if answer.status != 200:
        site.available = answer.status < 500
        what = f"redirect ({answer.status}) refused" if 300 <= answer.status < 400 else ""
        raise LogSourceFailed(field, f"{name} answered {answer.status} for game {number}"
                                     + (f": {what}" if what else ""))
    site.available = True
    text = log_text(answer.body, number, name, field)
    return number, target, text


def log_text(body: bytes, number: int, site: str, field: str) -> str:
    """The body as text, when it is a game log of a title served; ``LogSourceFailed``
    otherwise (issue 25: every registered title, e.g. 1888 and 1830)."""
    try:
        text = body.decode("utf-8")
        data = decode_json(text, field)
    except (UnicodeDecodeError, MalformedInput):
        raise LogSourceFailed(field, f"{site} sent game {number} as something other than JSON") \
            from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise LogSourceFailed(field, f"{site} sent game {number} without an 'actions' list")
    title = data.get("title")
    if title is not None:
        try:
            if served_title(title, field) not in titles_replayed():
                raise MalformedInput(field, "a title played at route level only")
        except MalformedInput:
            *rest, last = titles_replayed()
            raise LogSourceFailed(field, f"game {number} is a game of {excerpt(title)}: only "
                                         f"{', '.join(rest)} and {last} logs are "
                                         "supported") from None
    return text


__all__ = ["DEFAULT_BASE_URL", "FetchStopped", "LogNotFound", "LogSite", "LogSourceConfig",
           "LogSourceFailed", "fetch_game_log", "game_id_of", "log_text"]
