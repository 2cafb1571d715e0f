"""A train's hex path read as a route: where it stops, by the track laid (ROUTES.md §1.5, §6).

A player builds a route hex by hex (the page's "try your own route", issue 34 item 6);
18xx.games writes the same route as connections, one hex list from stop to stop
(ROUTES.md §6). Where the path stops is a fact of the track, not of the picture: a hex
that holds a stop may be passed without stopping when its track runs past the stop
(1830's Altoona bypass, H12 edge 1 to edge 4, 1830 ROUTES.md §1.3), so cutting the
path at every hex that draws a stop reads such a route wrongly.

``read_hex_path`` lists every way the track lets the path be cut into chains
(``engine.routes.chains``: a chain runs between two nodes and never passes through
one), consecutive chains meeting in one node. When several cuts fit — a hex where
the path may either stop or run past the stop — the reading the checker finds the
fewest faults in wins (``judge_routes`` on the route alone: a full city passed
through, ROUTES.md §3.8, or a train run too far, §3.6, is a fault), and among
readings as good, the one that **stops where the path can stop**, earliest first.
So an open Altoona between two cities is a stop (it pays), a full one is run past
on the bypass.

Hexes after the last stop the track reaches are ``open``: the route does not reach a
stop there yet. Where the track does not carry the path at all, the rest is cut at
the hexes that hold a stop, as the board draws them, so that the checker can say what
is wrong (``NO_TRACK``) instead of the route vanishing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from route18xx.engine.board.board import Board, NodeId
from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import HexId
from route18xx.engine.facts.geometry import map_index
from route18xx.engine.inputs import fields as f
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.routes.chains import find_chains
from route18xx.engine.routes.route_bounds import route_bounds
from route18xx.engine.routes.route_judge import JudgedRoute, judge_routes
from route18xx.engine.declared import Declared
from route18xx.engine.routes.route_spec import RouteSpec

#: Readings of one path judged at most (each a way to cut it): a path has a choice only
#: at a hex where it may stop or run past the stop, a handful on any real route.
MAX_READINGS: Final = 64


class HexPathReading(Declared, frozen=True):
    """One train's hex path as the checker reads it: the ``connections`` it is cut into
    (none while the path reaches no second stop), the stops it makes (as the checker reads
    them), and the hexes after the last stop reached (``open``). Its JSON is the
    declaration's (``engine/declared.py``)."""

    train: str
    connections: tuple[tuple[HexId, ...], ...]
    nodes: tuple[NodeId, ...]
    open: tuple[HexId, ...]

    @property
    def route(self) -> RouteSpec | None:
        """The route the checker judges, or None while the path makes fewer than two stops."""
        return RouteSpec(train=self.train, connections=self.connections) if self.connections else None


def read_hex_paths(
    state: RouteState, raw: Any, field_name: str = "hex_paths", cancel: CancelSignal | None = None,
) -> list[HexPathReading]:
    """Each ``{"train": id, "hexes": [hex, …]}`` of ``raw`` read as a route (``read_hex_path``).

    ``MalformedInput`` naming the field: not a list, more paths than the company has
    trains (one route per train, RULES.md §6.7), a train id or hex id of the wrong shape,
    a hex off the map, or a path longer than the map has hex sides (a route crosses each
    side once, ROUTES.md §3.7).
    """
    if not isinstance(raw, list):
        raise MalformedInput(field_name, f"must be a list of hex paths, not {excerpt(raw)}")
    if len(raw) > len(state.trains):
        raise MalformedInput(field_name, f"lists {len(raw)} paths; {state.corporation.sym} has "
                             f"{len(state.trains)} trains (one route per train, RULES.md §6.7)")
    board = state.board
    bounds = route_bounds(board.data)
    out = []
    for i, item in enumerate(raw):
        where = f"{field_name}[{i}]"
        if not isinstance(item, dict):
            raise MalformedInput(where, "must be an object with 'train' and 'hexes'")
        train = f.name_value(item.get("train"), f"{where}.train", what="a train id such as '2-0'")
        hexes = item.get("hexes")
        if not isinstance(hexes, list):
            raise MalformedInput(f"{where}.hexes", "must be a list of hex ids")
        if len(hexes) > bounds.sides + 1:
            raise MalformedInput(f"{where}.hexes", f"lists {len(hexes)} hexes; a route crosses each "
                                 f"of the map's {bounds.sides} hex sides once (ROUTES.md §3.7)")
        path = tuple(f.name_value(h, f"{where}.hexes[{k}]", shape=f.HEX_ID, what="a hex id")
                     for k, h in enumerate(hexes))
        for k, h in enumerate(path):
            if h not in board.data.hexes:
                raise MalformedInput(f"{where}.hexes[{k}]", f"{h} is not a hex of the map")
        out.append(read_hex_path(state, train, path, cancel))
    return out


def read_hex_path(
    state: RouteState, train: str, hexes: Sequence[HexId], cancel: CancelSignal | None = None,
) -> HexPathReading:
    """``hexes`` (in travel order) as ``train``'s route on ``state``'s board: cut where the
    track lets it stop, the reading with the fewest faults first and, among those, the
    one that stops where it can, earliest first (see the module's docstring).

    The track's readings reach as far along the path as the track joins stops; past the
    furthest stop they reach, the path is cut at the hexes that draw a stop (the checker
    then names the connection with no track), and the hexes after the last cut are
    ``open``. A path that makes no connection is all ``open``, with no route.
    """
    board = state.board
    hexes = tuple(hexes)
    end, readings = _furthest_readings(board, hexes, cancel)
    tail = [k for k in range(end + 1, len(hexes)) if _draws_stop(board, hexes[k])]
    chosen = (readings or [(0,)])[0]
    fewest = -1
    for cuts in readings if len(readings) > 1 else ():  # a choice: the fewest faults wins
        faults = len(_judge(state, train, hexes, cuts, cancel).violations)
        if fewest < 0 or faults < fewest:
            chosen, fewest = cuts, faults
        if not faults:
            break
    stops = list(chosen) + tail
    if len(stops) < 2:
        return HexPathReading(train, (), (), hexes)
    judged = _judge(state, train, hexes, stops, cancel)
    return HexPathReading(train, _connections(hexes, stops), tuple(judged.stops),
                          hexes[stops[-1] + 1:])


def _connections(hexes: tuple[HexId, ...], stops: Sequence[int]) -> tuple[tuple[HexId, ...], ...]:
    return tuple(hexes[a:b + 1] for a, b in zip(stops, stops[1:]))


def _judge(state: RouteState, train: str, hexes: tuple[HexId, ...], stops: Sequence[int],
           cancel: CancelSignal | None) -> JudgedRoute:
    """The route cut at ``stops`` judged alone by the one checker (``judge_routes``)."""
    spec = RouteSpec(train=train, connections=_connections(hexes, stops))
    (judged,) = judge_routes(state, [spec], cancel).routes
    return judged


def _furthest_readings(
    board: Board, hexes: tuple[HexId, ...], cancel: CancelSignal | None,
) -> tuple[int, list[tuple[int, ...]]]:
    """The furthest position of ``hexes`` a reading by track stops at, and the cut
    positions of each reading that stops there, in the order preferred (stopping
    earliest first; at most ``MAX_READINGS``); ``(0, [])`` when no chain starts the path."""
    best_end = 0
    found: list[tuple[int, ...]] = []
    for cuts in _readings(board, hexes, cancel):
        if cuts[-1] > best_end:
            best_end, found = cuts[-1], [cuts]
        elif cuts[-1] == best_end and len(found) < MAX_READINGS:
            found.append(cuts)
    return best_end, found


def _readings(
    board: Board, hexes: tuple[HexId, ...], cancel: CancelSignal | None,
) -> Iterator[tuple[int, ...]]:
    """Every way the track cuts a prefix of ``hexes`` into chains, each starting at the
    node the one before ends at, as the cut positions (0 first); each maximal (no chain
    goes on from its last stop). Depth first, an earlier stop before a later one. A
    chain spans no side of the path that carries no track on both hexes, so the search
    never looks past such a side; it stops after ``4 * MAX_READINGS`` readings."""
    n = len(hexes)
    # the furthest position a chain starting at each position may reach (the track's gaps)
    reach = list(range(n))
    for k in range(n - 2, -1, -1):
        if _joined(board, hexes[k], hexes[k + 1]):
            reach[k] = reach[k + 1]
    count = 0

    def walk(at: int, node: NodeId | None, cuts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        nonlocal count
        went_on = False
        for j in range(at + 1, reach[at] + 1):
            check_time(cancel, "reading the hex path")
            chains = find_chains(board, hexes[at:j + 1])
            ends = dict.fromkeys(c.end for c in chains if node is None or c.start == node)
            for end in ends:
                if end == node or count >= 4 * MAX_READINGS:
                    continue
                went_on = True
                yield from walk(j, end, cuts + (j,))
        if not went_on and len(cuts) > 1:
            count += 1
            yield cuts

    yield from walk(0, None, (0,))


def _joined(board: Board, a: HexId, b: HexId) -> bool:
    """Whether ``a`` and ``b`` are neighbours with track on both sides of the side they share."""
    for edge, (there, facing) in map_index(board.data).sides[a].items():
        if there == b:
            arrivals = board.arrivals
            return bool(arrivals[a].geometry.at_edge.get(edge)) and bool(
                arrivals[b].geometry.at_edge.get(facing))
    return False


def _draws_stop(board: Board, hex_id: HexId) -> bool:
    """Whether the hex's tile holds a stop (a city, a town, an off-board), as the board draws it."""
    return bool(board.tile_on(hex_id).tile.nodes)
