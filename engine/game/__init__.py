"""The full 1888 rules engine: a game is the replay of its actions (DESIGN.md §2).

Public API:

* ``Game(rule_set, players)`` — a new game (``"north"`` or ``"prototype"``,
  players as ``(id, name)`` pairs in seating order). ``game.process(action)``
  applies an action with its auto-actions, or raises ``IllegalAction`` (a move
  the rules forbid; ``code`` says which rule) or ``MalformedInput`` (not a
  1888 action) and leaves the game exactly as it was. ``game.waiting_for()``
  says who must act and what they may do; ``game.scores()`` gives the scores.
* ``engine.game.actions`` — the immutable actions and ``parse_action`` for
  18xx.games log entries.
* ``engine.game.summary.summary(game)`` — the state as plain data.
* ``engine.game.invariants.check(game)`` — money conserved, shares 100 %, limits.

The parts the game delegates to: ``bank``, ``market``, ``shares``,
``corporations``, ``companies``, ``players``, ``depot`` and ``trains`` (phases,
rusting, export), ``track`` and ``tokens`` (legality from ``engine.tile_lay``
and ``engine.token_place``), ``stock`` (buying, selling, presidency), ``payout``,
``emergency`` (train purchases, forced trains, bankruptcy), ``privates``; the
rounds ``auction``, ``stock_round`` and ``operating_round`` with their steps
(``steps``, ``special_track``, ``or_steps``, ``or_purchases``, ``discard``);
``scoring``. Log replay is ``engine.replay``.
"""

from __future__ import annotations

from route18xx.engine.game.actions import Action, parse_action
from route18xx.engine.game.game import Game

__all__ = ["Action", "Game", "parse_action"]
