"""Game-engine test helpers: the real logs, and games stopped at chosen actions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.game.game import Game
from engine.game.graph import GraphCache
from engine.replay import replay

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
SHARED = HERE.parents[2] / "shared"

LOG_NAMES = ("129026", "1888_game_end_bankrupt")


def _first_existing(*paths: Path) -> Path | None:
    return next((p for p in paths if p.exists()), None)


def log_path(name: str) -> Path:
    path = _first_existing(DATA / "logs" / f"{name}.json", SHARED / "fixtures" / "1888" / f"{name}.json")
    if path is None:
        pytest.skip(f"game log {name}.json not found under tests/data/logs or ../shared/fixtures/1888")
    return path


def states_dir() -> Path:
    path = _first_existing(DATA / "states", SHARED / "states" / "1888")
    if path is None:
        pytest.skip("state files not found under tests/data/states or ../shared/states/1888")
    return path


def checkpoints_path() -> Path:
    path = SHARED / "reference" / "1888" / "data" / "fixture_checkpoints.json"
    if not path.exists():
        pytest.skip("../shared/reference/1888/data/fixture_checkpoints.json is absent")
    return path


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
    game.s = _GAMES[key].s.snapshot()
    game.graph = GraphCache()
    game.after_each = []
    game.on_new_round = []
    game.safe = True
    game.trust_recorded_routes = False
    game.lenient_certificates = False
    return game


@pytest.fixture(scope="session")
def replays() -> dict[str, Any]:
    return {name: replay(load(name)) for name in LOG_NAMES}
