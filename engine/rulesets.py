"""The two 1888 rule sets as one small options object (RULES.md §1, STYLE.md §2).

``north`` is the published 1888-N; ``prototype`` the original short rules
(no optional rule selected on 18xx.games). They differ only in the values here
and in the Forbidden City exchange, which reads ``forbidden_city_variant``.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.engine.gamedata import TileDef


@dataclass(frozen=True)
class RuleSet:
    name: str
    bank: int
    float_percent: int
    min_players: int
    max_players: int
    forbidden_city_variant: str

    def tile_count(self, tile: TileDef) -> int:
        """Copies of ``tile`` in this rule set's supply (RULES.md §1.1)."""
        if tile.counts is None:
            return 0
        return tile.counts.get(self.name, 0)


NORTH = RuleSet("north", bank=9000, float_percent=60, min_players=3, max_players=6,
                forbidden_city_variant="north")
PROTOTYPE = RuleSet("prototype", bank=10000, float_percent=50, min_players=2, max_players=6,
                    forbidden_city_variant="prototype")

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (NORTH, PROTOTYPE)}
