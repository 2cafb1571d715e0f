"""1889's beginner game (rule set ``beginner_game``; g_1889/game.rb ``setup``, ``init_round``):
the privates its player count seats are dealt by the game's seed, one to each player at
face value, and the game opens with a stock round (``engine.game.deal``). The expected
deals are the 18xx.games engine's own (``tests/data/1889/beginner_setups.json``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.errors import MalformedInput
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import replay

SETUPS = Path(__file__).resolve().parent.parent / "data" / "1889" / "beginner_setups.json"


def _setups() -> dict[str, Any]:
    if not SETUPS.exists():
        pytest.fail(f"test data {SETUPS} is missing (see tests/data/README.md)")
    return json.loads(SETUPS.read_text("utf-8"))["setups"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("key", sorted(_setups()))
def test_the_deal_is_the_sites(key: str) -> None:
    players, seed = (int(x) for x in key.split("-"))
    want = _setups()[key]
    log = {"id": f"b{seed}", "title": "1889", "settings": {"seed": seed, "optional_rules": ["beginner_game"]},
           "players": [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(players)], "actions": []}
    game = replay(log).game
    assert game.round.kind == "stock" and want["round"] == "Engine::Round::Stock"
    got = [[p.name, sorted(c.sym for c in game.companies.values() if c.owner == p.id), p.cash]
           for p in game.players]
    assert got == [[name, sorted(syms), cash] for name, syms, cash in want["companies"]]
    assert game.bank.cash == want["bank"]


def test_a_dealt_game_needs_its_seed() -> None:
    with pytest.raises(MalformedInput, match="seed"):
        Game("beginner_game", [1, 2, 3], title="1889")


def test_the_dealt_privates_cannot_be_sold() -> None:
    """The beginner's privates carry ``no_buy`` (g_1889 ``neuter_company``)."""
    game = Game("beginner_game", [1, 2, 3, 4], title="1889", seed=12345)
    assert all(c.ability("no_buy") is not None for c in game.companies.values())
    assert sorted(game.companies) == ["DR", "ER", "SIR", "SMR"]
