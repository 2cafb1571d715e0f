"""Reading a route as 18xx.games writes it in ``run_routes`` (ROUTES.md §6, HISTORY.md §1.1).

The one reader for both places a route comes from: a check request (``route18xx
check``, ``ValidateRoutes``, a drawing's recorded routes) and a game log's
``run_routes`` action. It checks what a route's *shape* must be — a train id,
a non-empty list of connections, each at least two hex ids, lengths within
what any board allows (``engine.route_bounds``) — and refuses anything else as
``MalformedInput`` naming the field.

``nodes`` are different: 18xx.games reads them only as a **hint** to choose
between candidate node paths of a connection chain, and old logs write them in
forms today's engine no longer writes (HISTORY.md §1.1): absent (until
2022-02-10), ``HEX-TILENAME-INDEX`` (``C9-C9-0``, 2022-02-11 → 2022-02-17) or
``HEX-INDEX`` (``C9-0``, since). A route keeps its ``nodes`` strings exactly as
written (re-serialising an old action writes them back unchanged);
``hinted_nodes`` reads the ones it can, as node ids, and skips the rest. A
stale or unreadable hint is never a refusal: only the list's own shape (a list
of short strings, no longer than a board has stops) is checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from route18xx.engine.board.board import NodeId
from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import GameData
from route18xx.engine.inputs import fields as f
from route18xx.engine.routes.route_bounds import RouteBounds, route_bounds
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.titles import example

#: A node hint of either form: ``<hex>-<index>`` or ``<hex>-<tile name>-<index>``
#: (HISTORY.md §1.1); the tile name of the older form is not needed to find the node.
_HINT: Final = re.compile(r"([A-Z]{1,2}[0-9]{1,3})-(?:[A-Za-z0-9_./]{1,32}-)?([0-9]{1,2})")


def hinted_nodes(nodes: Iterable[str]) -> frozenset[NodeId]:
    """The node ids a route's ``nodes`` hint at, in either form; unreadable ones skipped.

    >>> sorted(hinted_nodes(["C9-C9-0", "B6-56-1", "C5-0", "nonsense", "F16"]))
    ['B6-1', 'C5-0', 'C9-0']
    """
    out: set[NodeId] = set()
    for text in nodes:
        match = _HINT.fullmatch(text)
        if match is not None:
            out.add(f"{match.group(1)}-{int(match.group(2))}")
    return frozenset(out)


def read_routes(raw: Any, data: GameData, field_name: str = "routes") -> list[RouteSpec]:
    """The ``routes`` array of a run_routes action (or an object holding one).

    Lengths are bounded before any route is read (``engine.route_bounds``): at
    most one route per train a company can hold (RULES.md §6.9 #3).
    """
    if isinstance(raw, Mapping):
        if "routes" not in raw:
            raise MalformedInput(field_name, "must be a list of routes or an object with 'routes'")
        raw = raw["routes"]
    if not isinstance(raw, list):
        raise MalformedInput(field_name, "must be a list of routes")
    bounds = route_bounds(data)
    if len(raw) > bounds.routes:
        raise MalformedInput(
            field_name,
            f"lists {len(raw)} routes; a company runs at most {bounds.routes} trains "
            "(one route per train, train limit RULES.md §6.9 #3)",
        )
    return [read_route(item, f"{field_name}[{i}]", bounds) for i, item in enumerate(raw)]


def read_route(raw: Any, where: str, bounds: RouteBounds, *, hexes_only: bool = False) -> RouteSpec:
    """One route: its shape checked, its ``nodes`` kept as written (a hint, never refused).

    With ``hexes_only`` (a game log's ``run_routes``), a route may be written by its
    ``hexes`` alone, as 18xx.games logs of 2020 write it (1889's 314; ``Route.new(hexes:)``):
    its ``connections`` are then empty, for the game to read from its track
    (``engine.game.routing``).

    A route has fewer connections than any board has stops (ROUTES.md §3.5) and
    crosses no more hex sides than the map has (ROUTES.md §3.7). ``revenue``
    and ``subsidy`` are what a log recorded (0 when absent: a check request has
    none, and logs before 2024-09 carry no ``subsidy``, HISTORY.md §1.3).
    """
    if not isinstance(raw, Mapping):
        raise MalformedInput(where, "must be an object")
    train = raw.get("train")
    if not isinstance(train, str) or not train:
        raise MalformedInput(f"{where}.train", "is missing or not a train id such as '2-0'")
    f.name_value(train, f"{where}.train", what="a train id such as '2-0'")
    conns = raw.get("connections")
    if hexes_only and conns is None and isinstance(raw.get("hexes"), list):
        conns = []
    elif not isinstance(conns, list) or not conns:
        raise MalformedInput(f"{where}.connections", "must be a non-empty list of hex lists")
    if len(conns) >= bounds.stops:
        raise MalformedInput(
            f"{where}.connections",
            f"lists {len(conns)} connections; a route stops at each of the map's at most "
            f"{bounds.stops} stops once (ROUTES.md §3.5)",
        )
    connections = []
    entries = 0
    for j, conn in enumerate(conns):
        field = f"{where}.connections[{j}]"
        if not isinstance(conn, list) or len(conn) < 2 or not all(isinstance(h, str) for h in conn):
            raise MalformedInput(field, "must list at least two hex ids")
        entries += len(conn) - 1
        if entries > bounds.sides:
            raise MalformedInput(
                field,
                f"the route crosses more than the map's {bounds.sides} hex sides; it may "
                "cross each side once (ROUTES.md §3.7)",
            )
        connections.append(
            tuple(f.name_value(h, f"{field}[{k}]", shape=f.HEX_ID, what="a hex id") for k, h in enumerate(conn))
        )
    return RouteSpec(
        train=train,
        connections=tuple(connections),
        nodes=_node_hints(raw, where, bounds),
        hexes=f.names(raw, "hexes", where, shape=f.HEX_ID, what="a hex id", default=()),
        revenue=f.whole(raw, "revenue", where, low=0, high=f.MAX_MONEY, default=0),
        subsidy=f.whole(raw, "subsidy", where, low=0, high=f.MAX_MONEY, default=0),
        has_revenue=raw.get("revenue") is not None,
        has_subsidy=raw.get("subsidy") is not None,
    )


def _node_hints(raw: Mapping[str, Any], where: str, bounds: RouteBounds) -> tuple[NodeId, ...]:
    """``nodes`` as written: a list of short strings, no longer than a board has stops."""
    nodes = raw.get("nodes")
    if nodes is None:
        return ()
    if not isinstance(nodes, list):
        raise MalformedInput(
            f"{where}.nodes", f"must be a list of node ids such as '{example('node')}', not {excerpt(nodes)}"
        )
    if len(nodes) > bounds.stops:
        raise MalformedInput(
            f"{where}.nodes",
            f"lists {len(nodes)} nodes; the map holds at most {bounds.stops} stops (ROUTES.md §3.5)",
        )
    return tuple(
        f.name_value(n, f"{where}.nodes[{j}]", what=f"a node id such as '{example('node')}'")
        for j, n in enumerate(nodes)
    )


__all__ = ["hinted_nodes", "read_route", "read_routes"]
