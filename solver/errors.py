"""Errors the solver raises, by cause (STYLE.md §5)."""

from __future__ import annotations


class InvalidProblem(ValueError):
    """The ``RouteProblem`` is malformed: a segment names a node that does not
    exist, a junction end has no side 0/1, an unknown objective, ...

    It is a caller's bug (the engine built a bad problem), not an illegal move.
    """


class Cancelled(Exception):
    """The work was cancelled (or its deadline passed) before the search began."""
