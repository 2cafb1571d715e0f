"""Random 1830 games written as 18xx.games logs replay to their own scores (issue 25 item 3).

``route18xx generate-logs --title 1830`` plays games with the engine's random players
(``engine/game/agent.py``) and writes them with ``engine.game.playout``; the replay of
each log must read every action back, keep the invariants after every one and reach
the same end (1830 RULES.md §11: bankruptcy at once, or the bank broken at the end of
the OR set) and the same final scores. The cheap default games are short "stingy"
ones that end in bankruptcy; ``ROUTE18XX_PLAYOUTS_1830=N`` adds N more seeds (longer
games, most ending with the bank, every rule set in turn).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.game import Game
from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.playout import log_options, play_and_log
from route18xx.engine.replay.replay import replay, rule_set_of
from route18xx.server.cli import main

pytest.importorskip("ortools")

RULE_SETS = ("standard", "multiple_brown_from_ipo", "optional_6_train",
             "multiple_brown_from_ipo+optional_6_train")

#: (seed, players, stingy, rule set): cheap games (about 2 s of CPU each, both bankruptcies)
#: that hold the rare actions between them (``test_the_cheap_games_hold_the_rare_actions``).
CHEAP = [(3, 2, True, "standard"), (7, 3, True, "standard")]
#: Seeds whose game has a corporation use the DH teleport, tile and token (RULES.md §7.3).
TELEPORTS = {3}
#: Longer games (7-20 s of CPU each), most ending with the bank broken, then 2-6 players,
#: one in three stingy, every rule set: the first N of these when asked.
MORE = [(12, 2, True, "optional_6_train"), (12, 2, True, "multiple_brown_from_ipo"),
        (5, 4, False, "standard"), (4, 5, False, "optional_6_train")] + [
        (100 + k, 2 + k % 5, k % 3 == 2, RULE_SETS[k % 4]) for k in range(100)]
MORE = MORE[: int(os.environ.get("ROUTE18XX_PLAYOUTS_1830", "0"))]


@cache
def _played(seed: int, players: int, stingy: bool, rule_set: str) -> tuple[Game, dict[str, Any]]:
    return play_and_log(seed, players, stingy, rule_set, title="1830")


def _kind(action: dict[str, Any]) -> str:
    """The rare action forms a generated log should hold (1830 RULES.md §5.9, §6.9, §6.12, §7)."""
    kind = str(action["type"])
    if kind == "buy_shares" and action["entity_type"] == "company":
        return "MH exchange"
    if kind == "buy_company":
        return "private from a player" if action["entity_type"] == "player" else "private to a corporation"
    if action.get("entity") == "DH":
        return "DH " + kind
    return kind


def test_the_cheap_games_hold_the_rare_actions() -> None:
    kinds = {_kind(a) for seed in CHEAP for a in _played(*seed)[1]["actions"]}
    assert {"MH exchange", "private from a player", "private to a corporation", "DH lay_tile",
            "DH place_token", "bankrupt", "sell_shares", "discard_train"} <= kinds


@pytest.mark.parametrize("seed, players, stingy, rule_set", CHEAP + MORE)
def test_a_random_1830_game_replays_to_its_own_scores(
    seed: int, players: int, stingy: bool, rule_set: str
) -> None:
    game, log = _played(seed, players, stingy, rule_set)
    assert game.finished and game.state.end_reason in ("bank", "bankrupt")
    if game.state.end_reason == "bankrupt":
        assert sum(p.bankrupt for p in game.players) == 1  # 1830 RULES.md §6.12: ends at once
    else:
        assert game.state.bank.broken
    assert log["title"] == "1830"
    if seed in TELEPORTS:
        dh = [(a["type"], a.get("hex")) for a in log["actions"] if a.get("entity") == "DH"]
        assert dh[:2] == [("lay_tile", "F16"), ("place_token", None)], dh
    problems: list[tuple[Any, list[str]]] = []

    def hook(g: Any, action: Any) -> None:
        found = check_after(g, action)
        if found:
            problems.append((action.id, found))

    result = replay(log, after_action=hook)
    assert result.errors == []
    assert result.title == "1830" and result.rule_set == rule_set
    assert result.completed and result.game.finished
    assert result.game.state.end_reason == game.state.end_reason
    assert result.recorded_result == {k: int(v) for k, v in log["result"].items()}
    assert result.final_scores == result.recorded_result
    assert problems == []


def test_generate_logs_takes_the_title_and_its_rule_sets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``route18xx generate-logs --title 1830``: a log ``route18xx replay`` reads back to
    its own scores; an unknown title or a rule set of another title is exit 2 naming it."""
    assert main(["generate-logs", "1", "--seed", "3", "--title", "1830", "-o", str(tmp_path),
                 "--jobs", "1"]) == 0
    assert "1 logs" in capsys.readouterr().out
    log = json.loads((tmp_path / "random-3.json").read_text("utf-8"))
    assert log["title"] == "1830" and log["settings"]["optional_rules"] == []
    assert main(["replay", str(tmp_path / "random-3.json"), "--json", "--no-solve"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "1830" and report["scores_match"] and report["errors"] == []
    assert main(["generate-logs", "1", "--title", "1831", "-o", str(tmp_path)]) == 2
    assert "--title: unknown title '1831'" in capsys.readouterr().err
    assert main(["generate-logs", "1", "--title", "1830", "--rule-set", "north",
                 "-o", str(tmp_path)]) == 2
    assert "--rule-set: 1830 has no rule set 'north'" in capsys.readouterr().err
    assert main(["generate-logs", "1", "--title", "1888", "--rule-set", "standard",
                 "-o", str(tmp_path)]) == 2
    assert "--rule-set: 1888 has no rule set 'standard'" in capsys.readouterr().err


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_a_log_names_the_optional_rules_of_its_rule_set(rule_set: str) -> None:
    """The log's ``optional_rules`` choose the rule set again (1830 data/README.md)."""
    game = Game(rule_set, [1, 2, 3], title="1830")
    options = log_options(game)
    assert rule_set_of({"title": "1830", "settings": {"optional_rules": options}}).name == rule_set
    assert options == ([] if rule_set == "standard" else rule_set.split("+"))
