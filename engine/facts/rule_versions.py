"""A title's rules as of a date: its dated table of rule changes (DESIGN.md §9, HISTORY.md §2).

18xx.games changed its 1888 rules over time and has no migration for old logs,
so a real log replays under the rules in force when it was played. The changes
are data (``engine/data/<title>/rule_versions.json``; 1888 has one): each entry is a date
and the facts it set. ``rules_as_of(day, title)`` folds every entry up to ``day`` into a
``RulesVersion``, which the rules code reads as plain fields; no rule asks for
a date. The dated facts (HISTORY.md §2):

* ``must_buy_train``: ``"route"`` (the engine default before 2022-04-27: a
  trainless company must buy a train only if it has a route) or ``"always"``.
* ``train_available_on``: the D was on sale from phase 6 beside the remaining
  6-trains until 2023-08-09; since then only once the 6-trains are gone.
* ``no_cert_limit``: the market's yellow cells, changed on 2023-08-25.
* ``train_counts``: 17 D-trains until 2026-05-13, unlimited since.

>>> rules_as_of(date(2023, 1, 1), "1888").name
'1888@2022-04-27'
>>> rules_as_of(date(2023, 1, 1), "1888").must_buy_train
'always'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timezone
from functools import cache
from typing import Any, Literal, TypeAlias, cast

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.datafiles import read_data_file
from route18xx.engine.facts.gamedata import GameData, TrainDef, game_data

#: When a company without a train must buy one (HISTORY.md §2, 2022-04-27).
MustBuyTrain: TypeAlias = Literal["always", "route"]
#: A market cell, (row, column), row 0 at the top (``engine.game.market``).
Cell: TypeAlias = tuple[int, int]

_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FACTS = ("must_buy_train", "train_available_on", "train_count", "market_no_cert_limit")


@dataclass(frozen=True)
class RuleChange:
    """One dated entry of ``rule_versions.json``: the facts a change set."""

    day: date
    source: str
    summary: str
    facts: Mapping[str, Any]


@dataclass(frozen=True)
class RulesVersion:
    """A title's rules in force from ``since`` until its next change (1888 HISTORY.md §2)."""

    #: ``"<title>@<date of the newest change in force>"``, e.g. ``"1888@2023-08-25"``.
    name: str
    since: date
    #: ``"route"``: a trainless company must buy only if it has a route; ``"always"``.
    must_buy_train: MustBuyTrain
    #: train type → the phase from which the depot sells it out of order (the D from 6).
    train_available_on: Mapping[str, str]
    #: train type → copies in the depot (None: unlimited); types not listed keep trains.json's.
    train_counts: Mapping[str, int | None]
    #: the market's yellow ("no certificate limit") cells (RULES.md §5.11).
    no_cert_limit: frozenset[Cell]

    def trains(self, defs: Mapping[str, TrainDef]) -> dict[str, TrainDef]:
        """``defs`` (trains.json) with this version's counts."""
        return {
            name: replace(t, count=self.train_counts[name]) if name in self.train_counts else t
            for name, t in defs.items()
        }

    def sold_early(self, phases_reached: Sequence[str]) -> frozenset[str]:
        """Train types the depot sells beside the next train in order, once one of
        ``phases_reached`` is their ``available_on`` phase (HISTORY.md §2, 2023-08-09)."""
        return frozenset(t for t, phase in self.train_available_on.items() if phase in phases_reached)


def _day(text: Any, where: str) -> date:
    """``"YYYY-MM-DD"`` → a date; anything else is ``MalformedInput`` naming ``where``."""
    if isinstance(text, str) and _ISO_DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise MalformedInput(where, f"must be a date YYYY-MM-DD, not {excerpt(text)}")


def parse_rules_as_of(value: Any, field: str = "rules_as_of") -> date | None:
    """A ``rules_as_of`` value: ``"YYYY-MM-DD"`` → a date; None or ``""`` → None (not given).

    >>> parse_rules_as_of("2023-08-24")
    datetime.date(2023, 8, 24)
    >>> parse_rules_as_of("24.8.2023")
    Traceback (most recent call last):
    ...
    route18xx.engine.errors.MalformedInput: rules_as_of: must be a date YYYY-MM-DD, not '24.8.2023'
    """
    if value is None or value == "":
        return None
    return _day(value, field)


@cache
def rule_changes(title: str) -> tuple[RuleChange, ...]:
    """The dated entries of the title's ``rule_versions.json``, oldest first."""
    raw = read_data_file(title, "rule_versions")
    changes = tuple(
        RuleChange(
            day=date.fromisoformat(entry["date"]),
            source=entry["source"],
            summary=entry["summary"],
            facts={k: v for k, v in entry.items() if k in _FACTS},
        )
        for entry in raw["changes"]
    )
    assert list(changes) == sorted(changes, key=lambda c: c.day), "rule changes out of date order"
    assert set(changes[0].facts) == set(_FACTS), "the first rule change must set every fact"
    return changes


def _yellow(rows: Sequence[Sequence[int]], data: GameData) -> frozenset[Cell]:
    """Market cells from their prices row by row (prices within a row are distinct)."""
    cells: set[Cell] = set()
    grid = data.market["grid"]
    for r, prices in enumerate(rows):
        columns = {cell["price"]: c for c, cell in enumerate(grid[r]) if cell is not None}
        for price in prices:
            cells.add((r, columns[price]))
    return frozenset(cells)


def marked_no_cert_limit(data: GameData) -> frozenset[Cell]:
    """The market cells a title's data marks as lifting the certificate limit (``market.json``
    ``no_cert_limit``: 1830's and 1889's yellow cells, 1882's and 1856's yellow, orange and
    brown): the one reading of the mark for every undated title's rules version."""
    grid = data.market["grid"]
    return frozenset((r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)
                     if cell is not None and cell.get("no_cert_limit"))


@cache
def rules_as_of(day: date, title: str) -> RulesVersion:
    """The title's rules in force on ``day``: every change merged on or before it.

    A day before the first change gets the first rules (no log of 1888 is older).
    """
    changes = rule_changes(title)
    in_force = [c for c in changes if c.day <= day] or [changes[0]]
    facts: dict[str, Any] = {}
    for change in in_force:
        facts.update(change.facts)
    newest = in_force[-1].day
    return RulesVersion(
        name=f"{title}@{newest.isoformat()}",
        since=newest,
        must_buy_train=cast(MustBuyTrain, facts["must_buy_train"]),
        train_available_on=dict(facts["train_available_on"]),
        train_counts=dict(facts["train_count"]),
        no_cert_limit=_yellow(facts["market_no_cert_limit"], game_data(title)),
    )


def today() -> date:
    """Today in UTC, the default date of a state file's rules."""
    return datetime.now(timezone.utc).date()


def current_rules(title: str) -> RulesVersion:
    """The title's rules in force today."""
    return rules_as_of(today(), title)


def _timestamp_day(value: Any) -> date | None:
    """A log's ``created_at``: seconds since the epoch, or an ISO date or date-time."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return datetime.fromtimestamp(value, timezone.utc).date()
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is not None:
            moment = moment.astimezone(timezone.utc)
        return moment.date()
    return None


def log_date(log: Mapping[str, Any]) -> date | None:
    """The day a game log was played: its own ``created_at``, else its first action's
    (HISTORY.md §1.3: every action carries ``created_at``); None when it has neither."""
    day = _timestamp_day(log.get("created_at"))
    if day is not None:
        return day
    actions = log.get("actions")
    for action in actions if isinstance(actions, list) else ():
        if isinstance(action, Mapping) and "created_at" in action:
            return _timestamp_day(action["created_at"])
    return None


def log_rules_date(log: Mapping[str, Any], rules_as_of_value: Any = None) -> date:
    """The date whose rules a log replays under: ``rules_as_of`` when given (a
    malformed one is ``MalformedInput`` naming ``rules_as_of``), else the log's
    date, else today."""
    given = rules_as_of_value if isinstance(rules_as_of_value, date) else parse_rules_as_of(rules_as_of_value)
    return given or log_date(log) or today()


def dated_state(raw: Any, as_of: str | None) -> Any:
    """A decoded state file with ``rules_as_of`` set to ``as_of`` (a request's field or
    ``--rules-as-of`` given beside the state); unchanged when ``as_of`` is empty. A
    state naming another date is ``MalformedInput`` naming ``rules_as_of``."""
    if not as_of:
        return raw
    parse_rules_as_of(as_of)
    if not isinstance(raw, Mapping):
        return raw  # parse_state names what is wrong with it
    if isinstance(raw.get("state"), Mapping) and "tiles" not in raw:
        return {**raw, "state": dated_state(raw["state"], as_of)}
    own = raw.get("rules_as_of")
    if own is not None and own != as_of:
        raise MalformedInput(
            "rules_as_of", f"is {excerpt(as_of)} but the state says {excerpt(own)}: give one date")
    return {**raw, "rules_as_of": as_of}


__all__ = [
    "MustBuyTrain",
    "RuleChange",
    "RulesVersion",
    "current_rules",
    "dated_state",
    "log_date",
    "log_rules_date",
    "marked_no_cert_limit",
    "parse_rules_as_of",
    "rule_changes",
    "rules_as_of",
    "today",
]
