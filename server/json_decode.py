"""A request in protobuf JSON (Connect, gRPC-Web+json) → its message, or ``MalformedInput`` naming the field.

protobuf's ``json_format.Parse`` answers malformed JSON with Python's own
words (``'int' object is not iterable``, ``'utf-8' codec can't decode…``,
``maximum recursion depth exceeded``) and sometimes with exceptions that are
not ``ParseError`` at all (issue 20, item 4). A client should hear what is
wrong and where, in the words every transport uses (DESIGN.md §9 "every door
is the same door"): ``request: not JSON (line 1, column 2)``,
``state.tiles.hex: wrong type or value``, ``state: unknown field 'x'``.

The text is read strictly as UTF-8 (Connect's JSON is UTF-8; ``json.loads`` on
bytes would also guess UTF-16 and UTF-32) by the C decoder, then the decoded
object is given to ``json_format.ParseDict``; its error message is only mined
for the field names it mentions, never repeated.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from google.protobuf import json_format
from google.protobuf.message import Message

from route18xx.engine.api import MalformedInput

M = TypeVar("M", bound=Message)

#: The most JSON values (objects, arrays, strings, numbers …) a request may hold. protobuf's
#: JSON reader is Python and costs ~5 µs a value: 700 000 values (a 4 MB body) held a worker
#: for 3 s. A real request holds a few hundred (a game log travels as one string).
MAX_JSON_VALUES = 10_000

_FIELD_STEP = re.compile(r"Failed to parse (\w+) field")
_AT_PATH = re.compile(r' at "?(\w+(?:\.\w+)*)')
_UNKNOWN_FIELD = re.compile(r'has no field named "([^"]{0,40})')


def decode_json_request(data: bytes, message: M) -> M:
    """``message`` filled from the protobuf JSON in ``data``; ``MalformedInput`` when it is not one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedInput("request", f"not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedInput("request", f"not JSON (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise MalformedInput("request", "JSON nested too deeply") from None
    except ValueError:  # e.g. a number longer than Python converts
        raise MalformedInput("request", "not JSON the server can read (a number too long?)") from None
    if not isinstance(value, dict):
        raise MalformedInput("request", f"must be a JSON object, not {_json_kind(value)}")
    _check_size(value)
    try:
        json_format.ParseDict(value, message)
    except RecursionError:
        raise MalformedInput("request", "JSON nested too deeply") from None
    except Exception as exc:  # ParseError, and what protobuf lets through (TypeError, SystemError)
        raise MalformedInput(*_reason(str(exc), message)) from None
    return message


def _check_size(value: dict[str, object]) -> None:
    """``MalformedInput`` naming the array or object that takes the request past ``MAX_JSON_VALUES``."""
    count = 0
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
            node, list) else ()
        for key, child in items:
            count += 1
            if count > MAX_JSON_VALUES:
                raise MalformedInput(
                    path or "request", f"the request holds more than {MAX_JSON_VALUES} JSON values"
                )
            if isinstance(child, (dict, list)):
                name = key if isinstance(key, str) else ""
                stack.append((f"{path}.{name}".strip(".") if name else path, child))


def _json_kind(value: object) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _reason(error: str, message: Message) -> tuple[str, str]:
    """The field path and a short reason from a protobuf JSON error text (never the text itself)."""
    root = message.DESCRIPTOR.name
    path = _path(error, root)
    unknown = _UNKNOWN_FIELD.search(error)
    if unknown:
        return path, f"unknown field '{unknown.group(1)}'"
    if "Invalid enum value" in error:
        return path, "not a value of the field's enum"
    if "Unpaired surrogate" in error:
        return path, "a string with an unpaired surrogate"
    return path, "wrong type or value"


def _path(error: str, root: str) -> str:
    """The dotted field path the error names (``request`` when it names none)."""
    at = _AT_PATH.search(error)
    steps = _FIELD_STEP.findall(error)
    if at:
        parts = at.group(1).split(".")
        if parts and parts[0] == root:
            parts = parts[1:]
        # "at X.state" names the message holding the field; the last step is the field.
        if steps and steps[-1] not in parts:
            parts.append(steps[-1])
        if parts:
            return ".".join(parts)
    if steps:
        return ".".join(steps)
    return "request"
