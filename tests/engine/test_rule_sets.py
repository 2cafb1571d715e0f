"""A title's rule sets are data, and a log's options map to them one way (issue 33 item 3).

``engine/data/<title>/rule_sets.json`` holds each rule set's facts and the optional rules a
log writes for it; ``engine/facts/rulesets.py`` reads both mappings from it. Expected
values come from the rules: 1888 RULES.md §1 (north: bank 9 000, float 60 %, 3-6 players;
prototype: 10 000, 50 %, 2-6; 18xx.games' ``small_bank`` option: the prototype with the
north bank and float) and 1830 RULES.md §1, §14 (bank 12 000, float 60 %, 2-6 players).
"""

from __future__ import annotations

import itertools

import pytest

from route18xx.engine.titles import TITLES


@pytest.mark.parametrize("title", sorted(TITLES))
def test_every_rule_set_is_read_back_from_the_options_it_writes(title: str) -> None:
    t = TITLES[title]
    for name in t.rule_sets:
        assert t.rule_set_of_options(t.options_of_rule_set(name)) == t.rule_sets[name]


@pytest.mark.parametrize("title", sorted(TITLES))
def test_options_that_name_no_rule_set_change_nothing(title: str) -> None:
    t = TITLES[title]
    for name in t.rule_sets:
        options = [*t.options_of_rule_set(name), "an_option_no_title_has"]
        assert t.rule_set_of_options(options) == t.rule_sets[name]


@pytest.mark.parametrize(("options", "facts"), [
    ([], ("prototype", 10000, 50, 2, 6)),
    (["north"], ("north", 9000, 60, 3, 6)),
    (["small_bank"], ("prototype", 9000, 60, 2, 6)),
    (["north", "small_bank"], ("north", 9000, 60, 3, 6)),
])
def test_1888_rule_sets_from_the_rules(options: list[str], facts: tuple[object, ...]) -> None:
    r = TITLES["1888"].rule_set_of_options(options)
    assert (r.name, r.bank, r.float_percent, r.min_players, r.max_players) == facts


def test_1830_rule_sets_are_named_by_their_options_in_any_order() -> None:
    t = TITLES["1830"]
    chosen = ("multiple_brown_from_ipo", "optional_6_train")
    for k in range(3):
        for combination in itertools.permutations(chosen, k):
            r = t.rule_set_of_options(list(combination))
            assert r.name == ("+".join(sorted(combination)) or "standard")
            assert (r.bank, r.float_percent, r.min_players, r.max_players) == (12000, 60, 2, 6)
