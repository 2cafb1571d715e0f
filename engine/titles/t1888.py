"""1888 (the first title, 1888 RULES.md): its rule sets and hooks behind the title seam.

``north`` is the published 1888-N, ``prototype`` the original short rules
(``engine.rulesets``); its facts are ``engine/data/1888/``, the mine and the
destinations included, and its dated rule versions ``rule_versions.json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from route18xx.engine.facts.rulesets import NORTH, PROTOTYPE, RULE_SETS, RuleSet
from route18xx.engine.titles.base import Title


def rule_set_of_options(options: Sequence[str]) -> RuleSet:
    """The rules of a log's ``settings.optional_rules`` (1888 RULES.md §1): ``north`` when
    the log asks for it, else the prototype, whose ``small_bank`` option plays with the
    north bank and float (18xx.games' 1888 ``OPTIONAL_RULES``)."""
    if "north" in options:
        return NORTH
    if "small_bank" in options:
        return dataclasses.replace(PROTOTYPE, bank=NORTH.bank, float_percent=NORTH.float_percent)
    return PROTOTYPE



def options_of_rule_set(name: str) -> list[str]:
    """What a log of the rule set writes in ``optional_rules``: ``north``, or nothing."""
    return ["north"] if name == "north" else []


TITLE = Title(
    name="1888",
    aliases=("1888N", "1888-N"),
    rule_sets=RULE_SETS,
    rule_set_of_options=rule_set_of_options,
    options_of_rule_set=options_of_rule_set,
    dated_rules=True,
    exports_trains=True,
    must_buy_train="always",
    # Heng Shan, the one private of 1888 that blocks a hex (C5, RULES.md §7.3): a state
    # file says whether a player owns it; the wire keeps the field too (State field 10).
    blockers_alias="heng_shan_player_owned",
    examples={"hex": "G15", "node": "C9-1"},  # ROUTES.md §1.4: a node is "<hex>-<part index>"
    # ROUTES.md §7 example 1: LYR's 2-train from its home through two laid tiles.
    warm_up_state={
        "title": "1888", "rule_set": "north", "phase": "2", "corporation": "LYR", "trains": ["2"],
        "tiles": [
            {"hex": "G15", "tile": "9", "rotation": 0},
            {"hex": "H14", "tile": "5", "rotation": 3},
        ],
        "tokens": [{"hex": "F16", "city": 0, "corporation": "LYR"}],
    },
)
