"""Every form 18xx.games ever wrote a log in replays alike (issue 19, HISTORY.md §1).

The shared real logs, and logs grown by seed (tests/data/generated), are
rewritten into each older form the site wrote — ``run_routes`` without
``nodes`` (until 2022-02-10), ``nodes`` as ``HEX-TILENAME-INDEX`` (2022-02-11 →
2022-02-17), ``result`` keyed by player name (before 2022-08), players without
ids (the oldest logs: actions name players by name), no ``subsidy`` and no
``extra_revenue`` (before 2024-09), undone actions marked ``skip``, sales
without ``percent`` — and must
replay to exactly the same runs, judgements and final scores as the original.
The rewrites are made here from the site's formats, not by the code under test.
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.actions import Action, RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import kept_actions, replay, replay_report
from tests.game.conftest import DATA, LOG_NAMES, load

Log = dict[str, Any]
GENERATED = sorted((DATA / "generated").glob("random-*.json.gz"))


def _load_any(name: str) -> Log:
    if name.startswith("random-"):
        return dict(json.loads(gzip.open(DATA / "generated" / f"{name}.json.gz").read()))
    return copy.deepcopy(load(name))


def _run_routes(log: Log) -> list[dict[str, Any]]:
    return [a for a in log["actions"] if a.get("type") == "run_routes"]


def without_nodes(log: Log) -> Log:
    """Before 2022-02-11 a route had no ``nodes`` field."""
    for action in _run_routes(log):
        for route in action["routes"]:
            route.pop("nodes", None)
    return log


def with_tile_names(log: Log) -> Log:
    """2022-02-11 → 2022-02-17: ``<hex>-<tile name>-<index>``, the tile then on the hex.

    The tile on each hex at each run is read from a replay of the original log.
    """
    names: dict[int, dict[str, str]] = {}

    def capture(game: Game, action: Action) -> None:
        if isinstance(action, RunRoutes) and action.id is not None:
            names[action.id] = {
                h: game.board.tile_on(h).tile.name
                for route in action.routes for conn in route.connections for h in conn
            }

    replay(copy.deepcopy(log), before_action=capture)
    for action in _run_routes(log):
        tiles = names.get(action["id"])
        if tiles is None:  # undone: never replayed, left as it was
            continue
        for route in action["routes"]:
            route["nodes"] = [
                f"{n.rsplit('-', 1)[0]}-{tiles[n.rsplit('-', 1)[0]]}-{n.rsplit('-', 1)[1]}"
                for n in route.get("nodes", [])
            ]
    return log


def result_by_name(log: Log) -> Log:
    """Before 2022-08 ``result`` was keyed by player name."""
    name_of = {str(p["id"]): p["name"] for p in log["players"]}
    log["result"] = {name_of[k]: v for k, v in log["result"].items()}
    return log


def players_without_ids(log: Log) -> Log:
    """The oldest form: players by name, actions naming a player in ``entity``."""
    name_of = {p["id"]: p["name"] for p in log["players"]}

    def rename(action: dict[str, Any]) -> None:
        if action.get("entity_type") == "player" or (
            not action.get("entity_type") and action.get("entity") in name_of
        ):
            action["entity"] = name_of[action["entity"]]
            action["entity_type"] = "player"
        for auto in action.get("auto_actions") or []:
            rename(auto)

    for action in log["actions"]:
        rename(action)
    log["players"] = [{"name": p["name"]} for p in log["players"]]
    log["result"] = {name_of[int(k)]: v for k, v in log["result"].items()}
    return log


def without_subsidy_fields(log: Log) -> Log:
    """Before 2024-09 no ``subsidy`` (route or action) and no ``extra_revenue``:
    the site worked the subsidy out from the route's stops."""
    for action in _run_routes(log):
        action.pop("subsidy", None)
        action.pop("extra_revenue", None)
        for route in action["routes"]:
            route.pop("subsidy", None)
    return log


def with_skip_marks(log: Log) -> Log:
    """2021-08 logs marked each action an undo took back with ``skip: true``."""
    kept = {id(a) for a in kept_actions(log)}
    for action in log["actions"]:
        if action.get("type") not in ("undo", "redo", "message"):
            action["skip"] = id(action) not in kept
    return log


def sales_without_percent(log: Log) -> Log:
    """A ``sell_shares`` without ``percent`` sells all its certificates (the site's
    ``ShareBundle.new(shares, nil)``): dropped wherever it equals their sum (a
    president's certificate ``<SYM>_0`` is 20 %, any other 10 %, RULES.md §5)."""
    for action in log["actions"]:
        for a in [action, *(action.get("auto_actions") or [])]:
            if a.get("type") == "sell_shares":
                total = sum(20 if s.endswith("_0") else 10 for s in a["shares"])
                if a.get("percent") == total:
                    del a["percent"]
    return log


FORMS: dict[str, Callable[[Log], Log]] = {
    "no-nodes": without_nodes,
    "tile-name-nodes": with_tile_names,
    "result-by-name": result_by_name,
    "players-without-ids": players_without_ids,
    "no-subsidy-fields": without_subsidy_fields,
    "skip-marks": with_skip_marks,
    "sales-without-percent": sales_without_percent,
}


def _player_key_map(log: Log, form: str) -> dict[str, str]:
    """How the original's score keys read in the rewritten log's report."""
    if form == "players-without-ids":
        return {str(p["id"]): p["name"] for p in log["players"]}
    return {str(p["id"]): str(p["id"]) for p in log["players"]}


def _summary(log: Log) -> dict[str, Any]:
    report = replay_report(replay(log)).to_json()
    return {
        "runs": report["run_routes"],
        "errors": report["errors"],
        "final_scores": report["final_scores"],
        "recorded_result": report["recorded_result"],
        "scores_match": report["scores_match"],
    }


_ORIGINALS: dict[str, dict[str, Any]] = {}


def _original(name: str) -> dict[str, Any]:
    if name not in _ORIGINALS:
        _ORIGINALS[name] = _summary(_load_any(name))
    return _ORIGINALS[name]


def _expected(name: str, form: str) -> dict[str, Any]:
    original = _original(name)
    keys = _player_key_map(_load_any(name), form)
    return {
        **original,
        "final_scores": {keys[k]: v for k, v in original["final_scores"].items()},
        "recorded_result": {keys[k]: v for k, v in original["recorded_result"].items()},
    }


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", LOG_NAMES)
def test_a_shared_log_in_each_older_form_replays_alike(name: str, form: str) -> None:
    rewritten = FORMS[form](_load_any(name))
    got = _summary(rewritten)
    assert got == _expected(name, form)
    assert got["scores_match"] and got["errors"] == []


@pytest.mark.parametrize("name", LOG_NAMES)
def test_a_shared_log_in_the_oldest_form_of_all_replays_alike(name: str) -> None:
    log = _load_any(name)
    for form in ("tile-name-nodes", "no-subsidy-fields", "skip-marks", "sales-without-percent",
                 "players-without-ids"):
        log = FORMS[form](log)
    assert _summary(log) == _expected(name, "players-without-ids")


@pytest.mark.parametrize("path", GENERATED[::5], ids=lambda p: p.name.split(".")[0])
def test_grown_logs_in_older_forms_replay_alike(path: Path) -> None:
    """Logs grown by seed (``route18xx generate-logs``): every tenth-ish one, all forms at once
    (the tile-name form is covered on the shared logs; its rewrite replays the log itself)."""
    name = path.name.split(".")[0]
    log = _load_any(name)
    for form in ("no-nodes", "no-subsidy-fields", "skip-marks", "sales-without-percent",
                 "players-without-ids"):
        log = FORMS[form](log)
    assert _summary(log) == _expected(name, "players-without-ids")


def test_the_rewrites_change_the_log() -> None:
    """The forms are real rewrites: each changes the shared log's text."""
    original = json.dumps(_load_any("129026"), sort_keys=True)
    for form, rewrite in FORMS.items():
        assert json.dumps(rewrite(_load_any("129026")), sort_keys=True) != original, form
