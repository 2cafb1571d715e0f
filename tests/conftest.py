"""Shared fixtures: the real 1888 decisions and logs (copied under tests/data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
STATES_DIR = DATA / "states"
LOGS_DIR = DATA / "logs"


def state_files() -> list[Path]:
    return sorted(STATES_DIR.glob("*.json"))


def load_json(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


@pytest.fixture(scope="session")
def real_states() -> dict[str, Any]:
    """name (e.g. ``129026-138``) → the decoded state file with its reference."""
    return {p.stem: load_json(p) for p in state_files()}
