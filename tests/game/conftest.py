"""Game-engine test helpers: the real logs, and games stopped at chosen actions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.game import Game
from route18xx.engine.game.graph import GraphCache
from route18xx.engine.replay.replay import replay

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
REFERENCE = DATA / "reference" / "1888"

LOG_NAMES = ("129026", "1888_game_end_bankrupt")


def _required(path: Path) -> Path:
    """Golden data travels with the repo (tests/data/README.md): its absence is a failure."""
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return path


def log_path(name: str) -> Path:
    return _required(DATA / "logs" / f"{name}.json")


def states_dir() -> Path:
    return _required(DATA / "states")


def checkpoints_path() -> Path:
    return _required(REFERENCE / "fixture_checkpoints.json")


_LOGS: dict[str, Any] = {}


def load(name: str) -> Any:
    if name not in _LOGS:
        _LOGS[name] = json.loads(log_path(name).read_text("utf-8"))
    return _LOGS[name]


_GAMES: dict[tuple[str, int], Game] = {}


def game_before(name: str, action_id: int) -> Game:
    """The game of a real log just before ``action_id``: snapshot safety on, routes checked.

    Each call returns an independent copy (replays are cached per point).
    """
    key = (name, action_id)
    if key not in _GAMES:
        result = replay(load(name), stop_before=action_id)
        assert not result.errors, result.errors
        _GAMES[key] = result.game
    game = copy.copy(_GAMES[key])
    game.state = _GAMES[key].state.snapshot()
    game.graph = GraphCache()
    game.after_each = []
    game.on_new_round = []
    game.safe = True
    game.trust_recorded_routes = False
    return game


@pytest.fixture(scope="session")
def replays() -> dict[str, Any]:
    return {name: replay(load(name)) for name in LOG_NAMES}
