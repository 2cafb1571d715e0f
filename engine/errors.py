"""Errors split by cause (STYLE.md §5).

* ``MalformedInput``: the input cannot be read as a 1888 state or action (unknown
  hex, tile, company; a bad field). Maps to gRPC ``INVALID_ARGUMENT``.
* ``IllegalAction``: a well-formed move the rules forbid. Maps to
  ``FAILED_PRECONDITION``; ``reason`` is a short machine-readable code.
"""

from __future__ import annotations

from typing import Any


class Route18xxError(Exception):
    """Base of every error the engine raises on purpose."""


class MalformedInput(Route18xxError):
    """Input that does not describe a 1888 state; ``field`` names where, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[type[MalformedInput], tuple[str, str]]:
        return (type(self), (self.field, self.reason))  # crosses process boundaries whole


class IllegalAction(Route18xxError):
    """A move the rules forbid; ``code`` is machine-readable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str]]:
        return (type(self), (self.code, self.message))


class TitleDataError(Route18xxError):
    """A title's data holds something the engine does not implement (an ability type, a
    rule): refused when the data loads, never ignored (issue 33)."""


class RouteLevelOnly(TitleDataError):
    """A whole game of a title the engine plays at route level only (DESIGN.md §10 "Titles
    at two levels"): its operating turn has a step the engine lacks (1889's special track),
    so its logs are not replayed; its state files are checked, solved, suggested and drawn."""


class EngineMismatch(Route18xxError):
    """The solver's answer failed the engine's independent re-check (a bug, never input)."""


class OutOfTime(Route18xxError):
    """The work was cancelled or ran past its deadline before it finished.

    Raised by the engine's long loops (replay, validation, model building) when
    the call's ``CancelToken`` reads as cancelled; ``expired`` tells a deadline
    from an explicit cancel. Maps to ``DEADLINE_EXCEEDED`` (or ``CANCELLED``).
    """

    def __init__(self, what: str, *, expired: bool = True) -> None:
        super().__init__(f"{what} did not finish before the deadline" if expired
                         else f"{what} was cancelled")
        self.what = what
        self.expired = expired

    def __reduce__(self) -> tuple[Any, ...]:
        return (_out_of_time, (self.what, self.expired))


#: Longest excerpt of a client's value an error message may quote (issue 9).
EXCERPT_CHARS = 80


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)`` cut to at most ``limit`` characters, for quoting input in errors.

    A client's value can be megabytes long; an error that echoes it whole turns a
    bad request into an oversized reply. ``excerpt`` keeps messages short:

    >>> excerpt("H12")
    "'H12'"
    >>> len(excerpt("Z" * 10_000))
    80
    >>> excerpt(10 ** 5000)
    '<a number of about 5000 digits>'
    """
    try:
        text = repr(value)
    except ValueError:  # an int of more than sys.get_int_max_str_digits() digits
        digits = int(abs(value).bit_length() * 0.30103) if isinstance(value, int) else 0
        text = f"<a number of about {digits} digits>" if digits else "<a value too long to show>"
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def _out_of_time(what: str, expired: bool) -> OutOfTime:
    return OutOfTime(what, expired=expired)
