"""Reading one field of a logged action or route, each refusal a ``MalformedInput`` naming it (issue 9).

A game log comes from a client. Every field the engine reads is checked here,
where the action is parsed (``engine.game.actions.parse_action``), for its type,
its shape (a hex id, a certificate id, a city id) and a sane range, so that a
damaged log is refused as ``game_log.actions[12].rotation: must be a whole
number from 0 to 5, not 9`` instead of failing deep inside a replay. Messages
quote the client's value only through ``engine.errors.excerpt``.

The ranges are generous bounds, not rules: a price of ¥5 000 is well formed
(and illegal, which the rules then say); ten digits of yen is not a price.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from route18xx.engine.errors import MalformedInput, excerpt

#: Longest name (entity symbol, tile id, hex id, train id) an action may hold.
MAX_NAME: Final = 64
#: Most items in a list field (shares of one sale, hexes of a route, routes of a run).
MAX_ITEMS: Final = 256
#: Largest amount of money in a field (the bank holds ¥12 000).
MAX_MONEY: Final = 1_000_000
#: Largest action id or player id (18xx.games ids are database keys).
MAX_ID: Final = 10**15

#: ``<hex>`` such as ``G15``: letters for the row, digits for the column (DESIGN.md §2).
HEX_ID: Final = re.compile(r"[A-Z]{1,2}[0-9]{1,3}")
#: A certificate ``<SYM>_<n>`` (ACTIONS.md §4.4; 1830 symbols hold an ``&``: ``B&O_1``).
CERT_ID: Final = re.compile(r"[A-Za-z0-9&]{1,16}_[0-9]{1,2}")
#: A city ``<tile id>-<city index>`` where the tile id is ``<name>-<copy>`` (ACTIONS.md §4.7).
CITY_ID: Final = re.compile(r"[A-Za-z0-9]{1,16}-[0-9]{1,4}-[0-9]{1,2}")
#: A node of a route, ``<hex>-<index>`` (ROUTES.md §6).
NODE_ID: Final = re.compile(r"[A-Z]{1,2}[0-9]{1,3}-[0-9]{1,2}")

_MISSING: Final = object()
_ABSENT: Final = object()


def _given(raw: Mapping[str, Any], key: str, where: str, default: Any) -> Any:
    """The field's value; ``_ABSENT`` when it is missing or null and has a ``default``."""
    value = raw.get(key)
    if value is not None:
        return value
    if default is _MISSING:
        raise MalformedInput(f"{where}.{key}", "is missing")
    return _ABSENT


def whole(
    raw: Mapping[str, Any], key: str, where: str, *, low: int, high: int, default: Any = _MISSING
) -> Any:
    """An integer field within ``[low, high]``; a float with no fraction reads as one.

    ``default`` (which may be None) stands for a missing or null field; without
    it the field is required.
    """
    value = _given(raw, key, where, default)
    if value is _ABSENT:
        return default
    return whole_value(value, f"{where}.{key}", low=low, high=high)


def whole_value(value: Any, field: str, *, low: int, high: int) -> int:
    """``value`` as an integer within ``[low, high]``, else ``MalformedInput(field, …)``."""
    if isinstance(value, float) and value.is_integer() and low <= value <= high:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedInput(field, f"must be a whole number from {low} to {high}, not {excerpt(value)}")
    return value


def name(
    raw: Mapping[str, Any],
    key: str,
    where: str,
    *,
    shape: re.Pattern[str] | None = None,
    what: str = "a name",
    default: Any = _MISSING,
) -> Any:
    """A short string field; with ``shape`` it must match it whole (``what`` says how it reads)."""
    value = _given(raw, key, where, default)
    if value is _ABSENT:
        return default
    return name_value(value, f"{where}.{key}", shape=shape, what=what)


def name_value(
    value: Any, field: str, *, shape: re.Pattern[str] | None = None, what: str = "a name"
) -> str:
    """``value`` as a short string (of ``shape``), else ``MalformedInput(field, …)``."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise MalformedInput(field, f"must be {what} of 1 to {MAX_NAME} characters, not {excerpt(value)}")
    if shape is not None and shape.fullmatch(value) is None:
        raise MalformedInput(field, f"must be {what}, not {excerpt(value)}")
    return value


def items(raw: Mapping[str, Any], key: str, where: str, *, default: Any = _MISSING) -> Any:
    """A list field of at most ``MAX_ITEMS`` entries (null or missing: ``default``)."""
    value = _given(raw, key, where, default)
    if value is _ABSENT:
        return default
    return items_value(value, f"{where}.{key}")


def items_value(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedInput(field, f"must be a list, not {excerpt(value)}")
    if len(value) > MAX_ITEMS:
        raise MalformedInput(field, f"lists {len(value)} entries; at most {MAX_ITEMS} are read")
    return value


def names(
    raw: Mapping[str, Any],
    key: str,
    where: str,
    *,
    shape: re.Pattern[str] | None = None,
    what: str = "a name",
    default: Any = _MISSING,
) -> Any:
    """A list of short strings (each of ``shape``)."""
    value = items(raw, key, where, default=default)
    if value is default:
        return value
    return tuple(
        name_value(v, f"{where}.{key}[{i}]", shape=shape, what=what) for i, v in enumerate(value)
    )


def choice(raw: Mapping[str, Any], key: str, where: str, options: tuple[str, ...]) -> str:
    """A string field that must be one of ``options``."""
    value = raw.get(key)
    if value is None:
        raise MalformedInput(f"{where}.{key}", "is missing")
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise MalformedInput(f"{where}.{key}", f"must be one of {listed}, not {excerpt(value)}")
    return value
