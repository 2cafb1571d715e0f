"""1830's setup by player count (1830 RULES.md §1, §2.1, §2.2): 2-6 players; the bank's
$12,000 pays each player's starting cash; certificate limits 28/20/16/13/11."""

from __future__ import annotations

import pytest

from route18xx.engine.errors import MalformedInput
from route18xx.engine.game.game import Game

#: players → (cash each, certificate limit), RULES.md §2.2
TABLE = {2: (1200, 28), 3: (800, 20), 4: (600, 16), 5: (480, 13), 6: (400, 11)}


@pytest.mark.parametrize("rule_set", ["standard", "multiple_brown_from_ipo+optional_6_train"])
@pytest.mark.parametrize("players", sorted(TABLE))
def test_cash_and_certificate_limit_by_player_count(players: int, rule_set: str) -> None:
    game = Game(rule_set, list(range(1, players + 1)), title="1830")
    cash, limit = TABLE[players]
    assert [p.cash for p in game.players] == [cash] * players
    assert game.cert_limit == limit
    assert game.bank.cash == 12000 - cash * players
    assert game.total_money() == 12000


@pytest.mark.parametrize("players", [1, 7])
def test_one_or_seven_players_are_refused(players: int) -> None:
    with pytest.raises(MalformedInput) as refused:
        Game("standard", list(range(1, players + 1)), title="1830")
    assert refused.value.field == "players"


def test_the_optional_6_train_adds_a_third_6() -> None:
    sixes = {rs: [t for t in Game(rs, [1, 2], title="1830").depot.upcoming if t.startswith("6-")]
             for rs in ("standard", "optional_6_train")}
    assert sixes == {"standard": ["6-0", "6-1"], "optional_6_train": ["6-0", "6-1", "6-2"]}
