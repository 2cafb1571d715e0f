"""1889's Uno-Takamatsu Ferry in the game's private rules (g_1889/entities.rb; issue 36):
its ``revenue_change`` pays ¥50 instead of ¥30 from phase 5 while a player owns it, and its
``close`` ability (``on_phase: never``, owner type player) keeps it open when the first
5-train closes every other private. The rules are read here on the companies alone, with
the phase as a game would hold it (whole games: tests/game/test_replay_1889.py, 962).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.game.companies import Company
from route18xx.engine.game.privates import close_all, private_income


def _game(phase: str, companies: dict[str, Company]) -> SimpleNamespace:
    data = game_data("1889")
    index = [p.name for p in data.phases].index(phase)
    return SimpleNamespace(data=data, state=SimpleNamespace(phase_index=index), companies=companies)


def _company(sym: str, owner: int | str) -> Company:
    (found,) = [c for c in game_data("1889").companies["standard"] if c.sym == sym]
    return Company(found, owner=owner)


@pytest.mark.parametrize("phase, owner, income", [
    ("4", 1, 30), ("5", 1, 50), ("D", 1, 50),   # a player's: ¥50 from phase 5
    ("5", "AR", 30),                            # a corporation's keeps its ¥30
])
def test_the_ferrys_income_changes_in_phase_5_for_a_player(phase: str, owner: int | str, income: int) -> None:
    utf = _company("UTF", owner)
    assert private_income(_game(phase, {"UTF": utf}), utf) == income  # type: ignore[arg-type]
    sir = _company("SIR", owner)
    assert private_income(_game(phase, {"SIR": sir}), sir) == 20  # type: ignore[arg-type]


def test_the_first_5_train_closes_every_private_but_a_players_ferry() -> None:
    held = {"UTF": _company("UTF", 1), "SIR": _company("SIR", 2), "TR": _company("TR", "AR")}
    close_all(_game("5", held))  # type: ignore[arg-type]
    assert {s: c.closed for s, c in held.items()} == {"UTF": False, "SIR": True, "TR": True}
    corporate = {"UTF": _company("UTF", "AR")}
    close_all(_game("5", corporate))  # type: ignore[arg-type]
    assert corporate["UTF"].closed
