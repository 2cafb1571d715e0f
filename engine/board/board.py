"""The board: hex → (tile, rotation) and station tokens per city slot (DESIGN.md §2).

A ``Board`` is an immutable value. Hexes without a laid tile keep their
preprinted tile. Node ids read like 18xx.games signatures: ``"C9-1"`` is part
index 1 of the tile now on C9 (ROUTES.md §1.4).
"""

from __future__ import annotations

from typing import Iterator, Mapping, TypeAlias

from route18xx.engine.board.arrivals import TileArrivals, board_arrivals, tile_arrivals
from route18xx.engine.facts.gamedata import CorpId, GameData, HexDef, HexId, RevenueCenter, TileDef
from route18xx.engine.facts.geometry import BoardPath as BoardPath
from route18xx.engine.facts.geometry import EdgeKey as EdgeKey
from route18xx.engine.facts.geometry import PlacedTile as PlacedTile
from route18xx.engine.facts.geometry import TileGeometry, map_index
from route18xx.engine.facts.geometry import node_id as node_id
from route18xx.engine.facts.hexgrid import rotate_edge

NodeId: TypeAlias = str

#: ``split_node_id``'s answers for the ids of every node a loaded map can hold (each
#: hex × each node index a tile of its title has), filled from the game data alone
#: (``_node_ids``), never from a request: an answer reads back dozens of node ids,
#: and a lookup costs a fraction of the parse (issue 21).
_SPLIT: dict[NodeId, tuple[HexId, int]] = {}
#: The other way round: (hex, index) → ``node_id(hex, index)`` for the same nodes.
NODE_IDS: dict[tuple[HexId, int], NodeId] = {}


def _node_ids(data: GameData) -> int:
    """Put ``data``'s node ids in ``_SPLIT``; how many (held by ``data``: once each)."""
    tiles = [*data.tiles.values(), *(h.preprinted for h in data.hexes.values())]
    indexes = sorted({node.index for tile in tiles for node in tile.nodes})
    for hex_id in data.hexes:
        for index in indexes:
            key = (hex_id, index)
            NODE_IDS.setdefault(key, node_id(hex_id, index))
            _SPLIT.setdefault(NODE_IDS[key], key)
    return len(data.hexes) * len(indexes)


def split_node_id(node: NodeId) -> tuple[HexId, int]:
    """``"C9-1"`` → ("C9", 1). Raises ValueError when malformed."""
    known = _SPLIT.get(node)
    if known is not None:
        return known
    hex_id, sep, index = node.rpartition("-")
    if not sep or not index.isdigit() or not hex_id:
        raise ValueError(f"not a node id: {node!r}")
    return hex_id, int(index)


class Board:
    """Tiles and tokens on a title's map (``data``: its facts, always given: issue 33).
    Construct with the non-preprinted tiles."""

    def __init__(
        self,
        placed: Mapping[HexId, PlacedTile],
        tokens: Mapping[tuple[HexId, int], tuple[CorpId, ...]],
        data: GameData,
        arrivals: dict[HexId, TileArrivals] | None = None,
    ) -> None:
        """``arrivals``, when the caller has compiled them (``engine.board_file``, as it
        reads the tiles), must be ``board_arrivals(data, placed)``; else worked out at
        the first ask."""
        self.data = data
        self.placed: dict[HexId, PlacedTile] = dict(placed or {})
        self.tokens: dict[tuple[HexId, int], tuple[CorpId, ...]] = {
            k: tuple(v) for k, v in (tokens or {}).items() if v
        }
        self.data.derived(_node_ids)
        index = map_index(self.data)
        self._preprinted = index.preprinted
        self._sides = index.sides
        #: hex → the tile on it compiled for walks (its geometry within), every hex at
        #: the first ask (``arrivals``).
        self._arrivals = arrivals

    # -- tiles ---------------------------------------------------------------

    def hex(self, hex_id: HexId) -> HexDef:
        return self.data.hexes[hex_id]

    def tile_on(self, hex_id: HexId) -> PlacedTile:
        placed = self.placed.get(hex_id)
        return self._preprinted[hex_id] if placed is None else placed

    def geometry(self, hex_id: HexId) -> TileGeometry:
        """The precompiled geometry of the tile on ``hex_id`` (``engine.geometry``)."""
        arrivals = self._arrivals
        if arrivals is None:
            arrivals = self._all_arrivals()
        return arrivals[hex_id].geometry

    @property
    def arrivals(self) -> Mapping[HexId, TileArrivals]:
        """hex → the tile on it as a network walk reads it (``engine.arrivals``: its
        geometry, exits, and what a walk takes on arriving at each edge and node), for
        every hex of the map and every laid tile. Worked out once per board (a board is
        immutable): the map's preprinted tiles copied, the laid tiles' looked up (each
        compiled once per process). A walk indexes it instead of calling ``geometry``
        per hex (issue 21: a first-seen answer asks ~180 times)."""
        arrivals = self._arrivals
        return self._all_arrivals() if arrivals is None else arrivals

    def _all_arrivals(self) -> dict[HexId, TileArrivals]:
        # Copying the whole map and looking up each laid tile costs less than looking
        # up the ~25 hexes an answer touches one by one (measured, issue 21).
        arrivals = self._arrivals = board_arrivals(self.data, self.placed)
        return arrivals

    def paths_on(self, hex_id: HexId) -> tuple[BoardPath, ...]:
        return self.geometry(hex_id).paths

    def exits(self, hex_id: HexId) -> frozenset[int]:
        return self.geometry(hex_id).exits

    def revenue_center(self, hex_id: HexId, index: int) -> RevenueCenter | None:
        return self.geometry(hex_id).nodes.get(index)

    def nodes(self) -> Iterator[tuple[HexId, RevenueCenter]]:
        for hex_id in self.data.hexes:
            for node in self.tile_on(hex_id).tile.nodes:
                yield hex_id, node

    def across(self, hex_id: HexId, edge: int) -> EdgeKey | None:
        """The facing (hex, edge) across a side, if track may cross it.

        A side carries track when the neighbour is on the map and neither side
        has an impassable border (ROUTES.md §1.2; the map's side table,
        ``engine.geometry.MapIndex``). Whether both sides have track is the
        caller's question.
        """
        return self._sides[hex_id].get(edge)

    def linked_side(self, hex_id: HexId, edge: int) -> EdgeKey | None:
        """The facing (hex, edge) if both sides of this hex side carry track, else None
        (ROUTES.md §1.2: ``across`` the side, and the facing tile has an exit there)."""
        return self.linked((hex_id, edge))

    def linked(self, key: EdgeKey) -> EdgeKey | None:
        """``linked_side`` of the side ``key`` = (hex, edge)."""
        other = self._sides[key[0]].get(key[1])
        if other is None:
            return None
        arrivals = self._arrivals
        if arrivals is None:
            arrivals = self._all_arrivals()
        return other if other[1] in arrivals[other[0]].exits else None

    # -- tokens --------------------------------------------------------------

    def tokens_in(self, hex_id: HexId, city: int) -> tuple[CorpId, ...]:
        return self.tokens.get((hex_id, city), ())

    def token_cities(self, corp: CorpId) -> list[tuple[HexId, int]]:
        return sorted(k for k, v in self.tokens.items() if corp in v)

    def blocks(self, hex_id: HexId, index: int, corp: CorpId) -> bool:
        """Does this node stop ``corp``'s routes passing through? (ROUTES.md §3.8)

        Off-boards always block; a city blocks when every slot holds another
        company's token; towns never block. Reserved empty slots count as free.
        """
        return node_blocks(
            self.geometry(hex_id).nodes.get(index), self.tokens.get((hex_id, index), ()), corp,
            self.data.neutral_stations,
        )

    # -- edits (new boards) --------------------------------------------------

    def with_tile(self, hex_id: HexId, tile: TileDef, rotation: int) -> Board:
        """A new board with ``tile`` on ``hex_id``; tokens follow their city's exits.

        RULES.md §6.5 #8: a token moves to the city on the new tile that holds
        all the old city's exits.
        """
        old = self.tile_on(hex_id)
        placed = dict(self.placed)
        placed[hex_id] = PlacedTile(tile, rotation)
        tokens = dict(self.tokens)
        moved = {k: v for k, v in tokens.items() if k[0] == hex_id}
        for key in moved:
            del tokens[key]
        for (h, city), corps in moved.items():
            target = city_for_exits(old, city, PlacedTile(tile, rotation))
            key = (h, target)
            tokens[key] = tokens.get(key, ()) + corps
        board = Board(placed, tokens, self.data)
        if self._arrivals is not None:  # one hex differs: the rest stays as worked out
            arrivals = dict(self._arrivals)
            arrivals[hex_id] = tile_arrivals(self.data, hex_id, placed[hex_id])
            board._arrivals = arrivals
        return board

    def with_token(self, hex_id: HexId, city: int, corp: CorpId) -> Board:
        tokens = dict(self.tokens)
        tokens[(hex_id, city)] = tokens.get((hex_id, city), ()) + (corp,)
        return self.with_tokens(tokens)

    def with_tokens(self, tokens: Mapping[tuple[HexId, int], tuple[CorpId, ...]]) -> Board:
        """A new board with these tiles and ``tokens``. The tiles' geometry, if already
        worked out, stays shared: it depends on the tiles alone."""
        return Board(self.placed, tokens, self.data, self._arrivals)


def node_blocks(node: RevenueCenter | None, held: tuple[CorpId, ...], corp: CorpId,
                neutral: frozenset[CorpId]) -> bool:
    """``Board.blocks`` for the node ``node`` holding the tokens ``held`` (ROUTES.md §3.8):
    off-boards block; a city blocks when every slot holds another company's token, none of
    them a neutral station (``GameData.neutral_stations``: 1882's CN, 18xx.games
    ``City#blocks?``)."""
    if node is None:
        return False
    if node.kind == "offboard":
        return True
    if node.kind == "town":
        return False
    if corp in held or len(held) < node.slots:
        return False
    return not (neutral and any(c in neutral for c in held))


def city_exits(placed: PlacedTile, city: int) -> frozenset[int]:
    """The (rotated) edges joined by track to ``city`` on a placed tile."""
    out: set[int] = set()
    for p in placed.tile.paths:
        ends = (p.a, p.b)
        if any(e.kind == "city" and e.index == city for e in ends):
            out.update(rotate_edge(e.index, placed.rotation) for e in ends if e.is_edge)
    return frozenset(out)


def city_for_exits(old: PlacedTile, city: int, new: PlacedTile) -> int:
    """The city of ``new`` that keeps all exits of ``old``'s ``city`` (default: the first city)."""
    wanted = city_exits(old, city)
    cities = [c.index for c in new.tile.cities]
    for candidate in cities:
        if wanted <= city_exits(new, candidate):
            return candidate
    if len(cities) == len(old.tile.cities) and city in cities:
        return city
    return cities[0] if cities else city
