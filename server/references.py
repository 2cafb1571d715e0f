"""Do the hexes and nodes a ValidateRoutes request names exist on its board?

The engine judges a route's legality; a route naming a hex that is not on the
map, or a node the tile on that hex does not have (``H14-7``), is not an illegal
route but an unreadable one: ``MalformedInput`` (INVALID_ARGUMENT), naming the
field. This is a lookup of names on the parsed board, not a rule; it belongs
with ``engine.routes.parse_route_specs`` and can move there unchanged.
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.board import split_node_id
from engine.errors import MalformedInput
from engine.state_file import RouteState


def check_route_references(state: RouteState, routes: Sequence[dict[str, Any]]) -> None:
    """Raise ``MalformedInput`` for the first unknown hex or node in ``routes``."""
    board = state.board
    hexes = board.data.hexes
    for i, route in enumerate(routes):
        for j, conn in enumerate(route.get("connections", [])):
            for k, hex_id in enumerate(conn):
                if hex_id not in hexes:
                    raise MalformedInput(
                        f"routes[{i}].connections[{j}].hexes[{k}]", f"unknown hex {hex_id!r}"
                    )
        for j, node in enumerate(route.get("nodes", [])):
            where = f"routes[{i}].nodes[{j}]"
            try:
                hex_id, index = split_node_id(node)
            except ValueError:
                raise MalformedInput(where, f"{node!r} is not a node id such as 'C9-1'") from None
            if hex_id not in hexes:
                raise MalformedInput(where, f"node {node}: unknown hex {hex_id!r}")
            if board.revenue_center(hex_id, index) is None:
                tile = board.tile_on(hex_id).tile
                have = [n.index for n in tile.nodes]
                raise MalformedInput(
                    where, f"node {node} does not exist: tile {tile.name} on {hex_id} has nodes {have}"
                )
