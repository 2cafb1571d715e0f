"""1889 whole-log replays (issue 36 item 3): the four 18xx.games 1889 fixture logs
(``tests/data/1889/``, copied from the site's ``public/fixtures/1889/``) replay to their
recorded ``result``; every recorded run is judged, at the revenue the site's engine gave
it (the golden verdicts, ``tests/data/golden/1889/``); the state at the start and at every
round end equals the 18xx.games engine's own figures (``fixture_checkpoints.json``, written
by ``tools/titles/generate.py`` from the site's engine, not from ours).

What 1889 adds to 1830's game: the privates seated by player count (the UTF from four
players), the Ehime Railway's lay by its seller at its sale, the Mitsubishi Ferry's lay by
its owning player (whose corporation's track step then waits for a pass), a stock turn
that sells before or after its purchase but not both, and each corporation's shares sold
in one block a turn. 314 is a 2020 log whose routes name their hexes only
(``engine.game.routing._with_connections``).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.invariants import check_after
from route18xx.engine.replay.replay import ReplayResult, kept_actions, replay
from tests.game.test_replay import _expected, _snapshot

DATA = Path(__file__).resolve().parent.parent / "data" / "1889"
LOGS = ("314", "962", "hs_jmmljkbw_17502", "hs_lhglbbiz_17502")
#: run_routes kept after undo.
RUNS = {"314": 32, "962": 48, "hs_jmmljkbw_17502": 0, "hs_lhglbbiz_17502": 0}
#: How each game ended (the log's ``game_end_reason``).
END = {"314": "bankrupt", "962": "bank", "hs_jmmljkbw_17502": "manually_ended",
       "hs_lhglbbiz_17502": "manually_ended"}
#: Recorded runs the judge refuses, with the reason: 314 #367, IR's 3-train through
#: Marugame (I2), which SR's and AR's tokens fill: the site of 2020-05 did not check a
#: full city, and the site today pays the legacy route's revenue unchecked (its hexes
#: alone, ``Route`` override). Every reading of its hexes earning the recorded ¥180
#: (I4 80 + K4 60 + I2 40) runs through I2.
REFUSED = {("314", 367): "Marugame is full of other companies' tokens and can only end a route"}


def _file(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return path


@cache
def _log(name: str) -> Any:
    return json.loads(_file(f"{name}.json").read_text("utf-8"))


@cache
def _checkpoints(name: str) -> Any:
    return json.loads(_file("fixture_checkpoints.json").read_text("utf-8"))[name]


@cache
def _replayed(name: str) -> tuple[ReplayResult, list[dict[str, Any]]]:
    """The replay and our snapshot at the start and at every round change."""
    mine: list[dict[str, Any]] = []

    def on_round(game: Any) -> None:
        mine.append(_snapshot(game))

    def arm(game: Any, action: Any) -> None:
        if not mine:
            mine.append(_snapshot(game))  # the checkpoints start with the fresh game
        if on_round not in game.on_new_round:
            game.on_new_round.append(on_round)

    result = replay(_log(name), before_action=arm)
    mine.append(_snapshot(result.game))
    return result, mine


@cache
def _golden_runs(name: str) -> dict[int, Any]:
    """The 18xx.games engine's record of each kept run of the log (the golden verdicts,
    ``tests/data/golden/1889/verdicts.json.gz``, tools/titles/golden.py)."""
    path = DATA.parent / "golden" / "1889" / "verdicts.json.gz"
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    data = json.loads(gzip.decompress(path.read_bytes()))
    return {r["action_id"]: r for f in data["fixtures"] if f["fixture"] == name for r in f["runs"]}


def _engine_revenues(name: str) -> dict[int, int]:
    """The revenue the site's engine gave each kept run (962's routes record none)."""
    return {aid: run["recorded"]["revenue"] for aid, run in _golden_runs(name).items()}


@pytest.mark.parametrize("name", LOGS)
def test_final_scores_equal_the_recorded_result(name: str) -> None:
    result, _ = _replayed(name)
    assert result.completed and result.game.finished
    assert result.title == "1889" and result.rule_set == "standard"
    assert result.game.state.end_reason == _log(name)["game_end_reason"] == END[name]
    assert result.recorded_result == {k: int(v) for k, v in _log(name)["result"].items()}
    assert result.final_scores == result.recorded_result


@pytest.mark.parametrize("name", LOGS)
def test_every_run_is_judged_and_priced_as_recorded(name: str) -> None:
    result, _ = _replayed(name)
    assert len(result.runs) == RUNS[name]
    recorded = _engine_revenues(name)
    assert sorted(recorded) == sorted(a["id"] for a in kept_actions(_log(name)) if a["type"] == "run_routes")
    refused = []
    for run in result.runs:
        check = run.check
        assert check.recorded_revenue == recorded[check.action_id]
        if (name, check.action_id) in REFUSED:
            refused.append(check.action_id)
            assert not check.legal
            assert any(REFUSED[name, check.action_id] in v for v in check.judgement.violations)
            continue
        assert check.legal, (check.action_id, check.judgement.violations)
        assert check.engine_revenue == check.recorded_revenue, check.action_id
    assert refused == [a for n, a in REFUSED if n == name]
    assert [e for e in result.errors if "illegal routes" not in e] == []


@pytest.mark.parametrize("name", LOGS)
def test_every_round_matches_the_engine_checkpoints(name: str) -> None:
    """Start and every round end equal the 18xx.games engine's (fixture_checkpoints.json)."""
    expected = _checkpoints(name)["snapshots"]
    _, mine = _replayed(name)
    assert len(mine) == len(expected)
    for got, want in zip(mine, expected, strict=True):
        assert got == _expected(want), want["label"]


@pytest.mark.parametrize("name", LOGS)
def test_invariants_hold_after_every_action(name: str) -> None:
    problems: list[tuple[Any, list[str]]] = []

    def hook(game: Any, action: Any) -> None:
        found = check_after(game, action)
        if found:
            problems.append((action.id, found))

    assert replay(_log(name), after_action=hook).scores_match
    assert problems == []


def test_each_run_of_2020_is_read_as_the_site_judged_it() -> None:
    """314's routes name their hexes alone; our replay's reading of each is the one the
    site's engine judged (golden.py ``legacy_readings``): 31 accepted at their recorded
    revenue, #367 refused (``REFUSED``)."""
    result, _ = _replayed("314")
    golden = _golden_runs("314")
    for run in result.runs:
        reading = golden[run.check.action_id]["recorded_reading"]
        assert [{"train": r.train, "connections": [list(c) for c in r.connections]}
                for r in run.check.routes] == reading["routes"], run.check.action_id
        assert reading["verdict"]["accepted"] == (("314", run.check.action_id) not in REFUSED)
