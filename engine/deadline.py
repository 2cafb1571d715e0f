"""Polling a call's cancel token from the engine's long loops (issue 9: every call bounded).

The engine never imports the solver eagerly (``route18xx check`` must not load
OR-Tools), so it sees the token only through this small protocol.
"""

from __future__ import annotations

from typing import Protocol

from route18xx.engine.errors import OutOfTime


class CancelSignal(Protocol):
    """What the engine reads of ``solver.cancel.CancelToken``."""

    @property
    def cancelled(self) -> bool: ...

    @property
    def expired(self) -> bool: ...


def check_time(cancel: CancelSignal | None, what: str) -> None:
    """Raise ``OutOfTime`` naming ``what`` when ``cancel`` has been cancelled or expired."""
    if cancel is not None and cancel.cancelled:
        raise OutOfTime(what, expired=cancel.expired)
