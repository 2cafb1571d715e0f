"""Corporations: treasury, shares, share price, tokens and trains (RULES.md §2.5, §5, §6).

The facts (home, destination, token prices, float percentage) come from
``engine.gamedata``; this module holds what changes during a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from route18xx.engine.game.market import Cell
from route18xx.engine.game.shares import IPO, POOL, ShareRegister
from route18xx.engine.facts.gamedata import CorporationDef


@dataclass
class Corporation:
    """One corporation's changing state. ``par`` is None until it is parred (§5.5)."""

    definition: CorporationDef
    shares: ShareRegister
    cash: int = 0
    par: Cell | None = None
    par_price: int = 0
    share_price: Cell | None = None
    floated: bool = False
    operated: bool = False
    tokens_used: int = 0
    trains: list[str] = field(default_factory=list)

    @classmethod
    def fresh(cls, definition: CorporationDef) -> Corporation:
        certs = [f"{definition.sym}_{i}" for i in range(len(definition.share_percents))]
        return cls(definition, ShareRegister.fresh(definition.sym, certs))

    @property
    def sym(self) -> str:
        return self.definition.sym

    @property
    def ipoed(self) -> bool:
        return self.par is not None

    @property
    def president(self) -> int | None:
        return self.shares.president

    @property
    def ipo_percent(self) -> int:
        return self.shares.percent_of(IPO)

    @property
    def pool_percent(self) -> int:
        return self.shares.percent_of(POOL)

    @property
    def tokens_left(self) -> int:
        return len(self.definition.token_prices) - self.tokens_used

    @property
    def next_token_price(self) -> int | None:
        """The printed price of the next unused token (RULES.md §6.6), None when none is left."""
        if self.tokens_left <= 0:
            return None
        return self.definition.token_prices[self.tokens_used]
