"""Each turn of a log beside the best whole-turn plan (issue 24, honest comparisons).

What the player did is checked against the log's own actions, read here from
the raw JSON (the turn's ``lay_tile``/``place_token`` before its ``run_routes``,
its ``buy_train`` after); the incomes against independent calls: the optimum on
the player's board is ``solve_routes`` just before the run, the best plan is
``suggest_turn`` at the turn's start, and a hand-read best plan is laid on the
board by hand and solved.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import lru_cache
from typing import Any

from route18xx.engine import api
from route18xx.engine.answer.optimize import optimize
from tests.conftest import LOGS_DIR


@lru_cache(maxsize=None)
def _log(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOGS_DIR / f"{name}.json").read_text("utf-8"))
    return data


#: ``ROUTE18XX_TURN_ALL=1``: every turn of the bankrupt log; by default every third run
#: and the three checked against independent calls (the same checks on each).
ALL = os.environ.get("ROUTE18XX_TURN_ALL") == "1"


@lru_cache(maxsize=None)
def _replayed() -> api.ReplayReport:
    return api.replay_game(_log("1888_game_end_bankrupt"), solve=False)


@lru_cache(maxsize=None)
def _bankrupt() -> api.TurnsReport:
    ids = [r.action_id for r in _replayed().runs if r.action_id is not None]
    assert len(ids) == 28
    runs = ids if ALL else sorted(set(ids[::3]) | {164, 340, 507})
    return api.compare_turns(_log("1888_game_end_bankrupt"), runs=runs)


def test_the_players_turns_are_read_from_the_log() -> None:
    log = _log("1888_game_end_bankrupt")
    report = _bankrupt()
    compared = {t.action_id for t in report.turns}
    runs = [r for r in _replayed().runs if r.action_id in compared]
    assert [t.action_id for t in report.turns] == [r.action_id for r in runs]
    actions = sorted((a for a in log["actions"] if isinstance(a.get("id"), int)),
                     key=lambda a: a["id"])
    undone = _undone(log)
    for turn, run in zip(report.turns, runs):
        assert turn.turn_start_action_id == run.turn_start_action_id
        assert turn.player.earned == run.engine_revenue + run.engine_subsidy
        mine = [a for a in actions if turn.turn_start_action_id <= a["id"] < turn.action_id
                and a["id"] not in undone]
        lays = [(a["hex"], a["tile"].rsplit("-", 1)[0], a["rotation"])
                for a in mine if a["type"] == "lay_tile"]
        assert [(l.hex, l.tile, l.rotation) for l in turn.player.lays] == lays
        assert (turn.player.token is not None) == any(a["type"] == "place_token" for a in mine)
        later = [a for a in actions if a["id"] > turn.action_id and a["id"] not in undone]
        bought = []
        for a in later:
            if a.get("entity") != turn.corporation or a["type"] in ("run_routes",):
                break
            if a["type"] == "buy_train":
                bought.append((a["train"].rsplit("-", 1)[0], a["price"]))
        assert [(t.train, t.price) for t in turn.player.trains_bought] == bought


def _undone(log: dict[str, Any]) -> set[int]:
    from route18xx.engine.replay.replay import kept_actions

    kept = {a["id"] for a in kept_actions(log) if isinstance(a.get("id"), int)}
    return {a["id"] for a in log["actions"] if isinstance(a.get("id"), int)} - kept


def test_what_the_turns_left_adds_up_and_is_never_negative() -> None:
    report = _bankrupt()
    assert len(report.turns) == (28 if ALL else 12)
    for t in report.turns:
        assert t.error is None and t.best is not None and t.best.proven_optimal
        assert t.player.board_proven_optimal
        assert t.left_by_lay_token is not None and t.left_by_lay_token >= 0, t.to_json()
        if t.player.recorded_legal:
            assert t.left_by_routes is not None and t.left_by_routes >= 0, t.to_json()
        assert t.best_income == t.player.earned + t.left_by_lay_token + (t.left_by_routes or 0)
        if t.best_is_players:
            assert t.left_by_lay_token == 0
    summary = report.to_json()
    assert summary["left_by_lay_token"] == sum(t.left_by_lay_token or 0 for t in report.turns)
    assert sum(r["left_by_lay_token"] for r in summary["by_corporation"].values()) == \
        summary["left_by_lay_token"]


def test_incomes_equal_independent_calls() -> None:
    """The player's board: ``solve_routes`` just before the run; the best plan:
    ``suggest_turn`` at the turn's start (a sample of three turns)."""
    log = _log("1888_game_end_bankrupt")
    by_run = {t.action_id: t for t in _bankrupt().turns}
    for run_id in (164, 340, 507):
        turn = by_run[run_id]
        opt = optimize(api.state_from_log(log, run_id))
        assert opt.solution.status == "OPTIMAL"
        assert turn.player.board_income == opt.judgement.revenue + opt.judgement.subsidy
        best = api.suggest_turn(None, game_log=log, action_id=turn.turn_start_action_id,
                                top=1, trains=False)
        assert turn.best_income == best.plans[0].income


def test_a_hand_read_turn() -> None:
    """CDL's turn of OR 6.2 (bankrupt log, run 507): the player upgraded B12 to a 58 and
    ran for ¥150; the best plan upgrades B20 to 8863 instead: laid here by hand on the
    turn's board and solved, it earns the reported ¥190."""
    turn = {t.action_id: t for t in _bankrupt().turns}[507]
    assert [(l.hex, l.tile) for l in turn.player.lays] == [("B12", "58")]
    assert (turn.player.earned, turn.player.board_income) == (150, 150)
    assert turn.best is not None and turn.best_income == 190
    (lay,) = turn.best.lays
    state = api.state_from_log(_log("1888_game_end_bankrupt"), turn.turn_start_action_id)
    board = state.board.with_tile(lay.hex, state.data.tiles[lay.tile], lay.rotation)
    opt = optimize(replace(state, board=board))
    assert opt.solution.status == "OPTIMAL"
    assert opt.judgement.revenue + opt.judgement.subsidy == 190
    assert turn.left_by_lay_token == 40 and turn.left_by_routes == 0


def test_private_lays_and_a_subset_of_runs() -> None:
    """HJR's OR 5.2 turn of log 129026 (run 251): the Heng Shan lay on C5 and the
    normal lay on D6, in the log's order; ``runs`` compares that turn alone."""
    report = api.compare_turns(_log("129026"), runs=[251])
    (turn,) = report.turns
    assert [(l.hex, l.tile, l.private) for l in turn.player.lays] == [
        ("C5", "L41", "HS"), ("D6", "8", None)]
    assert turn.best_income is not None and turn.player.board_income is not None
    assert turn.best_income >= turn.player.board_income


def test_bad_arguments_name_the_field() -> None:
    import pytest

    with pytest.raises(api.MalformedInput, match="objective"):
        api.compare_turns(_log("129026"), objective="most")
    with pytest.raises(api.MalformedInput, match="time_limit_s"):
        api.compare_turns(_log("129026"), time_limit_s=0)
    with pytest.raises(api.MalformedInput, match="game_log"):
        api.compare_turns({"actions": 3})
