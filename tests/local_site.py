"""A local HTTP site on a free loopback port, on a thread of its own: the stand-in for
18xx.games in the FetchGameLog and page tests (no test contacts another host)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class SiteHandler(BaseHTTPRequestHandler):
    """A stand-in site's request handler: answers with ``reply``, logs nothing."""

    def reply(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def local_site(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served at the yielded ``http://127.0.0.1:<port>`` until the block ends."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
