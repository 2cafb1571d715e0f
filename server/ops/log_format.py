"""The server's log, as text (the default) or one JSON object per line (issue 23, item 3).

``--log-format json`` writes every record as one JSON object on one line, so
that a log shipper reads it without a parser of its own:

* a call's record (``server.calls.log_call``) has ``"event": "call"`` and the
  call's facts: ``method``, ``transport``, ``outcome`` (OK or the gRPC code),
  ``duration_ms``, ``request_bytes`` (null when no request arrived) and ``peer``;
* any other record is an event: ``"event"`` is its name when the code gives one
  (``start``, ``ready``, ``stop``, ``health``), else ``"log"``.

Every object has ``time`` (UTC, ISO 8601 with milliseconds), ``level``,
``logger`` and ``message`` (the text line's words); an error's traceback is
in ``exception``.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per record (module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, tz=timezone.utc)
        out: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
        }
        call = getattr(record, "call", None)
        if isinstance(call, dict):
            out["event"] = "call"
            out.update(call)
        else:
            event = getattr(record, "event", None)
            out["event"] = event if isinstance(event, str) else "log"
        out["message"] = record.getMessage()
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """The root logger writes to stderr in ``log_format`` (``text`` or ``json``).

    Like ``logging.basicConfig``, it leaves a root logger that already has a handler alone.
    """
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
