"""A bankrupt president keeps the bankrupt corporation's presidency (1888 RULES.md §6.10 #4,
#6): he sells every share he can, but not the certificate that would hand the company he
could not save to someone else, and it is scored at market value.

Found by replaying the generated games in the 18xx.games engine (111f7f69, development
time; issue 33): in random-4211 player 105 goes bankrupt as TJL's president and ends with
TJL's 20 % president's certificate and LYR's 10 %, scored 265 there; the engine had sold
the certificate into the pool and scored 95. The three generated games that end in a
bankruptcy (4211, 4235, 4243) now score as 18xx.games scores them.
"""

from __future__ import annotations

import gzip
import json

from route18xx.engine.replay.replay import replay
from tests.conftest import STATES_DIR

GENERATED = STATES_DIR.parent / "generated"


def test_the_bankrupt_president_keeps_the_presidency_and_its_value() -> None:
    log = json.loads(gzip.decompress((GENERATED / "random-4211.json.gz").read_bytes()))
    result = replay(log)
    game = result.game
    assert result.scores_match and not result.errors
    (bankrupt,) = [p for p in game.players if p.bankrupt]
    tjl = game.corporations["TJL"]
    assert tjl.president == bankrupt.id
    assert tjl.shares.percent_of(bankrupt.id) == 20
    assert result.final_scores[str(bankrupt.id)] == 265  # 18xx.games: 20 % TJL at 85 + LYR 95
