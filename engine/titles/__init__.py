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
from route18xx.engine.facts.gamedata import GameData
from route18xx.engine.titles import t1830, t1856, t1882, t1888, t1889, t18chesapeake
from route18xx.engine.titles.base import MustBuyTrain, Title

__all__ = ["TITLES", "MustBuyTrain", "Title", "example", "title_named", "title_of_data"]

#: Every title, by its name. None is a default: a state or a request names its title
#: (issue 33: no silent default).
TITLES: dict[str, Title] = {
    t.name: t for t in (t1888.TITLE, t1830.TITLE, t1889.TITLE, t18chesapeake.TITLE, t1882.TITLE,
                        t1856.TITLE)
}

_BY_ALIAS: dict[str, Title] = {
    alias: t for t in TITLES.values() for alias in (t.name, *t.aliases)
}


def title_named(name: object, field: str = "title") -> Title:
    """The title called ``name`` (or one of its aliases); ``MalformedInput`` naming
    ``field`` otherwise, a missing or empty one (proto3's empty string) included."""
    if name is None or name == "":
        raise MalformedInput(field, f"is required: the title, one of {sorted(TITLES)}")
    found = _BY_ALIAS.get(name) if isinstance(name, str) else None
    if found is None:
        raise MalformedInput(field, f"unknown title {excerpt(name)}; expected one of {sorted(TITLES)}")
    return found


def title_of_data(data: GameData) -> Title:
    """The title whose facts ``data`` (a ``GameData``) are."""
    return TITLES[data.title]


def example(kind: str) -> str:
    """An id written as a ``kind`` field (``"hex"``, ``"node"``), for error texts that show
    a field's shape where the title is not known yet (every title's ids have the shape of
    the first registered title's ``Title.examples``)."""
    return next(iter(TITLES.values())).examples[kind]
