"""``route18xx generate-logs`` (issue 15): random legal games that replay to their scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from route18xx.server.audit.generate import generate_logs
from route18xx.server.cli import main

pytest.importorskip("ortools")


def test_generated_logs_replay_to_their_own_scores(
    generated: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert generated
    for path in generated:
        assert main(["replay", str(path), "--json", "--no-solve"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["scores_match"] and report["errors"] == [], path
        assert report["run_routes"], path


@pytest.mark.parametrize("which", [0, -1], ids=["first", "last"])
def test_the_corpus_is_a_cache_and_the_same_seed_gives_the_same_game(
    generated: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], which: int
) -> None:
    """The committed games are the generator's: playing a seed again gives the same game.

    The same bytes, but for which of several equally good routes a run_routes
    records (the solver's choice among ties): every other action, each run's
    total and the final result are the same.
    """
    first = generated[which]
    seed = int(first.stem.split("-")[1])
    assert main(["generate-logs", "1", "--seed", str(seed), "--title", "1888", "-o", str(tmp_path),
                 "--jobs", "1"]) == 0
    assert "1 logs" in capsys.readouterr().out
    assert _flow(tmp_path / first.name) == _flow(first)
    before = (tmp_path / first.name).stat().st_mtime_ns
    assert generate_logs(1, seed, tmp_path, 1, "north", "1888") == [str(tmp_path / first.name)]
    assert (tmp_path / first.name).stat().st_mtime_ns == before


def _flow(path: Path) -> dict[str, object]:
    """A game log without the route choices of its runs (kept: each run's totals)."""
    log = json.loads(path.read_text("utf-8"))
    actions = []
    for action in log["actions"]:
        if action.get("type") == "run_routes":
            routes = action.pop("routes")
            action["totals"] = (sum(r["revenue"] for r in routes), sum(r["subsidy"] for r in routes))
        actions.append(action)
    return {**log, "actions": actions}
