"""The title seam: every title the engine plays, by name (DESIGN.md §9, issue 25).

``title_named("1830")`` gives a ``Title`` (its rule sets, data and hooks); a state
file's or a request's ``title`` goes through it, so an unknown title is refused in
one place, naming the field and the titles there are.

>>> title_named("1830").data.corporations["PRR"].home_hex
'H12'
>>> title_named("1888N").name
'1888'
"""

from __future__ import annotations

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.titles import t1830, t1888
from route18xx.engine.titles.base import MustBuyTrain, Title

__all__ = ["DEFAULT_TITLE", "TITLES", "MustBuyTrain", "Title", "example", "title_named", "title_of_data"]

#: Every title, by its name; the first is the default of a request without one.
TITLES: dict[str, Title] = {t.name: t for t in (t1888.TITLE, t1830.TITLE)}

#: The title of a state or request that names none (DESIGN.md §5).
DEFAULT_TITLE: str = t1888.TITLE.name

_BY_ALIAS: dict[str, Title] = {
    alias: t for t in TITLES.values() for alias in (t.name, *t.aliases)
}


def title_named(name: object, field: str = "title") -> Title:
    """The title called ``name`` (or one of its aliases); ``MalformedInput`` naming
    ``field`` otherwise. An empty name is the default title (proto3's empty string)."""
    if name is None or name == "":
        return TITLES[DEFAULT_TITLE]
    found = _BY_ALIAS.get(name) if isinstance(name, str) else None
    if found is None:
        raise MalformedInput(field, f"unknown title {excerpt(name)}; expected one of {sorted(TITLES)}")
    return found


def title_of_data(data: object) -> Title:
    """The title whose facts ``data`` (a ``GameData``) are."""
    return TITLES[getattr(data, "title", DEFAULT_TITLE)]


def example(kind: str) -> str:
    """An id of the default title's map written as a ``kind`` field (``"hex"``, ``"node"``)
    is, for error texts that show a field's shape (``Title.examples``)."""
    return TITLES[DEFAULT_TITLE].examples[kind]
