"""A title's rule sets, as its data says (``engine/data/<title>/rule_sets.json``; STYLE.md §2).

A rule set is a small options object: the bank, the float percentage, the player range and
how a private's share exchange is made (1888 RULES.md §1, §7.6; 1830 RULES.md §1, §7.4, §14).
Its facts and the optional rules a game log writes for it (``settings.optional_rules``) are
data; the rules here are the two mappings between them, the same for every title:

* a log's optional rules choose the rule set whose options are exactly those of them that
  name a rule set (1888: ``north``; 1830: any of its two options, or none: ``standard``);
* an optional rule listed under ``option_changes`` changes the chosen rule set's facts
  instead of choosing one (1888's ``small_bank``: the prototype with the north bank and
  float, 18xx.games' ``OPTIONAL_RULES``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from route18xx.engine.facts.datafiles import read_data_file
from route18xx.engine.facts.gamedata import TileDef

#: The supply of a tile that never runs out (``RuleSet.tile_count``): more than any board holds.
UNLIMITED = 10**6

#: A rule set's facts, as ``rule_sets.json`` names them.
_FACTS = ("bank", "float_percent", "min_players", "max_players", "exchange_is_turn_action",
          "exchange_from_pool", "privates_dealt", "privates_by_players")


@dataclass(frozen=True)
class RuleSet:
    """One rule set of a title (``rule_sets.json``): the bank, the float, the players and
    how privates are dealt and exchanged."""

    name: str
    bank: int
    float_percent: int
    min_players: int
    max_players: int
    #: the private's share exchange is the owning player's action in its stock-round turn.
    exchange_is_turn_action: bool
    #: the exchanged share may come from the pool as well as the IPO.
    exchange_from_pool: bool
    #: the privates are dealt to the players by the game's seed, not auctioned (1889's
    #: beginner game; ``engine.game.deal``).
    privates_dealt: bool
    #: the privates a game seats by player count, as (count, privates) pairs; None: every
    #: private of the rule set at every count (1889: the UTF from 4 players, no SIR with
    #: 2, the beginner game's own lists; g_1889/game.rb ``setup``, entities.rb ``min_players``).
    privates_by_players: tuple[tuple[int, tuple[str, ...]], ...] | None

    def privates_for(self, players: int) -> tuple[str, ...] | None:
        """The privates a game of ``players`` seats, or None for all of the rule set's."""
        if self.privates_by_players is None:
            return None
        return dict(self.privates_by_players)[players]

    def tile_count(self, tile: TileDef) -> int:
        """Copies of ``tile`` in this rule set's supply (RULES.md §1.1); ``UNLIMITED`` for a
        tile the supply never runs out of (``count`` null: 18Chesapeake's 7, 8 and 9, whose
        copies 18xx.games adds as they are laid, ``Game::Base#add_extra_tile``)."""
        if tile.counts is None:
            return 0
        count = tile.counts.get(self.name, 0)
        return UNLIMITED if count is None else count


@dataclass(frozen=True)
class RuleSets:
    """A title's rule sets by name (in the data's order), the optional rules each is
    written as, and the optional rules that change a rule set's facts."""

    by_name: Mapping[str, RuleSet]
    options: Mapping[str, tuple[str, ...]]
    #: optional rule → (the rule set it changes, the facts it sets)
    option_changes: Mapping[str, tuple[str, Mapping[str, Any]]]

    def of_options(self, chosen: Iterable[str]) -> RuleSet:
        """The rule set of a log's optional rules (module docstring): the one whose options
        are exactly the given ones that name a rule set, with the changes of the given
        ones that change it. ``KeyError`` when no rule set has those options."""
        given = set(chosen)
        naming = {o for opts in self.options.values() for o in opts}
        wanted = given & naming
        by_options = {frozenset(opts): n for n, opts in self.options.items()}
        name = by_options[frozenset(wanted)]
        rule_set = self.by_name[name]
        for option in sorted(given & set(self.option_changes)):
            target, facts = self.option_changes[option]
            if target == name:
                rule_set = dataclasses.replace(rule_set, **facts)
        return rule_set

    def options_of(self, name: str) -> list[str]:
        """The optional rules a log of rule set ``name`` writes (the inverse)."""
        return list(self.options[name])


@cache
def rule_sets_of(title: str) -> RuleSets:
    """The title's ``rule_sets.json``, read once."""
    raw = read_data_file(title, "rule_sets")
    by_name = {name: RuleSet(name, **{k: _fact(k, facts[k]) for k in _FACTS})
               for name, facts in raw["rule_sets"].items()}
    options = {name: tuple(facts["options"]) for name, facts in raw["rule_sets"].items()}
    changes = {option: (change["rule_set"], {k: v for k, v in change.items() if k in _FACTS})
               for option, change in raw.get("option_changes", {}).items()}
    return RuleSets(by_name, options, changes)


def _fact(key: str, value: Any) -> Any:
    """A fact as the frozen ``RuleSet`` holds it (a player-count table as sorted pairs)."""
    if key == "privates_by_players" and value is not None:
        return tuple(sorted((int(n), tuple(syms)) for n, syms in value.items()))
    return value
