"""Errors split by cause (STYLE.md §5).

* ``MalformedInput``: the input cannot be read as a 1888 state or action (unknown
  hex, tile, company; a bad field). Maps to gRPC ``INVALID_ARGUMENT``.
* ``IllegalAction``: a well-formed move the rules forbid. Maps to
  ``FAILED_PRECONDITION``; ``reason`` is a short machine-readable code.
"""

from __future__ import annotations


class Route18xxError(Exception):
    """Base of every error the engine raises on purpose."""


class MalformedInput(Route18xxError):
    """Input that does not describe a 1888 state; ``field`` names where, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class IllegalAction(Route18xxError):
    """A move the rules forbid; ``code`` is machine-readable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
        self.expired = expired
