"""1830 (Railways & Robber Barons), the title 1888's rules are written against
(reference/1830 RULES.md; ``engine/data/1830/``).

What differs from 1888 lives in its data: no destinations, no mine, every stop costs
one of a train's distance, the off-board groups Gulf (I1 + J2) and Canada (A9 + A11),
the Altoona bypass track (H12, edge 1 to edge 4) and the two cities of NY and the OO
hexes (1830 ROUTES.md §1.3, §3.3, §3.5). The hooks here: four rule sets named from the
two optional rules (1830 data/README.md "Rule sets"), no train export, and a trainless
company must buy only if it has a route (1830 RULES.md §14).
"""

from __future__ import annotations


from datetime import date
from functools import cache

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.rule_versions import RulesVersion, marked_no_cert_limit
from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

#: The rule sets (``engine/data/1830/rule_sets.json``): ``standard``, and each choice of
#: 18xx.games' two optional rules (``g_1830/meta.rb``), named by them joined by ``+``.
RULE_SETS = rule_sets_of("1830")

@cache
def rules_of(rule_set: str) -> RulesVersion:
    """1830's one rules version (no dated table): a trainless company must buy only
    with a route, the D is on sale from phase 6 beside the 6-trains, three 6-trains
    with ``optional_6_train``, the market's own yellow cells (1830 RULES.md §14;
    g_1830/game.rb ``num_trains``, trains ``available_on: '6'``)."""
    yellow = marked_no_cert_limit(game_data("1830"))
    sixes = 3 if "optional_6_train" in rule_set.split("+") else 2
    return RulesVersion(
        name="1830",
        since=date(2021, 1, 1),
        must_buy_train="route",
        train_available_on={"D": "6"},
        train_counts={"6": sixes},
        no_cert_limit=yellow,
    )


TITLE = Title(
    name="1830",
    aliases=(),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
    dated_rules=False,
    exports_trains=False,
    must_buy_train="route",
    undated_rules=rules_of,
    sell_buy_order="sell_buy_sell",
    exchange_in_operating_round=True,
    ebuy_from_others=True,
    examples={"hex": "H12", "node": "G19-1"},  # Altoona; NY's city 1 (1830 ROUTES.md §1.5)
    multiple_buy_from_ipo=lambda rule_set: "multiple_brown_from_ipo" in rule_set.split("+"),
    # The first run of the shared log 26855 (action 92): NYNH's three 2-trains from its
    # homes in New York and New Haven (recorded and optimal: $110).
    warm_up_state={
        "title": "1830", "rule_set": "multiple_brown_from_ipo", "phase": "2",
        "corporation": "NYNH", "trains": ["2", "2", "2"],
        "tiles": [
            {"hex": "E19", "tile": "57", "rotation": 1},
            {"hex": "F20", "tile": "1", "rotation": 0},
            {"hex": "F22", "tile": "57", "rotation": 1},
            {"hex": "H14", "tile": "9", "rotation": 1},
        ],
        "tokens": [
            {"hex": "E19", "city": 0, "corporation": "NYC"},
            {"hex": "F22", "city": 0, "corporation": "NYNH"},
            {"hex": "G19", "city": 0, "corporation": "NYNH"},
            {"hex": "H12", "city": 0, "corporation": "PRR"},
        ],
    },
)
