"""Whole games played by random players (``engine/game/agent.py``): the invariants hold
after every action and every game reaches an end by the rules (RULES.md §11).

The "stingy" players pay out everything and buy only the cheapest train, which
drives corporations into forced purchases, emergency sales and bankruptcy.
"""

from __future__ import annotations

import pytest

from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.agent import RandomAgent

pytest.importorskip("ortools")


@pytest.mark.parametrize(
    "rule_set, players, seed, stingy, end",
    [
        ("north", 5, 2, True, "bankrupt"),
        ("prototype", 4, 17, True, "bankrupt"),
        ("north", 3, 20, True, "bank"),
        pytest.param("prototype", 6, 3, False, "bank", marks=pytest.mark.slow),
    ],
)
def test_random_game_keeps_the_invariants_and_ends(
    rule_set: str, players: int, seed: int, stingy: bool, end: str
) -> None:
    game = Game(rule_set, [(i + 1, f"P{i + 1}") for i in range(players)], title="1888")
    agent = RandomAgent(game, seed, stingy=stingy)
    for _ in range(4000):
        action = agent.step()
        assert check_after(game, action) == [], action
        if game.finished:
            break
    assert game.finished, game.waiting_for()
    assert game.state.end_reason == end
    if end == "bankrupt":
        assert any(p.bankrupt for p in game.players)
