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

from collections.abc import Sequence

from route18xx.engine.rulesets import RuleSet
from route18xx.engine.titles.base import Title

#: The optional rules of 18xx.games' 1830 (``g_1830/meta.rb``), in name order.
OPTIONS = ("multiple_brown_from_ipo", "optional_6_train")


def rule_set_of_options(options: Sequence[str]) -> str:
    """The rule set name of a log's optional rules: the known ones sorted and joined
    by ``+``, or ``standard`` (1830 data/README.md "Rule sets")."""
    chosen = sorted(set(options) & set(OPTIONS))
    return "+".join(chosen) if chosen else "standard"


def _rule_set(name: str) -> RuleSet:
    # 1830 RULES.md §1, §14: bank $12,000, float 60 % in every rule set, 2-6 players;
    # the M&H exchange may be made at any time, from the IPO or the pool (§7.4).
    return RuleSet(name, bank=12000, float_percent=60, min_players=2, max_players=6,
                   exchange_is_turn_action=False, exchange_from_pool=True)


RULE_SETS: dict[str, RuleSet] = {
    name: _rule_set(name)
    for name in ("standard", "multiple_brown_from_ipo", "optional_6_train",
                 "multiple_brown_from_ipo+optional_6_train")
}

TITLE = Title(
    name="1830",
    aliases=(),
    rule_sets=RULE_SETS,
    rule_set_of_options=rule_set_of_options,
    dated_rules=False,
    currency="$",
    exports_trains=False,
    must_buy_train="route",
)
