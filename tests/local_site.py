"""A local HTTP site on a free loopback port, on a thread of its own: the stand-in for
18xx.games in the FetchGameLog and page tests (no test contacts another host)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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
