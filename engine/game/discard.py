"""Discarding trains over the limit (RULES.md §6.11).

When a phase change lowers the train limit, each corporation above it gives
trains of its president's choice to the depot's discard pile before anything
else goes on — in an OR right after the triggering purchase, in a stock round
at its start (after an export-triggered phase change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, DiscardTrain, Entity
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.trains import discard

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


class DiscardTrainStep(Step):
    name = "discard train"
    handles = frozenset({"discard_train"})
    explains_ahead = True

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return IllegalAction("not_crowded", f"{action.entity} is not over the train limit and cannot discard")

    def active(self, game: Game) -> bool:
        return bool(game.crowded_corporations())

    def current_entity(self, game: Game) -> Entity | None:
        crowded = game.crowded_corporations()
        return crowded[0].sym if crowded else None

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        """Every crowded corporation may discard; their order does not change the outcome."""
        if any(c.sym == entity for c in game.crowded_corporations()):
            return frozenset({"discard_train"})
        return NO_ACTIONS

    def skip(self, game: Game) -> None:
        """Never skipped: the step is simply inactive once nobody is over the limit."""

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, DiscardTrain):
            raise IllegalAction("unsupported", f"only discard_train, not {action.type}")
        corp = game.corporation(action.entity)
        if action.train not in corp.trains:
            raise IllegalAction("not_owner", f"{corp.sym} does not own train {action.train}")
        discard(game, corp, action.train)
