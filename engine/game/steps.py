"""Rounds as ordered steps (STYLE.md §3, ACTIONS.md §3).

A round is an ordered list of steps. An action goes to the first step that is
active and either accepts the action for its entity or is blocking (a blocking
step that does not accept it makes the action illegal). After every action the
round skips, in order, each active blocking-capable step that has nothing to
ask, until one is waiting; when none is, the turn passes on. Skipping has
effects in some steps (a dividend step withholds nothing and the price drops).

Steps keep no reference to the game: every call receives it, so a round is
plain data that a snapshot can copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Entity

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game

NO_ACTIONS: frozenset[str] = frozenset()


class Step:
    """One step of a round. Subclasses say which actions they take and process them."""

    name = "step"
    #: Can the step hold up the turn? (Non-blocking steps are offered alongside.)
    can_block = True
    #: Action types this step deals with, for explaining a refusal (``why_not``).
    handles: frozenset[str] = frozenset()
    #: Explain refusals even while an earlier step is waiting (steps outside the turn order).
    explains_ahead = False

    def __init__(self) -> None:
        self.passed = False

    def setup(self, game: Game) -> None:
        """Called at the start of every turn (18xx.games ``Step#setup``)."""

    def active(self, game: Game) -> bool:
        return not self.passed

    def blocks(self, game: Game) -> bool:
        return self.can_block

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        return NO_ACTIONS

    def current_entity(self, game: Game) -> Entity | None:
        return game.round.current_entity(game)

    def blocking(self, game: Game) -> bool:
        if not self.blocks(game):
            return False
        entity = self.current_entity(game)
        return entity is not None and bool(self.actions(game, entity))

    def skip(self, game: Game) -> None:
        """Nothing to ask: the step is over for this turn."""
        self.passed = True

    def accepts(self, game: Game, action: Action) -> bool:
        """Does this step take ``action`` now? (Routing, ACTIONS.md §3.)"""
        return action.type in self.actions(game, action.entity)

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        """A precise reason why ``action`` (of a type this step handles) is refused now."""
        return None

    def process(self, game: Game, action: Action) -> None:
        raise IllegalAction("unsupported", f"{self.name} cannot process {action.type}")


class Round:
    """A round: its steps in order, whose turn it is, and when it is over."""

    kind = "round"

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)

    # -- turn bookkeeping (overridden) ---------------------------------------

    def current_entity(self, game: Game) -> Entity | None:
        return None

    def finished(self, game: Game) -> bool:
        return False

    def setup(self, game: Game) -> None:
        """Called once when the round starts."""

    def after_process(self, game: Game, action: Action) -> None:
        """Advance the turn when no step is waiting any more."""

    # -- step machinery --------------------------------------------------------

    def step_for(self, game: Game, action: Action) -> Step:
        """The step that receives ``action`` (ACTIONS.md §3); raises IllegalAction if none."""
        for step in self.steps:
            if not step.active(game):
                continue
            if step.accepts(game, action):
                return step
            if step.blocking(game):
                raise self.refusal(game, action, step)
        raise self.refusal(game, action, None)

    def refusal(self, game: Game, action: Action, waiting: Step | None) -> IllegalAction:
        """The most precise reason for refusing ``action``."""
        order = {id(step): i for i, step in enumerate(self.steps)}
        for step in self.steps:
            if action.type not in step.handles:
                continue
            ahead = waiting is not None and order[id(step)] > order[id(waiting)]
            if ahead and not step.explains_ahead:
                continue  # that step is still to come: the waiting one must act first
            reason = step.why_not(game, action)
            if reason is not None:
                return reason
        who = describe(game, action.entity)
        if waiting is not None:
            entity = waiting.current_entity(game)
            options = ", ".join(sorted(waiting.actions(game, entity))) if entity is not None else ""
            return IllegalAction(
                "wrong_step",
                f"{who} cannot {action.type} now: {describe(game, entity)} must first act in the "
                f"{waiting.name} step ({options})",
            )
        return IllegalAction("not_available", f"{who} cannot {action.type} now")

    def process(self, game: Game, action: Action) -> None:
        step = self.step_for(game, action)
        step.process(game, action)
        self.skip_steps(game)
        self.after_process(game, action)

    def skip_steps(self, game: Game) -> None:
        for step in self.steps:
            if not step.active(game) or not step.blocks(game):
                continue
            if step.blocking(game):
                break
            step.skip(game)

    def active_step(self, game: Game) -> Step | None:
        for step in self.steps:
            if step.active(game) and step.blocking(game):
                return step
        return None

    def reset_steps(self, game: Game) -> None:
        for step in self.steps:
            step.passed = False
            step.setup(game)

    def waiting_for(self, game: Game) -> dict[str, Any]:
        """Who must act and what they may do (for messages and tools)."""
        step = self.active_step(game)
        if step is None:
            return {}
        entity = step.current_entity(game)
        return {
            "step": step.name,
            "entity": entity,
            "actions": sorted(step.actions(game, entity)) if entity is not None else [],
        }


def describe(game: Game, entity: Entity | None) -> str:
    """A readable name: the player's name, or the corporation / private symbol."""
    if entity is None:
        return "nobody"
    if isinstance(entity, int):
        player = game.player_or_none(entity)
        return player.name if player else f"player {entity}"
    return str(entity)
