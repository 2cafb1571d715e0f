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

A record may quote a client (an unknown path, a peer, an error's excerpt): no
control character it holds reaches the log raw, in either format (issue 34: a
percent-encoded CR or an ANSI escape in a path could forge a line or repaint a
terminal). The text format writes each as ``\\xNN`` or ``\\uNNNN`` (``escape_controls``),
a traceback keeping only its own line breaks; the JSON format escapes every one
inside its strings (``\\u001b``), C1 controls and the Unicode line separators included.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timezone
from typing import Any

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"

#: C0 controls, DEL, C1 controls and the Unicode line and paragraph separators: what a
#: terminal or a line-reading log shipper acts on.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: The same except the line feed, for a traceback's own lines.
_CONTROLS_BUT_LF = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")
#: What ``json.dumps(ensure_ascii=False)`` leaves raw of ``_CONTROLS``.
_JSON_RAW_CONTROLS = re.compile("[\x7f-\x9f\u2028\u2029]")


_SHORT = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


def _code(match: re.Match[str]) -> str:
    char = match.group()
    point = ord(char)
    return _SHORT.get(char) or (f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}")


def escape_controls(text: str, keep_newlines: bool = False) -> str:
    r"""``text`` with every control character written as its escape, as ``repr`` writes it.

    >>> print(escape_controls("/x\r\n2024 INFO forged \x1b[31m\x9b"))
    /x\r\n2024 INFO forged \x1b[31m\x9b
    """
    return (_CONTROLS_BUT_LF if keep_newlines else _CONTROLS).sub(_code, text)


class TextFormatter(logging.Formatter):
    """``TEXT_FORMAT``, every control character escaped (module docstring)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        return escape_controls(super().formatMessage(record))

    def formatException(self, ei: Any) -> str:  # noqa: N802
        return escape_controls(super().formatException(ei), keep_newlines=True)

    def formatStack(self, stack_info: str) -> str:  # noqa: N802
        return escape_controls(super().formatStack(stack_info), keep_newlines=True)


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
        text = json.dumps(out, ensure_ascii=False, default=str)
        return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """The root logger writes to stderr in ``log_format`` (``text`` or ``json``).

    Like ``logging.basicConfig``, it leaves a root logger that already has a handler alone.
    """
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(TextFormatter())
    logging.basicConfig(level=level, handlers=[handler])
