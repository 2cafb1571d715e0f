"""Benchmark inputs: the real decisions copied under tests/data, plus generated worst cases;
and the in-process server the gRPC benchmarks call."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from benchmarks.shared import ROOT

if TYPE_CHECKING:
    from route18xx.server.rpc.app import RouteServer

STATES_DIR = ROOT / "tests" / "data" / "states"
#: The 67 ``run_routes`` decisions of the two shared 1830 logs, cut by
#: ``tests/data/1830/make_states.py`` (tokens and phase checked against 18xx.games).
STATES_1830 = ROOT / "tests" / "data" / "1830" / "states.json"


def real_states() -> dict[str, dict[str, Any]]:
    """name → state file (the ``state`` part), sorted by name."""
    return {
        p.stem: json.loads(p.read_text("utf-8"))["state"] for p in sorted(STATES_DIR.glob("*.json"))
    }


def real_states_1830() -> dict[str, dict[str, Any]]:
    """name (``<game>-<action id>``) → 1830 state file, in the order of the logs."""
    raw = json.loads(STATES_1830.read_text("utf-8"))
    return {s["name"]: s["state"] for s in raw["states"]}


def worst_cases() -> dict[str, dict[str, Any]]:
    """Generated hard inputs on real late boards (issue 3 targets).

    Each is a board a game can reach (issue 9): trains on sale and not rusted in
    the state's phase, within its train limit (RULES.md §6.9 #3, §8, §9.2). The
    4-train cases carry as many 4s as phase 4 allows (3); the phase-5 board two
    5s; on the phase-D board the 4s have rusted, so a D runs beside a 6.
    """
    states = real_states()
    late = copy.deepcopy(states["129026-728"])  # phase D, the fullest board of the logs
    two_d = dict(late, trains=["D", "D"])
    six_d = dict(copy.deepcopy(late), trains=["6", "D"])
    mid = copy.deepcopy(states["129026-399"])  # phase 5: train limit 2
    two_fives = dict(mid, trains=["5", "5"])
    mid4 = copy.deepcopy(states["129026-303"])  # the last phase-4 board of 129026: limit 3
    three_fours = dict(mid4, trains=["4", "4", "4"])
    late4 = copy.deepcopy(states["1888_game_end_bankrupt-438"])  # the last phase-4 board
    late_three_fours = dict(late4, trains=["4", "4", "4"])
    return {
        "late-2xD": two_d, "late-6+D": six_d, "mid-2x5": two_fives, "mid-3x4": three_fours,
        "late4-3x4": late_three_fours,
    }


@pytest.fixture(scope="module")
def server() -> Iterator[RouteServer]:
    """A RouteService in this process on 127.0.0.1 (port 0, its default workers), per module."""
    from route18xx.server.rpc.app import ServerConfig, create_server

    srv = create_server(ServerConfig(host="127.0.0.1", port=0))
    srv.start()
    yield srv
    srv.stop(0).wait()
