"""A route as 18xx.games records it in a ``run_routes`` action (ROUTES.md §6): the one route type.

The validator (``engine.route_judge``) reads a route's ``train``, ``connections``
and ``nodes``; a route read from a game log also keeps the figures the log
recorded (``hexes``, ``revenue``, ``subsidy``), which the replay compares with
the engine's. The solver's routes come back in this type too (``engine.optimize``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from route18xx.engine.board.board import NodeId
from route18xx.engine.facts.gamedata import HexId


@dataclass(frozen=True)
class RouteSpec:
    """Train id, one hex list per chain, the stop node ids, and the recorded figures."""

    train: str
    connections: tuple[tuple[HexId, ...], ...]
    nodes: tuple[NodeId, ...] = ()
    #: As the log recorded them (a route read from a ``run_routes`` action).
    hexes: tuple[HexId, ...] = ()
    revenue: int = 0
    subsidy: int = 0
    #: Whether the log wrote ``revenue`` / ``subsidy`` at all: routes before 2024-09
    #: carry no ``subsidy``, and 18xx.games then works it out from the route's stops
    #: (``Route#subsidy``, HISTORY.md §1.3); so does the replay (``engine.game.routing``).
    has_revenue: bool = field(default=True, compare=False)
    has_subsidy: bool = field(default=True, compare=False)

    def as_json(self) -> dict[str, Any]:
        """The route in the log's ``run_routes`` shape (without ``revenue_str``)."""
        return {
            "train": self.train,
            "connections": [list(c) for c in self.connections],
            "hexes": list(self.hexes),
            "nodes": list(self.nodes),
            "revenue": self.revenue,
            "subsidy": self.subsidy,
        }


__all__ = ["RouteSpec"]
