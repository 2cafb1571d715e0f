"""Random 1889 games, as the engine's random players play them (``engine/game/agent.py``,
``engine.game.playout``), replay to the final scores the 18xx.games engine gives the same
logs (issue 36 item 3): a beginner game of three (privates dealt by the seed) and a
standard game of two (no South Iyo Railway, no Uno-Takamatsu Ferry). The site's scores are
in ``tests/data/1889/playouts/site_results.json`` (its engine loading each log), not ours.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.invariants import check_after
from route18xx.engine.replay.replay import replay

DATA = Path(__file__).resolve().parent.parent / "data" / "1889" / "playouts"


def _site() -> dict[str, Any]:
    path = DATA / "site_results.json"
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return json.loads(path.read_text("utf-8"))["games"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(_site()))
def test_a_random_game_replays_to_the_sites_scores(name: str) -> None:
    log = json.loads((DATA / f"{name}.json").read_text("utf-8"))
    problems: list[Any] = []
    result = replay(log, after_action=lambda g, a: problems.extend(check_after(g, a)))
    assert result.errors == [] and result.completed and result.game.finished
    assert result.rule_set == name.split("-")[0]
    assert {str(k): v for k, v in result.final_scores.items()} == _site()[name]["site_result"]
    assert problems == []
