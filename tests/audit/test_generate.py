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
    """The committed games are the generator's: playing a seed again gives the same bytes."""
    first = generated[which]
    seed = int(first.stem.split("-")[1])
    assert main(["generate-logs", "1", "--seed", str(seed), "-o", str(tmp_path), "--jobs", "1"]) == 0
    assert "1 logs" in capsys.readouterr().out
    assert (tmp_path / first.name).read_bytes() == first.read_bytes()
    before = (tmp_path / first.name).stat().st_mtime_ns
    assert generate_logs(1, seed, tmp_path) == [str(tmp_path / first.name)]
    assert (tmp_path / first.name).stat().st_mtime_ns == before
