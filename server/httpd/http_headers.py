"""The HTTP front end's Host check and security headers (issue 20, item 8: defence in depth).

* A page on another site can resolve its own name to 127.0.0.1 (DNS
  rebinding) and then call the API as if it were same-origin. Only requests
  whose ``Host`` names this server are served: by default the loopback names
  and the bind address, or the names given with ``--allowed-hosts``
  (Starlette's ``TrustedHostMiddleware``: others get 400 ``Invalid host header``).
* Every answer, the page's and the API's, carries a Content-Security-Policy
  allowing only this origin's own scripts, styles and calls (the page is plain
  files, no inline code), ``X-Content-Type-Options: nosniff`` and a
  ``Referrer-Policy``.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Iterable, Sequence

from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

Message = dict[str, Any]
App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

#: The page loads only its own files; SVG boards are inline markup, PNGs may be data: URLs.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def default_allowed_hosts(bind_host: str) -> tuple[str, ...]:
    """The loopback names and the bind address (an IPv6 address in brackets, as Host has it)."""
    host = f"[{bind_host}]" if ":" in bind_host and not bind_host.startswith("[") else bind_host
    return tuple(dict.fromkeys((*LOOPBACK_NAMES, host.lower())))


def host_pattern_error(pattern: str) -> str | None:
    """Why ``pattern`` cannot be an allowed host (None: it can).

    Starlette asserts on a misplaced wildcard when the app is built; the
    command line refuses it first, in its own words (``error: --allowed-hosts: …``).
    A port never matches (the check compares the name only), so one is refused too.
    """
    if pattern == "*":
        return None
    if "*" in pattern[1:] or (pattern.startswith("*") and not pattern.startswith("*.")):
        return f"'{pattern[:80]}': a wildcard only as '*' or '*.example.org'"
    name = pattern.rsplit("]", 1)[-1] if pattern.startswith("[") else pattern
    if ":" in name:
        return f"'{pattern[:80]}': a host name without a port"
    if not name or any(c.isspace() or c in "/?#@" for c in name):
        return f"'{pattern[:80]}': not a host name"
    return None


def allowed_hosts_middleware(hosts: Sequence[str]) -> Middleware:
    """Starlette's Host check for ``hosts`` (``*`` allows any; ``*.example.org`` a domain)."""
    return Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False)


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every HTTP answer that does not set its own."""

    def __init__(self, app: App, headers: Iterable[tuple[bytes, bytes]] = SECURITY_HEADERS) -> None:
        self.app = app
        self.headers = tuple(headers)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {bytes(k).lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
