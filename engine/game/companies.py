"""Private companies: owner, income, closing, and what is left of their abilities (RULES.md §2.4, §7).

The abilities themselves are data (``companies.json``, per rule set); the rules
that use them are in ``engine.game.privates``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from route18xx.engine.facts.gamedata import CompanyDef

PlayerOrCorp = int | str


@dataclass
class Company:
    """A private. ``owner`` is a player id, a corporation symbol, or None while unsold."""

    definition: CompanyDef
    owner: PlayerOrCorp | None = None
    closed: bool = False
    discount: int = 0
    lay_uses: int = 0

    @classmethod
    def fresh(cls, definition: CompanyDef) -> Company:
        ability = _ability(definition, "tile_lay")
        if ability is None and _ability(definition, "teleport") is not None:
            return cls(definition, lay_uses=1)  # 1830's DH: one teleport (RULES.md §7.3)
        return cls(definition, lay_uses=int(ability.get("count") or 0) if ability else 0)

    @property
    def sym(self) -> str:
        return self.definition.sym

    @property
    def value(self) -> int:
        return self.definition.value

    @property
    def price(self) -> int:
        """Auction price of the cheapest private: face value less the pass discount (§4.6)."""
        return self.definition.value - self.discount

    def owned_by_player(self) -> bool:
        return isinstance(self.owner, int) and not self.closed

    def owned_by_corporation(self) -> bool:
        return isinstance(self.owner, str) and not self.closed

    def ability(self, kind: str) -> Mapping[str, Any] | None:
        return _ability(self.definition, kind)

    @property
    def tile_lay(self) -> Mapping[str, Any] | None:
        """The special tile-lay ability while it can still be used (§7.2-§7.5; 1830's
        DH teleport, 1830 RULES.md §7.3)."""
        if self.closed or self.lay_uses <= 0:
            return None
        return self.ability("tile_lay") or self.ability("teleport")


def _ability(definition: CompanyDef, kind: str) -> Mapping[str, Any] | None:
    for ability in definition.abilities:
        if ability.get("type") == kind:
            return ability
    return None
