"""Benchmark inputs: the real decisions copied under tests/data, plus generated worst cases."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATES_DIR = ROOT / "tests" / "data" / "states"


def real_states() -> dict[str, dict[str, Any]]:
    """name → state file (the ``state`` part), sorted by name."""
    return {
        p.stem: json.loads(p.read_text("utf-8"))["state"] for p in sorted(STATES_DIR.glob("*.json"))
    }


def worst_cases() -> dict[str, dict[str, Any]]:
    """Generated hard inputs on real late boards (issue 3 targets)."""
    states = real_states()
    late = copy.deepcopy(states["129026-728"])  # phase D, the fullest board of the logs
    two_d = dict(late, trains=["D", "D"])
    mid = copy.deepcopy(states["129026-399"])
    four_fours = dict(mid, trains=["4", "4", "4", "4"])
    late_four = dict(copy.deepcopy(late), trains=["4", "4", "4", "4"])
    return {"late-2xD": two_d, "mid-4x4": four_fours, "late-4x4": late_four}
