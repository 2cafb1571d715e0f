"""Whole random north games written as 18xx.games logs and replayed (ACTIONS.md §2, §4).

The random players of ``engine/game/agent.py`` play a game and
``engine.game.playout`` writes every accepted action in the log format (the fields
ACTIONS.md §4 documents:
``share_price`` ids, ``variant``, ``tokener``, ``extra_revenue``/``subsidy``,
private-company entities for special lays) with increasing, non-contiguous
ids, plus entries the held-back log has and the shared ones barely do: a
``program_disable`` after every stock-round purchase, and a redo-ed undo and an
``undo`` back to the latest id (both no-ops) after every private purchase.
``engine.replay.replay`` must read it all and reach the same final scores.
"""

from __future__ import annotations

import pytest

from route18xx.engine.game.playout import play_and_log
from route18xx.engine.replay.replay import replay

pytest.importorskip("ortools")


@pytest.mark.parametrize("seed, players, stingy", [(7, 4, False), (11, 5, False), (4, 3, True)])
def test_a_logged_random_game_replays_to_its_scores(seed: int, players: int, stingy: bool) -> None:
    game, log = play_and_log(seed, players, stingy, "north", "1888")
    kinds = {a["type"] for a in log["actions"]}
    assert {"lay_tile", "run_routes", "buy_train", "program_disable"} <= kinds
    result = replay(log)
    assert result.errors == []
    assert result.completed and result.game.finished
    assert result.scores_match
    assert result.game.state.end_reason == game.state.end_reason
