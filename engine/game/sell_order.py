"""When a stock-round turn may sell: the title's order of sales and purchases in one turn,
and whether a corporation's shares go in one block a turn (18xx.games ``SELL_BUY_ORDER``,
``MUST_SELL_IN_BLOCKS``; ``Step::BuySellParShares#can_sell?``, ``#can_sell_order?``).

* ``sell_buy`` (1888): sales come before the turn's purchase, none after it.
* ``sell_buy_sell`` (1830, 1882; 1830 RULES.md §14): sales before and after it.
* ``sell_buy_or_buy_sell`` (1889, the engine's default): sales before or after the
  purchase, not both: once a turn has sold and bought, a purchase ends its sales.

With ``must_sell_in_blocks`` (1889) a turn sells each corporation's shares at most once,
as one block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game

#: The turn's acts (``StockRound.turn_actions``) that are purchases (18xx.games
#: ``PURCHASE_ACTIONS``: buy shares, buy a private, par).
PURCHASES = frozenset({"buy", "par"})


def order_allows_sale(game: Game, turn_actions: list[str]) -> bool:
    """May the turn sell now, after ``turn_actions``, by the title's order (module docstring)?"""
    order = game.title.sell_buy_order
    bought = any(a in PURCHASES or a == "exchange" for a in turn_actions)
    if order == "sell_buy":
        return not bought
    if order == "sell_buy_sell":
        return True
    return not (len(set(turn_actions)) == 2 and turn_actions[-1] in PURCHASES)


def block_allows_sale(game: Game, sold_this_turn: set[str], corp: str) -> bool:
    """May the turn sell ``corp``'s shares, having sold ``sold_this_turn``? Not twice under
    ``must_sell_in_blocks`` (module docstring)."""
    return not (game.title.must_sell_in_blocks and corp in sold_this_turn)
