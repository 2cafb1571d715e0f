"""Final scores (RULES.md §11.4): cash + shares at market price + privates at face value."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player


def player_value(game: Game, player: Player) -> int:
    """Cash, every share at the current price (president's certificate ×2), held privates."""
    value = player.cash
    for corp in game.corporations.values():
        percent = corp.shares.percent_of(player.id)
        if percent and corp.share_price is not None:
            value += game.price(corp) * percent // 10
    value += sum(c.value for c in game.companies.values() if c.owner == player.id and not c.closed)
    return value


def scores(game: Game) -> dict[int, int]:
    """Player id → score, in seating order."""
    return {p.id: player_value(game, p) for p in game.players}
