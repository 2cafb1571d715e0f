"""1888 (the first title, 1888 RULES.md): its hooks behind the title seam.

Its facts are ``engine/data/1888/``: the mine and the destinations, its two rule sets
(``rule_sets.json``: ``north``, the published 1888-N, and ``prototype``, the original short
rules, whose ``small_bank`` option plays with the north bank and float) and its dated rule
versions (``rule_versions.json``).
"""

from __future__ import annotations

from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

RULE_SETS = rule_sets_of("1888")

TITLE = Title(
    name="1888",
    aliases=("1888N", "1888-N"),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
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
