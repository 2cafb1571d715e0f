"""How large a recorded route can be, from the rules and the map (issue 9; DESIGN.md §8).

A ``run_routes`` action lists at most one route per train (RULES.md §6.7,
ROUTES.md §3.9); a route stops at each revenue centre at most once (ROUTES.md
§3.5), so it has fewer connections than the board has stops; and it crosses
each hex side at most once (ROUTES.md §3.7), which bounds the hexes its
connections list. These bounds are checked on lengths alone, before a route is
read or judged, so a route repeating one connection 10 000 times is refused at
once. ``route_bounds`` holds the map-wide bounds of a title (any board of it),
``widest_route_bounds`` the widest of every title (a log's action is read before
its board exists); ``board_stops`` the exact number of stops on one board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import GameData


@dataclass(frozen=True)
class RouteBounds:
    """Largest ``run_routes`` any board of a title allows."""

    #: routes per action: the largest train limit (RULES.md §6.9 #3)
    routes: int
    #: revenue centres any board can hold (each hex with its most crowded tile)
    stops: int
    #: hex sides of the map (pairs of neighbouring hexes)
    sides: int


def _bounds(data: GameData) -> RouteBounds:
    tiles = list(data.tiles.values())
    most_nodes = max(len(t.nodes) for t in tiles)
    stops = sum(max(len(h.preprinted.nodes), most_nodes) for h in data.hexes.values())
    sides = sum(len(h.neighbors) for h in data.hexes.values()) // 2
    return RouteBounds(max(p.train_limit for p in data.phases), stops, sides)


def route_bounds(data: GameData) -> RouteBounds:
    """The map-wide bounds, built once and held by ``data`` (``GameData.derived``)."""
    return data.derived(_bounds)


def board_stops(board: Board) -> int:
    """Revenue centres on ``board``: no route stops more often (ROUTES.md §3.5)."""
    return sum(len(board.tile_on(h).tile.nodes) for h in board.data.hexes)


@cache
def widest_route_bounds() -> RouteBounds:
    """The widest bounds of every title the engine plays: for a ``run_routes`` action
    read from a log before its board exists (the judge then checks the route itself)."""
    from route18xx.engine.titles import TITLES

    found = [route_bounds(t.data) for t in TITLES.values()]
    return RouteBounds(max(b.routes for b in found), max(b.stops for b in found),
                       max(b.sides for b in found))
