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


@pytest.mark.parametrize("seed", [1, 6, 7])
def test_the_ferrys_port_laid_in_phase_2_reads_back(seed: int) -> None:
    """Random 3-player games whose Mitsubishi Ferry owner lays the port 437 in phase 2 (a
    player's lay: players hold privates from the start) read back before their first run,
    and the player's lay is not one of the operating corporation's ``tiles_laid``. Before,
    the board was refused (``tile 437 … corporations may own privates from phase 3``)."""
    from route18xx.engine import api

    log = api.random_game_log(seed, 3, rule_set="standard", title="1889", until_first_run=True)
    assert log is not None
    ferry = [a for a in log["actions"] if a.get("type") == "lay_tile" and a.get("tile", "").startswith("437")]
    assert ferry and all(a.get("entity") == "MF" for a in ferry)
    run = next(a for a in reversed(log["actions"]) if a.get("type") == "run_routes")
    state = api.state_from_log(log, run["id"], turn_facts=True)
    assert any(placed.tile.name == "437" for placed in state.board.placed.values())
    assert all(private != "MF" for _, private in state.tiles_laid)
