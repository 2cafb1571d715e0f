"""Moves in a player's words: which exits a laid tile connects (issue 22).

A rotation index means nothing to a player; the sides a tile joins do. On the
1888 map's pointy-top hexes the edges 0–5 face SW, W, NW, NE, E, SE, on 1889's
flat-top ones S, SW, NW, N, NE, SE (``engine.hexgrid``); a tile laid at rotation r
turns edge e into (e + r) % 6
(RULES.md §6.5 #9). Each connection the tile's track makes is named
by the sides it joins, through its city or town when it has one: tile 57 at
rotation 1 is "W–E (city)", tile 8 at rotation 0 "SW–NW".
"""

from __future__ import annotations

from route18xx.engine.board.names import hex_words
from route18xx.engine.facts.gamedata import GameData, TileDef
from route18xx.engine.facts.hexgrid import EDGE_NAMES_BY_LAYOUT, rotate_edge
from route18xx.engine.suggest.suggest_report import MoveLayReport

#: The side each edge of a pointy-top hex faces (``engine.hexgrid``: SW, W, NW, NE, E, SE).
EDGE_NAMES: tuple[str, ...] = EDGE_NAMES_BY_LAYOUT["pointy"]


def tile_exits(tile: TileDef, rotation: int, layout: str) -> tuple[str, ...]:
    """The connections ``tile`` makes at ``rotation``, e.g. ``("W–E (city)",)``.

    Track from edge to edge is one connection per path ("NE–E", "NE–SE" for a
    tile whose two tracks share the NE side); track through a city or town joins
    all the exits of that stop into one ("SW–W–E (city)"); a stop with a single
    exit is a dead end ("SW (town)"). Exits in edge order; connections by their
    first exit. ``layout`` is the map's (``GameData.layout``): it names the sides.
    """
    names = EDGE_NAMES_BY_LAYOUT[layout]
    stops: dict[tuple[str, int], set[int]] = {}
    out: set[tuple[tuple[int, ...], str]] = set()
    for path in tile.paths:
        ends = (path.a, path.b)
        edges = sorted(rotate_edge(e.index, rotation) for e in ends if e.is_edge)
        nodes = [(e.kind, e.index) for e in ends if not e.is_edge]
        if not nodes:
            out.add((tuple(edges), ""))
        for node in nodes:
            stops.setdefault(node, set()).update(edges)
    for (kind, _), sides in stops.items():
        if sides:
            out.add((tuple(sorted(sides)), f" ({kind})"))
    return tuple("–".join(names[e] for e in group) + stop for group, stop in sorted(out))


def move_text(kind: str, hex_id: str, city: int | None, lays: tuple[MoveLayReport, ...],
              private: str | None, data: GameData) -> str:
    """A move in a player's words: "tile 57 on H12 (Tianjin) connects W–E (city)",
    "token on G11 (Zibo)"; a private's lay says whose."""

    def where(h: str) -> str:
        return hex_words(data.hexes[h]) if h in data.hexes else h

    if kind == "token":
        # the city counted from 1, as its stop is named ("Beijing (C9 city 2)"; issue 34)
        return f"token on {where(hex_id)}" + (f", city {city + 1}" if city else "")
    parts = [f"tile {lay.tile} on {where(lay.hex)} connects {', '.join(lay.exits) or 'nothing'}"
             for lay in lays]
    return " and ".join(parts) + (f" (with {private})" if private else "")


def connects(tile: TileDef, rotation: int, layout: str) -> str:
    """``"connects W–E (city)"``; connections joined by ", " (``tile_exits``)."""
    exits = tile_exits(tile, rotation, layout)
    return "connects " + ", ".join(exits) if exits else "connects nothing"


__all__ = ["EDGE_NAMES", "connects", "move_text", "tile_exits"]
