"""Shared helpers of the operating-round steps: the round, the operating corporation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.game.actions import Action

if TYPE_CHECKING:
    from engine.game.corporations import Corporation
    from engine.game.game import Game
    from engine.game.operating_round import OperatingRound


def current_round(game: Game) -> OperatingRound:
    from engine.game.operating_round import OperatingRound

    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    return rnd


def operator(game: Game) -> Corporation:
    return game.corporation(current_round(game).current_entity(game))


def not_operating(game: Game, action: Action) -> IllegalAction | None:
    """The refusal for a corporation acting out of turn, if that is the problem."""
    current = current_round(game).current_entity(game)
    if action.entity != current:
        return IllegalAction("not_your_turn", f"{action.entity} cannot act now: {current} is operating")
    return None


def tiles_in_use(game: Game) -> dict[str, str]:
    return {tile_id: hex_id for hex_id, tile_id in game.s.tile_at.items()}
