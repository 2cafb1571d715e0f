"""What a stop and a route earn in 1888 (ROUTES.md §4 and §5).

* A stop is priced for the newest tile colour of the current phase (§4.1).
* A route that visits a node on the company's home hex and one on its
  destination hex earns the destination bonus (§5.2), per route.
* A route with a stop on the mine hex earns the mine subsidy for the treasury,
  reported apart from revenue (§5.3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Iterable

from route18xx.engine.board import Board
from route18xx.engine.gamedata import CorporationDef, HexId, PhaseDef


@dataclass(frozen=True)
class MineRule:
    hex: HexId
    subsidy: int


@cache
def mine_rule() -> MineRule:
    raw = json.loads(
        resources.files("route18xx.engine").joinpath("data", "1888", "route_rules.json").read_text("utf-8")
    )
    return MineRule(raw["mine"]["hex"], raw["mine"]["subsidy"])


def stop_value(board: Board, hex_id: HexId, index: int, phase: PhaseDef) -> int:
    """ROUTES.md §4.1: the value for the phase's newest tile colour."""
    node = board.revenue_center(hex_id, index)
    return 0 if node is None else node.value_for(phase.revenue_color)


@dataclass(frozen=True)
class DestinationRule:
    """ROUTES.md §5.2: a route with a stop on each of the two hexes earns ``bonus``."""

    home_hex: HexId
    destination_hex: HexId
    bonus: int


def destination_rule(corp: CorporationDef) -> DestinationRule:
    """The company's destination bonus: the one place it is read (the validator, the
    route problem's pair bonus and the suggestion bound all price it from here)."""
    return DestinationRule(corp.home_hex, corp.destination_hex, corp.destination_bonus)


def destination_bonus(stop_hexes: Iterable[HexId], corp: CorporationDef) -> int:
    """ROUTES.md §5.2: home hex and destination hex both among the route's stops."""
    rule = destination_rule(corp)
    hexes = set(stop_hexes)
    return rule.bonus if rule.home_hex in hexes and rule.destination_hex in hexes else 0


def stop_subsidy(hex_id: HexId) -> int:
    """ROUTES.md §5.3: the subsidy a stop on ``hex_id`` earns its route (the mine's ¥40)."""
    rule = mine_rule()
    return rule.subsidy if hex_id == rule.hex else 0


def route_subsidy(stop_hexes: Iterable[HexId]) -> int:
    """ROUTES.md §5.3: ¥40 to the treasury for a route stopping on the mine hex (once)."""
    return max((stop_subsidy(h) for h in set(stop_hexes)), default=0)
