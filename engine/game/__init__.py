"""The full 1888 rules engine: a game is the replay of its actions (DESIGN.md §2).

``Game(rule_set, players)`` and ``Game.process(action)``; actions are the
immutable values of ``engine.game.actions``.
"""

from __future__ import annotations

from engine.game.actions import Action, parse_action
from engine.game.game import Game

__all__ = ["Action", "Game", "parse_action"]
