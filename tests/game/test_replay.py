"""Whole-log replays: exact final scores, every route judged, round checkpoints (STYLE.md §11)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.scoring import player_value
from route18xx.engine.replay.replay import kept_actions, replay, replay_report
from route18xx.engine.replay.replay_report import RunOptimum
from tests.game.conftest import LOG_NAMES, checkpoints_path, load
from tests.timing import cpu_timed

RUNS = {"129026": 95, "1888_game_end_bankrupt": 28}
END = {"129026": "bank", "1888_game_end_bankrupt": "bankrupt"}


@pytest.mark.parametrize("name", LOG_NAMES)
def test_final_scores_equal_the_recorded_result(name: str, replays: dict[str, Any]) -> None:
    result = replays[name]
    assert result.errors == []
    assert result.completed
    assert result.game.finished
    assert result.game.state.end_reason == END[name]
    assert result.final_scores == result.recorded_result
    assert result.scores_match


@pytest.mark.parametrize("name", LOG_NAMES)
def test_every_run_is_legal_and_priced_as_recorded(name: str, replays: dict[str, Any]) -> None:
    runs = replays[name].runs
    assert len(runs) == RUNS[name]
    for run in runs:
        check = run.check
        assert check.legal, (check.action_id, check.judgement.violations)
        assert check.engine_revenue == check.recorded_revenue, check.action_id
        assert check.engine_subsidy == check.recorded_subsidy, check.action_id


@pytest.mark.parametrize("name", LOG_NAMES)
def test_invariants_hold_after_every_action(name: str) -> None:
    problems: list[tuple[Any, list[str]]] = []
    seen = [0]

    def hook(game: Any, action: Any) -> None:
        seen[0] += 1
        found = check_after(game, action)
        if found:
            problems.append((action.id, found))

    result = replay(load(name), after_action=hook)
    assert result.scores_match
    assert seen[0] > len(kept_actions(load(name))) // 2
    assert problems == []


@pytest.mark.parametrize("name", LOG_NAMES)
def test_replay_is_fast(name: str) -> None:
    """Under 2 s of this process's CPU (issue 34: 2 s of wall time failed when other work
    took the shared cores; the replay runs in this thread alone)."""
    log = load(name)
    result, cpu_s, _ = cpu_timed(lambda: replay(log))
    assert result.scores_match
    assert cpu_s < 2.0


@pytest.mark.parametrize("name", LOG_NAMES)
def test_replay_report_has_the_design_fields(name: str, replays: dict[str, Any]) -> None:
    report = replay_report(replays[name]).to_json()
    json.dumps(report)
    assert set(report) == {
        "title",
        "rule_set",
        "rules_version",
        "rules_as_of",
        "final_scores",
        "recorded_result",
        "scores_match",
        "errors",
        "completed",
        "stopped_at",
        "objective",
        "left_on_table",
        "run_routes",
    }
    assert report["objective"] is None and report["left_on_table"] is None  # not solved
    assert report["completed"] is True and report["stopped_at"] is None
    assert report["rule_set"] == ("prototype" if name == "129026" else "north")
    first = report["run_routes"][0]
    assert set(first) >= {
        "action_id",
        "corporation",
        "trains",
        "recorded_revenue",
        "recorded_subsidy",
        "recorded_legal",
        "engine_revenue",
        "engine_subsidy",
        "optimal_revenue",
        "optimal_subsidy",
        "proven_optimal",
        "solve_ms",
    }


def test_solver_hook_fills_the_optimum_fields() -> None:
    calls = []

    def fake_solve(state: Any) -> RunOptimum:
        calls.append(state.corporation.sym)
        return RunOptimum(revenue=1, subsidy=2, proven_optimal=True, solve_ms=0.5)

    result = replay(load("1888_game_end_bankrupt"), solve=fake_solve)
    assert len(calls) == RUNS["1888_game_end_bankrupt"]
    entry = replay_report(result).to_json()["run_routes"][0]
    assert (entry["optimal_revenue"], entry["optimal_subsidy"], entry["proven_optimal"]) == (1, 2, True)


def _snapshot(game: Any) -> dict[str, Any]:
    names = {p.id: p.name for p in game.players}
    out: dict[str, Any] = {
        "phase": game.phase.name,
        "bank": game.bank.cash,
        "player_order": [p.name for p in game.players],
        "depot_next": game.depot.upcoming[0] if game.depot.upcoming else None,
        "depot_discarded": list(game.depot.discarded),
        "players": {},
        "corporations": {},
    }
    for p in game.players:
        out["players"][p.name] = {
            "cash": p.cash,
            "value": player_value(game, p),
            "shares": {
                c.sym: c.shares.percent_of(p.id)
                for c in game.corporations.values()
                if c.shares.percent_of(p.id)
            },
            "companies": sorted(c.sym for c in game.companies.values() if c.owner == p.id and not c.closed),
        }
    for c in game.corporations.values():
        if not c.ipoed:
            continue
        out["corporations"][c.sym] = {
            "cash": c.cash,
            "price": game.price(c),
            "price_cell": list(c.share_price),
            "par": c.par_price,
            "floated": c.floated,
            "president": names.get(c.president),
            "trains": sorted(c.trains),
            "companies": sorted(x.sym for x in game.companies.values() if x.owner == c.sym and not x.closed),
            "pool_percent": c.pool_percent,
            "ipo_percent": c.ipo_percent,
            "tokens": sorted(h for h, _ in game.board.token_cities(c.sym)),
        }
    return out


def _expected(snapshot: dict[str, Any]) -> dict[str, Any]:
    out = {k: snapshot[k] for k in ("phase", "bank", "player_order", "depot_next", "depot_discarded")}
    out["players"] = {
        name: {
            "cash": p["cash"],
            "value": p["value"],
            "shares": {k: v for k, v in p["shares"].items() if v},
            "companies": sorted(p["companies"]),
        }
        for name, p in snapshot["players"].items()
    }
    out["corporations"] = {
        sym: {
            "cash": c["cash"],
            "price": c["price"],
            "price_cell": c["price_cell"],
            "par": c["par"],
            "floated": c["floated"],
            "president": c["president"],
            "trains": sorted(c["trains"]),
            "companies": sorted(c["companies"]),
            "pool_percent": c["pool_percent"],
            "ipo_percent": c["ipo_percent"],
            "tokens": sorted(t.split("/")[0] for t in c["tokens"]),
        }
        for sym, c in snapshot["corporations"].items()
    }
    return out


@pytest.mark.parametrize("name", LOG_NAMES)
def test_every_round_matches_the_engine_checkpoints(name: str) -> None:
    """The state at every round change equals the 18xx.games engine's (fixture_checkpoints.json)."""
    expected = json.loads(checkpoints_path().read_text("utf-8"))[name]["snapshots"]
    mine: list[dict[str, Any]] = []
    log = load(name)

    def on_round(game: Any) -> None:
        mine.append(_snapshot(game))

    def arm(game: Any, action: Any) -> None:
        if on_round not in game.on_new_round:
            game.on_new_round.append(on_round)

    result = replay(log, before_action=arm)
    mine.append(_snapshot(result.game))
    assert len(mine) == len(expected)
    for got, want in zip(mine, expected, strict=True):
        assert got == _expected(want), want["label"]


def test_replay_with_the_engine_solver_reaches_the_reference_optima() -> None:
    """Integration: the optimum hook with ``engine.api.solve_routes`` (objective total)."""
    pytest.importorskip("ortools")
    from route18xx.server.commands.cli_replay import api_solver
    from tests.game.conftest import states_dir

    result = replay(load("1888_game_end_bankrupt"), solve=api_solver("total", 10.0))
    for entry in replay_report(result).to_json()["run_routes"]:
        ref = json.loads((states_dir() / f"1888_game_end_bankrupt-{entry['action_id']}.json").read_text())
        assert entry["proven_optimal"]
        assert entry["optimal_revenue"] + entry["optimal_subsidy"] == ref["reference"]["optimal_total"]


def test_a_log_cut_short_replays_cleanly() -> None:
    log = dict(load("129026"))
    log.update(actions=log["actions"][:200], status="active", result={})
    result = replay(log)
    assert result.errors == [] and result.completed
    assert not result.game.finished and not result.scores_match


def test_an_illegal_action_in_a_log_stops_the_replay_with_its_reason() -> None:
    log = json.loads(json.dumps(load("129026")))
    for action in log["actions"]:
        if action.get("id") == 53:
            action["price"] = 90  # LYR's first 2-train costs 80
    result = replay(log)
    assert result.stopped_at == 53 and not result.completed
    assert "wrong_price" in result.errors[0]
