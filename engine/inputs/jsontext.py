"""Decoding untrusted JSON text into plain values, with every refusal a ``MalformedInput``.

Python's parser refuses some texts with errors other than ``JSONDecodeError``:
nesting deeper than the interpreter's recursion limit (``RecursionError``), an
integer of more than 4 300 digits (``ValueError``), bytes that are not UTF-8
(``UnicodeDecodeError``). Bytes are read as UTF-8 only (a UTF-8 byte-order mark
is allowed): ``json.loads`` would guess UTF-16 or UTF-32 from the first bytes,
which RFC 8259 §8.1 excludes and the command line must refuse (issue 20). A
game log or a state file arrives from a client, so each of these is a
malformed input naming the field (issue 9), never an internal error. Messages quote no more than a short excerpt of the input.
"""

from __future__ import annotations

import json
from typing import Any

from route18xx.engine.errors import MalformedInput


def decode_json(text: str | bytes, field: str) -> Any:
    """The value of JSON ``text``; ``MalformedInput(field, …)`` for anything the parser refuses."""
    try:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8-sig")
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedInput(
            field, f"is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise MalformedInput(field, "is not JSON this service reads: nested too deeply") from None
    except UnicodeDecodeError:
        raise MalformedInput(field, "is not JSON: not UTF-8 text") from None
    except ValueError:  # int() refusing a number of more than sys.get_int_max_str_digits() digits
        raise MalformedInput(field, "is not JSON this service reads: a number is too long") from None
