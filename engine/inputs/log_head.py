"""Reading the fields of a game log outside its actions, each refusal a ``MalformedInput`` naming it (issue 34).

A game log comes from a client (ACTIONS.md §1: the game's JSON as 18xx.games
serves it). Besides ``actions`` and ``players`` (``engine.replay.log_players``)
and ``title`` (``engine.titles.title_named``) the engine reads four fields of it:

* ``settings.optional_rules``: the options that choose the rule set (1888
  RULES.md §1; 1830 data/README.md "Rule sets"), a list of names;
  ``settings`` an object, both may be absent or null (no options);
* ``result``: the final scores, an object (absent, null or ``{}`` while the game
  runs); each score is read by ``Seats.recorded_result``;
* ``status``: a string (``"finished"`` once the game is over);
* ``created_at``: the day whose rules the log is replayed under (DESIGN.md §9,
  ``engine.facts.rule_versions.log_date``), seconds since 1970 or an ISO date.

A value of another type (``"settings": "x"``, ``"settings": 5``,
``"optional_rules": "north"``) is refused here, naming the field, before
anything is replayed: it used to fail deep in the replay as an engine bug
(issue 34). Messages quote the client's value only through ``excerpt``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.inputs.fields import items_value, name_value


@dataclass(frozen=True)
class LogHead:
    """A game log's fields outside its actions, read and checked (module docstring)."""

    #: ``settings.optional_rules``: the names of the optional rules played.
    options: tuple[str, ...]
    #: ``result``: the recorded final scores as written (empty while the game runs).
    result: Mapping[str, Any]
    #: The log says the game is over: ``status`` is ``"finished"`` or it has a result.
    finished: bool


def log_options(log: Mapping[str, Any]) -> tuple[str, ...]:
    """``settings.optional_rules``: a list of names (absent or null: none).

    >>> log_options({"settings": {"optional_rules": ["north"]}})
    ('north',)
    >>> log_options({"settings": None})
    ()
    >>> log_options({"settings": "north"})
    Traceback (most recent call last):
    ...
    route18xx.engine.errors.MalformedInput: settings: must be an object, not 'north'
    """
    settings = log.get("settings")
    if settings is None:
        return ()
    if not isinstance(settings, Mapping):
        raise MalformedInput("settings", f"must be an object, not {excerpt(settings)}")
    options = settings.get("optional_rules")
    if options is None:
        return ()
    field = "settings.optional_rules"
    return tuple(name_value(o, f"{field}[{i}]", what="an optional rule's name")
                 for i, o in enumerate(items_value(options, field)))


def log_seed(log: Mapping[str, Any]) -> int:
    """The game's seed, as the site reads it (``Game::Base#initialize_seed``):
    ``settings.seed`` (a whole number; ``""`` as absent), else the first run of digits of
    the log's ``id``, else 0. It deals 1889's beginner privates (``engine.game.deal``).

    >>> log_seed({"id": "hs_jmmljkbw_17502", "settings": {"seed": 17502}})
    17502
    >>> log_seed({"id": "hs_abc_99", "settings": {"seed": ""}})
    99
    """
    settings = log.get("settings")
    seed = settings.get("seed") if isinstance(settings, Mapping) else None
    if seed is not None and seed != "":
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise MalformedInput("settings.seed", f"must be a whole number, not {excerpt(seed)}")
        return seed
    digits = re.search(r"\d+", str(log.get("id", "")))
    return int(digits.group()) if digits else 0


def read_log_head(log: Mapping[str, Any]) -> LogHead:
    """Every field of the log outside ``actions``, ``players`` and ``title``, checked by type."""
    options = log_options(log)
    result = log.get("result")
    if result is None:
        result = {}
    elif not isinstance(result, Mapping):
        raise MalformedInput("result", f"must be an object of final scores, not {excerpt(result)}")
    status = log.get("status")
    if status is not None and not isinstance(status, str):
        raise MalformedInput("status", f"must be a string, not {excerpt(status)}")
    created = log.get("created_at")
    if created is not None and (isinstance(created, bool) or not isinstance(created, (int, float, str))):
        raise MalformedInput(
            "created_at", f"must be seconds since 1970 or an ISO date, not {excerpt(created)}")
    return LogHead(options, result, status == "finished" or bool(result))


__all__ = ["LogHead", "log_options", "log_seed", "read_log_head"]
