"""Revenue distribution and the mine subsidy (RULES.md §6.8).

* payout: each player gets ceil(shares × revenue / 10) (the president's
  certificate is two shares); shares in the pool pay the corporation; IPO
  shares pay nobody. The price moves one cell right.
* withhold (also the automatic withhold of a run worth nothing): the whole
  revenue goes to the treasury. The price moves one cell left.
* the mine subsidy goes from the bank to the treasury whatever the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.game.shares import POOL

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game


def share_of(percent: int, revenue: int) -> int:
    """ceil(percent/10 × revenue/10), in integers."""
    return -(-percent * revenue // 100)


def distribute(game: Game, corp: Corporation, kind: str, revenue: int, subsidy: int) -> None:
    """Pay out or withhold ``revenue``, pay ``subsidy``, move the share price (§6.8)."""
    assert corp.share_price is not None
    if kind == "payout" and revenue > 0:
        for pid, percent in corp.shares.player_percents().items():
            game.pay_from_bank(game.player(pid), share_of(percent, revenue))
        pool = corp.shares.percent_of(POOL)
        if pool:
            game.pay_from_bank(corp, share_of(pool, revenue))
        new = game.market.right(corp.share_price)
    else:
        if revenue > 0:
            game.pay_from_bank(corp, revenue)
        new = game.market.left(corp.share_price)
    corp.share_price = game.market.move(corp.sym, corp.share_price, new)
    if subsidy > 0:
        game.pay_from_bank(corp, subsidy)
