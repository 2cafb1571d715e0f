"""What a tile lay costs (RULES.md §6.5 #6; 1830 RULES.md §6.5): the upgrade cost printed
on the tile it covers, less a private's terrain discount.

18xx.games ``upgrade_cost``: the cost is the sum of the covered tile's ``upgrade`` parts —
a hex's printed terrain on its first lay, and on a few tiles their own cost (1889's
Kotohira tiles 438 and 439 cost ¥80 to upgrade again; ``TileDef.terrain``). A laid tile
without one costs nothing to upgrade. A ``tile_discount`` ability of a private the
corporation owns (1889's Sumitomo Mines Railway: ¥80 off mountain hexes) takes its
discount off a tile whose terrains are exactly its terrain (``exact_match``: a hex of
water and mountain keeps its cost), on its hexes only where it names some; never more
than the cost.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from route18xx.engine.facts.gamedata import CompanyId, GameData, HexId, TileDef


@dataclass(frozen=True)
class TerrainDiscount:
    """One private's ``tile_discount`` ability (companies.json)."""

    company: CompanyId
    discount: int
    #: The terrain it discounts; None: every lay's cost (18xx.games ``tile_cost_with_discount``).
    terrain: str | None
    #: The hexes it applies on; None: everywhere.
    hexes: frozenset[HexId] | None
    #: The covered tile's terrains must be exactly ``terrain`` (else: include it).
    exact_match: bool

    def applies(self, tile: TileDef, hex_id: HexId) -> bool:
        if self.hexes is not None and hex_id not in self.hexes:
            return False
        terrains = {k for t in tile.terrain for k in t.terrains}
        if self.terrain is None:
            return True
        return terrains == {self.terrain} if self.exact_match else self.terrain in terrains


def _discounts(data: GameData, rule_set: str) -> dict[CompanyId, tuple[TerrainDiscount, ...]]:
    out: dict[CompanyId, tuple[TerrainDiscount, ...]] = {}
    for company in data.companies.get(rule_set, ()):
        found = tuple(
            TerrainDiscount(
                company.sym, int(a["discount"]), a.get("terrain"),
                None if a.get("hexes") is None else frozenset(a["hexes"]),
                bool(a.get("exact_match", True)),
            )
            for a in company.abilities
            if a.get("type") == "tile_discount" and a.get("owner_type") in (None, "corporation")
        )
        if found:
            out[company.sym] = found
    return out


def terrain_discounts(
    data: GameData, rule_set: str, owned: Collection[CompanyId]
) -> tuple[TerrainDiscount, ...]:
    """The discounts of the privates in ``owned`` (the corporation's), held per rule set
    by ``data``."""
    known = data.derived_for(_discounts, rule_set)
    return tuple(d for c in sorted(owned) for d in known.get(c, ()))


def lay_cost(covered: TileDef, hex_id: HexId, discounts: Collection[TerrainDiscount]) -> int:
    """What laying a tile over ``covered`` on ``hex_id`` costs (module docstring)."""
    cost = sum(t.cost for t in covered.terrain)
    if not cost or not discounts:
        return cost
    off = sum(d.discount for d in discounts if d.applies(covered, hex_id))
    return cost - min(cost, off)
