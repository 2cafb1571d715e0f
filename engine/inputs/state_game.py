"""The game's facts a state file carries beside its board (STATE-FILES.md): checked, so that
a state cannot say one game in one field and another in the next.

* ``optional_rules``: the game's optional rules as its log lists them. They select the rule
  set as a log's do (``RuleSets.of_options``, the one reading of both), and that must be the
  state's ``rule_set``; an option no rule set of the title is played with is refused.
* ``players``: the number of players, within the rule set's range (``RuleSet.min_players``
  to ``max_players``).
* ``corporation_type``: the running company's kind. The titles read here have corporations
  only (1846's minors and 1856-style nationals are not among them), so any other kind is
  refused rather than read as a corporation.
* ``reservations``: home or destination slots held for a company (``{"hex", "city",
  "corporation"}``), checked against the map and the companies. A reservation changes no
  route: 18xx.games' ``City#blocks?`` looks at station tokens only.

Each is optional; absent, nothing is assumed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import GameData
from route18xx.engine.facts.rulesets import RuleSet, rule_sets_of

#: The company kinds a state of these titles may name (STATE-FILES.md ``corporation_type``).
CORPORATION_TYPES = ("corporation",)
#: The most reservations a state may list (every city slot of the largest map is far fewer).
MAX_RESERVATIONS = 200


def check_game_facts(raw: Mapping[str, Any], title: str, rule_set: RuleSet,
                     data: GameData) -> None:
    """Refuse a state whose game facts contradict its rule set, company or map."""
    _check_optional_rules(raw.get("optional_rules"), title, rule_set)
    _check_players(raw.get("players"), rule_set)
    kind = raw.get("corporation_type")
    if kind is not None and kind not in CORPORATION_TYPES:
        raise MalformedInput("corporation_type", f"must be one of {list(CORPORATION_TYPES)} "
                                                 f"in {title}, not {excerpt(kind)}")
    _check_reservations(raw.get("reservations"), data)


def _check_optional_rules(options: Any, title: str, rule_set: RuleSet) -> None:
    if options is None:
        return
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise MalformedInput("optional_rules", "must be a list of optional rule names")
    try:
        chosen = rule_sets_of(title).of_options(options)
    except KeyError:
        raise MalformedInput("optional_rules", f"no rule set of {title} is played with "
                                               f"{excerpt(options)}") from None
    if chosen.name != rule_set.name:
        raise MalformedInput("optional_rules", f"{excerpt(options)} select rule set "
                                               f"{chosen.name}, not {rule_set.name}")


def _check_players(players: Any, rule_set: RuleSet) -> None:
    if players is None:
        return
    low, high = rule_set.min_players, rule_set.max_players
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise MalformedInput("players", f"must be a whole number from {low} to {high} "
                                        f"({rule_set.name}), not {excerpt(players)}")


def _check_reservations(reservations: Any, data: GameData) -> None:
    if reservations is None:
        return
    if not isinstance(reservations, list) or len(reservations) > MAX_RESERVATIONS:
        raise MalformedInput("reservations", f"must be a list of at most {MAX_RESERVATIONS} "
                                             "{hex, city, corporation} objects")
    for i, item in enumerate(reservations):
        where = f"reservations[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedInput(where, "must be an object with 'hex', 'city' and 'corporation'")
        hex_id, city, corporation = item.get("hex"), item.get("city", 0), item.get("corporation")
        if not isinstance(hex_id, str) or hex_id not in data.hexes:
            raise MalformedInput(f"{where}.hex", f"unknown hex {excerpt(hex_id)}")
        if not isinstance(city, int) or isinstance(city, bool) or not 0 <= city < 8:
            raise MalformedInput(f"{where}.city", f"must be a city index 0–7, not {excerpt(city)}")
        if not isinstance(corporation, str) or corporation not in data.corporations:
            raise MalformedInput(f"{where}.corporation", f"unknown company {excerpt(corporation)}")
