"""1830 logs in every form 18xx.games wrote them replay alike (issue 25; 1830 ACTIONS.md §2,
1888 HISTORY.md §1).

The two shared 1830 logs are of the old form: routes without ``nodes``, actions an undo
took back marked ``skip``, no ``subsidy``/``extra_revenue``. A third real log may be of
any other: the older forms of ``test_log_forms`` (``result`` keyed by name, players
without ids, sales without ``percent``), and the newer ones the site writes today —
routes with ``nodes`` (from 2022-02-11), no ``skip`` marks, ``subsidy`` and
``extra_revenue`` present (from 2024-09). Each rewrite must replay to the same runs,
judgements and final scores as the original, which equal the logs' recorded results.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from route18xx.engine.game.actions import Action, RunRoutes
from route18xx.engine.game.game import Game
from route18xx.engine.replay.replay import replay
from tests.game.test_log_forms import FORMS, Log, _run_routes, _summary
from tests.game.test_replay_1830 import LOGS, _log


#: routes of the kept run_routes (1830 ROUTES.md: "43 actions / 66 routes", "24 / 37")
ROUTES = {"26855": 66, "29133": 37}


def _load(name: str) -> Log:
    return copy.deepcopy(dict(_log(name)))


def with_nodes(log: Log) -> Log:
    """From 2022-02-11 every route lists its stops as ``nodes`` (``<hex>-<city index>``).

    The stops are read from a replay of the log as it is: a node form the replay
    misread would change a revenue, and the revenues are the recorded ones.
    """
    stops: dict[int, list[list[str]]] = {}

    def capture(game: Game, action: Action) -> None:
        check = getattr(game.state.round, "run_check", None)
        if isinstance(action, RunRoutes) and action.id is not None and check is not None:
            stops[action.id] = [list(r.stops) for r in check.judgement.routes]

    replay(copy.deepcopy(log), after_action=capture)
    for action in _run_routes(log):
        found = stops.get(action["id"])
        if found is None:  # undone: never replayed
            continue
        for route, nodes in zip(action["routes"], found, strict=True):
            route["nodes"] = nodes
    return log


def without_skip(log: Log) -> Log:
    """Logs written after the ``skip`` field was dropped: undo/redo alone decide."""
    for action in log["actions"]:
        action.pop("skip", None)
    return log


def with_subsidy_fields(log: Log) -> Log:
    """From 2024-09 a run names ``subsidy`` (route and action) and ``extra_revenue``: 0 in 1830."""
    for action in _run_routes(log):
        action["subsidy"] = 0
        action["extra_revenue"] = 0
        for route in action["routes"]:
            route["subsidy"] = 0
    return log


NEW_FORMS = {"nodes": with_nodes, "no-skip": without_skip, "subsidy-fields": with_subsidy_fields}
OLD_FORMS = {k: FORMS[k] for k in ("players-without-ids", "sales-without-percent",
                                   "skip-marks")}


def _by_name(log: Log, summary: dict[str, Any]) -> dict[str, Any]:
    name_of = {str(p["id"]): p["name"] for p in log["players"]}
    return {**summary,
            "final_scores": {name_of[k]: v for k, v in summary["final_scores"].items()},
            "recorded_result": {name_of[k]: v for k, v in summary["recorded_result"].items()}}


@pytest.mark.parametrize("name", LOGS)
def test_the_newest_form_replays_alike(name: str) -> None:
    original = _summary(_load(name))
    assert original["scores_match"] and original["errors"] == []
    log = _load(name)
    for rewrite in NEW_FORMS.values():
        log = rewrite(log)
    with_stops = [r for a in _run_routes(log) for r in a["routes"] if r.get("nodes")]
    assert len(with_stops) == ROUTES[name]  # every kept run's routes (1830 ROUTES.md)
    assert _summary(log) == original


@pytest.mark.parametrize("name", LOGS)
def test_the_oldest_form_replays_alike(name: str) -> None:
    original = _summary(_load(name))
    log = _load(name)
    for rewrite in OLD_FORMS.values():
        log = rewrite(log)
    assert _summary(log) == _by_name(_load(name), original)


@pytest.mark.parametrize("form", [*NEW_FORMS, *OLD_FORMS])
def test_the_rewrites_change_the_log(form: str) -> None:
    original = json.dumps(_load("26855"), sort_keys=True)
    rewrite = {**NEW_FORMS, **OLD_FORMS}[form]
    assert json.dumps(rewrite(_load("26855")), sort_keys=True) != original, form


def test_a_random_game_with_d_trains_replays_alike_without_nodes() -> None:
    """Long D routes, read back from ``connections`` alone as in logs before 2022-02-11
    (a random game to its end, 18 D routes: seed 13, 2 players, stingy)."""
    from route18xx.engine.game.playout import play_and_log

    _, log = play_and_log(13, 2, True, "multiple_brown_from_ipo", title="1830")
    d_routes = [r for a in _run_routes(log) for r in a["routes"] if r["train"].startswith("D-")]
    assert len(d_routes) >= 10 and all(r["nodes"] for r in d_routes)
    original = _summary(copy.deepcopy(log))
    assert original["scores_match"] and original["errors"] == []
    old = FORMS["no-subsidy-fields"](FORMS["no-nodes"](copy.deepcopy(log)))
    assert _summary(old) == original
