"""``route18xx replay --turns`` (issue 24): each turn beside the best whole-turn plan,
as text and as the ``turns`` object of ``--json`` (exactly ``engine.api.compare_turns``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.server.cli import main
from tests.conftest import LOGS_DIR


@pytest.fixture(scope="module")
def short_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bankrupt log's first two operating rounds (its first six runs): a log that
    ends partway replays without error and keeps the compare cheap."""
    log: dict[str, Any] = json.loads((LOGS_DIR / "1888_game_end_bankrupt.json").read_text("utf-8"))
    log["actions"] = [a for a in log["actions"] if a.get("id", 0) <= 100]
    log.pop("result", None)
    log["status"] = "active"
    path = tmp_path_factory.mktemp("turns") / "short.json"
    path.write_text(json.dumps(log), "utf-8")
    return path


def test_replay_turns_json_is_the_engines_comparison(short_log: Path, capsys: Any) -> None:
    assert main(["replay", str(short_log), "--turns", "--no-solve", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = api.compare_turns(json.loads(short_log.read_text("utf-8"))).to_json()
    assert printed["turns"] == expected
    assert [t["action_id"] for t in printed["turns"]["turns"]] == \
        [r["action_id"] for r in printed["run_routes"]] == [59, 64, 70, 84, 89, 94]
    assert "turns" not in json.loads(_replay(short_log, capsys, "--json"))


def _replay(path: Path, capsys: Any, *args: str) -> str:
    assert main(["replay", str(path), "--no-solve", *args]) == 0
    return str(capsys.readouterr().out)


def test_replay_turns_text(short_log: Path, capsys: Any) -> None:
    text = _replay(short_log, capsys, "--turns")
    assert "turns (total): 6 compared; income left by lay/token choices 0, by routes 0" in text
    # HJR's OR 2.1 turn (run 64): the player upgraded E5 to a 5, ran for ¥40 and bought a 2
    line = next(l for l in text.splitlines() if l.strip().startswith("64 "))
    assert "HJR" in line and "did 5@E5/4" in line and "earned 40" in line
    assert "bought 2 (¥80)" in line


@pytest.mark.parametrize("args,field", [
    (["--turn-time-limit", "0"], "--turn-time-limit"),
    (["--turn-time-limit", "nan"], "--turn-time-limit"),
])
def test_bad_options_exit_2(short_log: Path, capsys: Any, args: list[str], field: str) -> None:
    assert main(["replay", str(short_log), "--turns", *args]) == 2
    assert capsys.readouterr().err.startswith(f"error: {field}: ")


LOG_1830 = LOGS_DIR.parent / "1830" / "29133.json"


def test_1830_turn_and_replay_texts_are_in_dollars(capsys: Any) -> None:
    """Issue 25: prices and amounts in 1830's money. B&O's turn of action 425 (29133,
    phase 6, trains 4 and 6): a D costs $1100, or $800 with a 4, 5 or 6 traded in
    (1830 RULES.md §14)."""
    assert main(["suggest", "--turn", "--game", str(LOG_1830), "--action", "425", "--top", "1"]) == 0
    text = capsys.readouterr().out
    assert "(trade in 4, $800" in text and "(trade in 6, $800" in text and "¥" not in text
    assert main(["replay", str(LOG_1830)]) == 0
    text = capsys.readouterr().out
    assert "left on table:   $0 in 0 runs (dividend lost $0, treasury lost $0)" in text
