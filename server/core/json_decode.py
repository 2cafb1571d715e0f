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
from google.protobuf.descriptor import Descriptor, FieldDescriptor
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
    path = _complete(_path(error, root), message.DESCRIPTOR)
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


def _complete(path: str, root: Descriptor) -> str:
    """``path`` with the oneof members protobuf leaves out of its errors put back.

    protobuf names no field for a member of a oneof it failed in (``state`` in
    ``SolveRoutesRequest.source``): ``tiles.hex`` is ``state.tiles.hex``. Each
    step that is not a field of the message reached so far is looked for in
    that message's oneof members (the first that has it); a path the
    descriptors do not explain is left as it is.
    """
    if path == "request":
        return path
    parts: list[str] = []
    descriptor: Descriptor | None = root
    for step in path.split("."):
        if descriptor is None:
            return path
        field = _field(descriptor, step)
        if field is None:
            member = next((f for f in descriptor.fields if f.containing_oneof is not None
                           and f.message_type is not None
                           and _field(f.message_type, step) is not None), None)
            if member is None:
                return path
            parts.append(member.name)
            field = _field(member.message_type, step)
            assert field is not None
        parts.append(field.name)
        descriptor = field.message_type
    return ".".join(parts)


def _field(descriptor: Descriptor, name: str) -> FieldDescriptor | None:
    """The field named ``name`` (its proto or its JSON name) in ``descriptor``."""
    field = descriptor.fields_by_name.get(name)
    if field is None:
        field = next((f for f in descriptor.fields if f.json_name == name), None)
    return field
