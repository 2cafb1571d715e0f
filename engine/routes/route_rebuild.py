"""Which chains a recorded route means: its connections read as 18xx.games reads them.

A ``run_routes`` route lists its connections as hex sequences (ROUTES.md §6);
on a hex with two cities, or two ways through a hex, one sequence can match
several chains of track. 18xx.games rebuilds the route like this
(``lib/engine/route.rb``, ``connection_data`` and ``find_pairwise_chain``;
HISTORY.md §1.1), and so does ``rebuild_route``:

* the candidates of a connection are in the site's order: by the node the
  chain starts from on the first hex, then the node it ends on, each in the
  order the tile's paths first reach it;
* a route of **one** connection takes the first candidate that touches a city
  the company has a token in and shares no path with the company's routes
  before it (the node hints are not read);
* a route of **several** connections takes, for each consecutive pair, the
  pairs of candidates that meet in exactly one node and share no path (with
  each other, or with the routes and pairs before); when there are several,
  the pair whose three nodes (the outer two and the one they meet in) match
  the most node hints wins, and ties — or no hints at all — take the first.

Node hints only break ties (``engine.route_reading.hinted_nodes``): a stale or
unreadable hint changes nothing. When the site's reading finds no route, or
its pairs disagree about a middle connection (the site then keeps an
inconsistent route), ``assign_chains`` searches every combination for one that
joins up, preferring hinted nodes and unshared paths, so that the judge can
say exactly what is wrong with the route rather than only that it is unreadable.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

from route18xx.engine.board.board import Board, NodeId, split_node_id
from route18xx.engine.routes.chains import Chain
from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.facts.gamedata import HexId, TileDef

#: Combinations of candidate chains tried in full before ``assign_chains`` goes greedy.
MAX_COMBINATIONS = 4096

#: A path of a placed tile: (hex, path index).
PathKey = tuple[HexId, int]


def site_order(board: Board, chains: Sequence[Chain]) -> list[Chain]:
    """``chains`` in 18xx.games' candidate order: by start node, then end node.

    The site walks ``start_hex.tile.nodes`` and then ``end_hex.tile.nodes``,
    where a tile's nodes are listed in the order its paths first reach them
    (``Tile#nodes``). The sort is stable, so chains between the same two nodes
    keep the order of the track walk.
    """
    if len(chains) < 2:  # most connections: one candidate, nothing to order
        return list(chains)
    return sorted(chains, key=lambda c: (_node_rank(board, c.start), _node_rank(board, c.end)))


def _node_rank(board: Board, node: NodeId) -> int:
    """Where the tile's paths first reach ``node`` (its index when no path does)."""
    hex_id, index = split_node_id(node)
    rank = board.tile_on(hex_id).tile.derived(_node_ranks).get(index)
    return 100 + index if rank is None else rank


def _node_ranks(tile: TileDef) -> dict[int, int]:
    """Each node index of ``tile`` → how many node ends its paths list before the
    first one on it (``Tile#nodes`` order; a fact of the tile, held by it: issue 21)."""
    ranks: dict[int, int] = {}
    rank = 0
    for path in tile.paths:
        for end in (path.a, path.b):
            if not end.is_edge:
                ranks.setdefault(end.index, rank)
                rank += 1
    return ranks


def rebuild_route(
    board: Board,
    corporation: str,
    options: Sequence[Sequence[Chain]],
    hints: Collection[NodeId],
    taken: Collection[PathKey] = (),
    cancel: CancelSignal | None = None,
) -> tuple[list[Chain], list[NodeId]] | None:
    """The chains and stops (in route order) the site reads ``options`` as.

    ``options`` holds each connection's candidate chains; ``hints`` the node ids
    the route's ``nodes`` name; ``taken`` the paths of the company's earlier
    routes in the same run. None when no combination of chains joins up.
    """
    ordered = [site_order(board, o) for o in options]
    if any(not o for o in ordered):
        return None
    if len(ordered) == 1:
        return _single(board, corporation, ordered[0], set(taken))
    if all(len(o) == 1 for o in ordered):  # the solver's routes: no choice anywhere
        site = _pairwise_one([o[0] for o in ordered], set(taken))
    else:
        site = _pairwise(ordered, hints, set(taken))
    if site is not None:
        return site
    return assign_chains(ordered, set(hints), cancel)


def _single(
    board: Board, corporation: str, candidates: Sequence[Chain], taken: set[PathKey]
) -> tuple[list[Chain], list[NodeId]]:
    """One connection: the first candidate with a company token and no taken path.

    With none, the first candidate, which the judge then refuses for what it lacks.
    """
    def tokened(node: NodeId) -> bool:
        return corporation in board.tokens_in(*split_node_id(node))

    pick = next(
        (c for c in candidates if (tokened(c.start) or tokened(c.end)) and taken.isdisjoint(c.paths)),
        candidates[0],
    )
    return [pick], [pick.start, pick.end]


def _pairwise(
    options: Sequence[Sequence[Chain]], hints: Collection[NodeId], taken: set[PathKey]
) -> tuple[list[Chain], list[NodeId]] | None:
    """``find_pairwise_chain`` over each consecutive pair of connections, as the site does."""
    chains: list[Chain] = []
    stops: list[NodeId] = []
    for i in range(len(options) - 1):
        firsts = [a for a in options[i] if taken.isdisjoint(a.paths)]
        seconds = [b for b in options[i + 1] if taken.isdisjoint(b.paths)]
        candidates: list[tuple[Chain, Chain, NodeId, NodeId, NodeId]] = []
        for a in firsts:
            for b in seconds:
                middle = {a.start, a.end} & {b.start, b.end}
                if len(middle) != 1 or not set(a.paths).isdisjoint(b.paths):
                    continue
                (join,) = middle
                candidates.append((a, b, a.other_end(join), b.other_end(join), join))
        if not candidates:
            return None
        a, b, left, right, join = max(
            candidates, key=lambda c: sum(1 for n in c[2:] if n in hints)
        )  # max keeps the first of equals: ties and no hints take the site's first
        if i == 0:
            chains.append(a)
            stops.extend((left, join))
        elif stops[-1] != join or chains[-1] != a:
            return None  # the pairs disagree about connection i: the site's route is not one walk
        chains.append(b)
        stops.append(right)
        taken |= set(a.paths)
    return chains, stops


def _pairwise_one(
    chains: Sequence[Chain], taken: set[PathKey]
) -> tuple[list[Chain], list[NodeId]] | None:
    """``_pairwise`` when each connection has one candidate chain: the same tests on
    each consecutive pair (no taken path, one node in common, no shared path, the
    pairs agreeing on the walk), with no choice to make and so no hint to read.

    A pair's paths are disjoint from the taken ones and from each other exactly when
    each chain's paths are disjoint from ``taken`` and the chains before it: one test
    per chain, ``taken`` growing as it goes (_pairwise_one ~-20 % CPU on the real
    states' answers; issue 21)."""
    stops: list[NodeId] = []
    first = chains[0]
    if not taken.isdisjoint(first.paths):
        return None
    taken.update(first.paths)
    for i in range(len(chains) - 1):
        a, b = chains[i], chains[i + 1]
        if not taken.isdisjoint(b.paths):
            return None
        taken.update(b.paths)
        middle = {a.start, a.end} & {b.start, b.end}
        if len(middle) != 1:
            return None
        (join,) = middle
        if i == 0:
            stops.extend((a.other_end(join), join))
        elif stops[-1] != join:
            return None  # the pairs disagree about connection i: not one walk
        stops.append(b.other_end(join))
    return list(chains), stops


def assign_chains(
    options: Sequence[Sequence[Chain]], wanted: set[NodeId], cancel: CancelSignal | None = None
) -> tuple[list[Chain], list[NodeId]] | None:
    """Pick one chain per connection so that consecutive chains share one end node.

    Prefers combinations whose nodes are hinted and that reuse no path. Past
    ``MAX_COMBINATIONS`` combinations it picks greedily, connection by
    connection, so a long route costs linear time.
    """
    size = 1
    for o in options:
        size *= max(len(o), 1)
        if size > MAX_COMBINATIONS:
            return _assign_greedily(options, wanted)
    best: tuple[int, list[Chain], list[NodeId]] | None = None
    for number, combo in enumerate(itertools.product(*options)):
        if number % 256 == 0:
            check_time(cancel, "route validation")
        stops = stop_order(list(combo))
        if stops is None:
            continue
        paths = [p for c in combo for p in c.paths]
        score = sum(1 for s in stops if s in wanted) * 2 - (len(paths) - len(set(paths))) * 10
        if best is None or score > best[0]:
            best = (score, list(combo), stops)
    return None if best is None else (best[1], best[2])


def _assign_greedily(
    options: Sequence[Sequence[Chain]], wanted: set[NodeId]
) -> tuple[list[Chain], list[NodeId]] | None:
    """For each way to start, follow the chains that continue from the last stop,
    preferring hinted nodes and unused paths; the best complete walk wins."""
    best: tuple[int, list[Chain], list[NodeId]] | None = None
    for first in options[0]:
        for start in (first.start, first.end):
            chains, stops, used = [first], [start, first.other_end(start)], set(first.paths)
            for o in options[1:]:
                fits = [c for c in o if stops[-1] in (c.start, c.end)]
                if not fits:
                    break
                pick = max(
                    fits,
                    key=lambda c: (c.other_end(stops[-1]) in wanted, not used & set(c.paths)),
                )
                chains.append(pick)
                stops.append(pick.other_end(stops[-1]))
                used |= set(pick.paths)
            else:
                score = sum(1 for s in stops if s in wanted)
                if best is None or score > best[0]:
                    best = (score, chains, stops)
    return None if best is None else (best[1], best[2])


def stop_order(chains: Sequence[Chain]) -> list[NodeId] | None:
    """Stops in route order, or None when consecutive chains do not meet at a stop."""
    if len(chains) == 1:
        return [chains[0].start, chains[0].end]
    first, second = chains[0], chains[1]
    for join in sorted({first.start, first.end} & {second.start, second.end}):
        stops = [first.other_end(join), join]
        for chain in chains[1:]:
            if stops[-1] not in (chain.start, chain.end):
                break
            stops.append(chain.other_end(stops[-1]))
        else:
            return stops
    return None


__all__ = ["MAX_COMBINATIONS", "assign_chains", "rebuild_route", "site_order", "stop_order"]
