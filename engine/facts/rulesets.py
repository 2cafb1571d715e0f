"""The two 1888 rule sets as one small options object (RULES.md §1, STYLE.md §2).

``north`` is the published 1888-N; ``prototype`` the original short rules
(no optional rule selected on 18xx.games). They differ only in the values here
and in the Forbidden City exchange (RULES.md §7.6): in north it is the owner's
stock-round turn action and may take the share from the pool
(``exchange_is_turn_action``, ``exchange_from_pool``); in prototype it may be made
at any time, from the IPO only.
"""

from __future__ import annotations

from dataclasses import dataclass

from route18xx.engine.facts.gamedata import TileDef


@dataclass(frozen=True)
class RuleSet:
    name: str
    bank: int
    float_percent: int
    min_players: int
    max_players: int
    #: the Forbidden City exchange is the owning player's action in its stock-round turn.
    exchange_is_turn_action: bool
    #: the exchanged share may come from the pool as well as the IPO.
    exchange_from_pool: bool

    def tile_count(self, tile: TileDef) -> int:
        """Copies of ``tile`` in this rule set's supply (RULES.md §1.1)."""
        if tile.counts is None:
            return 0
        return tile.counts.get(self.name, 0)


NORTH = RuleSet("north", bank=9000, float_percent=60, min_players=3, max_players=6,
                exchange_is_turn_action=True, exchange_from_pool=True)
PROTOTYPE = RuleSet("prototype", bank=10000, float_percent=50, min_players=2, max_players=6,
                    exchange_is_turn_action=False, exchange_from_pool=False)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (NORTH, PROTOTYPE)}
