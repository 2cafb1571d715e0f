"""One hex of the 1888 map as SVG: ground, terrain and cost, borders, the printed or
laid tile (track, cities with slots and tokens, towns, off-boards, revenues), names,
labels, home and destination markers.

Every track path is one ``<path class="track" data-hex data-path>`` whose ``d``
starts and ends at the path's two ends, so a reader can check its geometry.
"""

from __future__ import annotations

from html import escape

import math
from typing import Callable, Iterable, Mapping

from route18xx.draw.geometry import (
    CORNERS, Layout, Point, edge_corners, edge_direction, edge_midpoint,
)

from route18xx.draw.svg import attrs, num, points, text, text_color_on
from route18xx.draw.tracks import TileShape, tile_shape
from route18xx.engine.api import CorporationView, HexView, NodeView, money
from route18xx.engine.api import place_name as api_place_name

#: 18xx.games' tile and map colours.
COLORS: Mapping[str, str] = {
    "white": "#EAE0C8", "yellow": "#FDE900", "green": "#71BF44", "brown": "#CB7745",
    "gray": "#BCBDC0", "red": "#EC232A", "blue": "#35A7FF", "black": "#222",
}
#: The phase colours a revenue box may show, oldest first (black: 1856's off-boards).
PHASE_COLORS = ("yellow", "green", "brown", "gray", "black")
#: Revenue columns paid by train rather than by phase, with their box colour and the
#: train letter written before the value (1889's off-boards pay a D its diesel value).
TRAIN_COLUMNS: Mapping[str, tuple[str, str]] = {"diesel": ("#D8D8D8", "D")}
TRACK = "#000"
CITY_R = 0.22
TOWN_R = 0.09
#: City names in hex sizes: 11 units, so 11 CSS px wherever the board is drawn at 1:1
#: or larger (issue 22: every label readable at the page's default zoom on a desk).
NAME_SIZE = 0.22
#: A halo in the map's background colour keeps a name legible over track and tiles (a
#: stroked copy under the name: rasterisers without ``paint-order`` draw it right too).
HALO = 'stroke="#fbfaf6" stroke-width="3.5" stroke-linejoin="round" aria-hidden="true"'


def title(body: str) -> str:
    """An SVG ``<title>``: the tooltip a browser shows on hover (and a screen reader reads)."""
    return f"<title>{escape(body)}</title>"


def place_name(h: HexView) -> str:
    """The hex's printed name as players read it (``engine.api.place_name``: "Harbour")."""
    return api_place_name(h.location_name)


def location_svg(layout: Layout, h: HexView) -> str:
    """The hex's name on the top layer of the picture, above tokens and routes, so neither
    covers it (drawn after the routes by ``picture``)."""
    name = place_name(h)
    if not name:
        return ""
    c = layout.center(h.x, h.y)
    size = NAME_SIZE * layout.size
    # "Chaoyang & Jinzhou" on two lines: one line would run over both neighbours' names
    head, sep, tail = name.partition(" & ")
    lines = [head + " &", tail] if sep else [name]
    top = c[1] - (0.8 if sep else 0.72) * layout.size
    out = []
    for i, line in enumerate(lines):
        y = top + i * size
        out.append(text(c[0], y, line, size, fill="#fbfaf6", cls="location-halo", extra=HALO)
                   + text(c[0], y, line, size, cls="location", extra=f'data-hex="{h.id}"'))
    return "".join(out)


def hex_polygon(layout: Layout, c: Point) -> str:
    return points(layout.to_page(c, p) for p in CORNERS)


def piece_d(layout: Layout, c: Point, shape: TileShape, index: int) -> str:
    piece = shape.pieces[index]
    x0, y0 = layout.to_page(c, piece.start)
    x1, y1 = layout.to_page(c, piece.end)
    if piece.arc is None:
        return f"M{num(x0)} {num(y0)} L{num(x1)} {num(y1)}"
    r = piece.arc.radius * layout.size
    return f"M{num(x0)} {num(y0)} A{num(r)} {num(r)} 0 0 {piece.sweep} {num(x1)} {num(y1)}"


def _terrain(layout: Layout, c: Point, h: HexView, fmt: str) -> list[str]:
    """Mountain, water and Great Wall symbols with the cost, low in the hex (unlaid only)."""
    if not h.terrain or h.tile is not None:
        return []
    s = layout.size
    x, y = c[0], c[1] + 0.55 * s
    kinds = {k for _, ks in h.terrain for k in ks}
    out = []
    icon_x = x - 0.28 * s
    if "mountain" in kinds:
        out.append(f'<polygon class="mountain" points="{points([(icon_x - 0.16 * s, y + 0.1 * s), (icon_x, y - 0.14 * s), (icon_x + 0.16 * s, y + 0.1 * s)])}" fill="#8B5A2B" stroke="#5a3a1a" stroke-width="1"/>')
    elif "water" in kinds:
        for dy in (-0.06, 0.06):
            yy = y + dy * s
            out.append(
                f'<path class="water" d="M{num(icon_x - 0.16 * s)} {num(yy)} q{num(0.08 * s)} {num(-0.07 * s)} {num(0.16 * s)} 0 '
                f't{num(0.16 * s)} 0" fill="none" stroke="#1f6fd0" stroke-width="2"/>')
    out.append(text(x + 0.1 * s, y, money(h.terrain_cost, fmt), 0.24 * s, cls="cost"))
    return out


def _wall(layout: Layout, c: Point) -> str:
    """The ``wall`` mark: a crenellated line across the top of the hex (1888's Great
    Wall, RULES.md §7.4)."""
    s = layout.size
    x0, y = c[0] - 0.5 * s, c[1] - 0.62 * s
    step = 0.125 * s
    d = [f"M{num(x0)} {num(y)}"]
    for i in range(8):
        up = -0.06 * s if i % 2 == 0 else 0.0
        d.append(f"L{num(x0 + i * step)} {num(y + up)} L{num(x0 + (i + 1) * step)} {num(y + up)}")
    return f'<path class="wall" d="{" ".join(d)}" fill="none" stroke="#7a6a58" stroke-width="2.5"/>'


#: How each hex mark of the data (``HexView.marks``) is drawn; a mark not listed is not drawn.
MARKS: dict[str, Callable[[Layout, Point], str]] = {"wall": _wall}


def _borders(layout: Layout, c: Point, h: HexView, edges: Iterable[int]) -> list[str]:
    out = []
    for e in edges:
        a, b = (layout.to_page(c, p) for p in edge_corners(e))
        out.append(f'<line class="impassable" x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" '
                   f'y2="{num(b[1])}" stroke="#d00000" stroke-width="5" stroke-linecap="round"/>')
    return out


def _revenue_boxes(layout: Layout, x: float, y: float, node: NodeView, current: str) -> list[str]:
    """Phase revenues as coloured boxes, one per colour the map prints (1888's Xi'an:
    yellow, green, brown, gray; 1830's off-boards: yellow and brown, 1830 ROUTES.md
    §4.1), the box that pays now framed (in a green phase, 1830's yellow); then a column
    paid by train (``TRAIN_COLUMNS``: 1889's diesel value, written "D100")."""
    s = layout.size
    w, hgt = 0.34 * s, 0.26 * s
    colors = [c for c in (*PHASE_COLORS, *TRAIN_COLUMNS) if c in node.printed_revenue]
    current = node.printed_color(current) or current
    left = x - w * len(colors) / 2
    out = [f'<g class="revenue" data-node="{node.kind}-{node.index}">']
    for i, color in enumerate(colors):
        bx = left + i * w
        frame = ' stroke="#000" stroke-width="2.5"' if color == current else ' stroke="#555" stroke-width="0.6"'
        fill, prefix = TRAIN_COLUMNS.get(color, (COLORS.get(color, "#fff"), ""))
        out.append(f'<rect x="{num(bx)}" y="{num(y - hgt / 2)}" width="{num(w)}" height="{num(hgt)}" '
                   f'fill="{fill}"{frame}/>')
        label = f"{prefix}{node.printed_revenue[color]}"
        ink = {"fill": "#fff"} if color == "black" else {}  # white on the black box
        out.append(text(bx + w / 2, y, label, (0.15 if prefix else 0.2) * s, weight="bold", **ink))
    out.append("</g>")
    return out


def _revenue_disc(layout: Layout, p: Point, value: int) -> list[str]:
    s = layout.size
    return [f'<circle cx="{num(p[0])}" cy="{num(p[1])}" r="{num(0.15 * s)}" fill="#fff" stroke="#000" stroke-width="1"/>',
            text(p[0], p[1], str(value), 0.17 * s, weight="bold", cls="revenue")]


def _slot_centers(n: int) -> list[Point]:
    r = CITY_R
    if n <= 1:
        return [(0.0, 0.0)]
    if n == 2:
        return [(-r, 0.0), (r, 0.0)]
    if n == 3:
        return [(-r, r * 0.6), (r, r * 0.6), (0.0, -r * 1.1)]
    return [(-r, -r), (r, -r), (-r, r), (r, r)]


def _stop_name(hexv: HexView, node: NodeView, stops: Mapping[str, str]) -> str:
    """The stop's one name (the engine's); without names, its hex and place."""
    name = place_name(hexv)
    return stops.get(f"{hexv.id}-{node.index}") or (f"{hexv.id} {name}" if name else f"{hexv.id} {node.kind}")


def _stop_title(hexv: HexView, node: NodeView, revenue_color: str, fmt: str,
                stops: Mapping[str, str]) -> str:
    """Hover help for a stop: its one name (``stops``, by node id), value this phase, who is
    there."""
    parts = [f"{_stop_name(hexv, node, stops)} ({node.kind})",
             f"{money(node.revenue.get(revenue_color, 0), fmt)} this phase"]
    if node.tokens:
        parts.append("tokens: " + ", ".join(node.tokens))
    if node.reserved:
        parts.append("reserved for " + ", ".join(node.reserved))
    free = max(node.slots - len(node.tokens) - len(node.reserved), 0)
    if node.kind == "city":
        parts.append(f"{free} free slot{'s' if free != 1 else ''}")
    return title(" · ".join(parts))


def _city(layout: Layout, c: Point, pos: Point, hexv: HexView, node: NodeView,
          corps: Mapping[str, CorporationView], revenue_color: str, fmt: str,
          stops: Mapping[str, str]) -> list[str]:
    s = layout.size
    px, py = layout.to_page(c, pos)
    slots = _slot_centers(max(node.slots, 1))
    out = [f'<g class="city" data-node="{hexv.id}-{node.index}">',
           _stop_title(hexv, node, revenue_color, fmt, stops)]
    if len(slots) > 1:
        xs = [p[0] for p in slots]
        ys = [p[1] for p in slots]
        out.append(
            f'<rect x="{num(px + (min(xs) - CITY_R) * s)}" y="{num(py + (min(ys) - CITY_R) * s)}" '
            f'width="{num((max(xs) - min(xs) + 2 * CITY_R) * s)}" height="{num((max(ys) - min(ys) + 2 * CITY_R) * s)}" '
            f'rx="{num(CITY_R * s)}" fill="#fff" stroke="#000" stroke-width="2"/>')
    reserved = list(node.reserved)
    for i, (sx, sy) in enumerate(slots):
        x, y = px + sx * s, py + sy * s
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(CITY_R * s)}" fill="#fff" stroke="#000" stroke-width="2"/>')
        if i < len(node.tokens):
            out.extend(_token(layout, x, y, corps.get(node.tokens[i]), node.tokens[i], hexv.id, node.index))
        elif reserved:
            corp = reserved.pop(0)
            color = corps[corp].color if corp in corps else "#888"
            out.append(f'<circle class="home" cx="{num(x)}" cy="{num(y)}" r="{num(CITY_R * s * 0.8)}" fill="none" '
                       f'stroke="{color}" stroke-width="2.5" stroke-dasharray="3 2"/>')
            out.append(text(x, y, corp, 0.13 * s, fill="#333", cls="home-label"))
    out.append("</g>")
    return out


def _token(layout: Layout, x: float, y: float, corp: CorporationView | None, sym: str,
           hex_id: str, city: int) -> list[str]:
    s = layout.size
    color = corp.color if corp else "#888"
    return [
        f'<circle {attrs(class_="token", data_corporation=sym, data_hex=hex_id, data_city=city)} '
        f'cx="{num(x)}" cy="{num(y)}" r="{num(CITY_R * s * 0.88)}" fill="{color}" stroke="#000" stroke-width="1"/>',
        text(x, y, sym, 0.16 * s, weight="bold", fill=text_color_on(color), cls="token-label"),
    ]


def _town(layout: Layout, c: Point, pos: Point, bar: Point | None, hover: str = "") -> str:
    s = layout.size
    x, y = layout.to_page(c, pos)
    if bar is None:
        return f'<circle class="town" cx="{num(x)}" cy="{num(y)}" r="{num(TOWN_R * s)}" fill="#000">{hover}</circle>'
    angle = math.degrees(math.atan2(bar[1], bar[0])) + 90.0
    w, hh = 0.34 * s, 0.1 * s
    return (f'<rect class="town" x="{num(x - w / 2)}" y="{num(y - hh / 2)}" width="{num(w)}" height="{num(hh)}" '
            f'fill="#000" transform="rotate({num(angle)} {num(x)} {num(y)})">{hover}</rect>')


def _offboard(layout: Layout, c: Point, pos: Point, h: HexView) -> str:
    """An arrowhead where track leaves the map (red and blue off-boards)."""
    s = layout.size
    x, y = layout.to_page(c, pos)
    exits = [p.a[1] if p.a[0] == "edge" else p.b[1] for p in h.paths]
    tri = [(0.0, -0.16), (0.14, 0.08), (-0.14, 0.08)]
    if exits:
        dx, dy = layout.turn(edge_direction(exits[0]))
        a = math.atan2(-dy, -dx) + math.pi / 2
        tri = [(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a)) for px, py in tri]
    return f'<polygon class="offboard" points="{points((x + px * s, y + py * s) for px, py in tri)}" fill="#000"/>'


def _marker_row(layout: Layout, c: Point, h: HexView, corps: Mapping[str, CorporationView]) -> list[str]:
    """Destination flags: a small disc in the company's colour with its symbol and a ring."""
    s = layout.size
    out = []
    for i, sym in enumerate(h.destination_of):
        corp = corps.get(sym)
        color = corp.color if corp else "#888"
        x, y = c[0] + (0.42 - 0.3 * i) * s, c[1] - 0.42 * s
        out.append(f'<g {attrs(class_="destination", data_corporation=sym, data_hex=h.id)}>'
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(0.15 * s)}" fill="{color}" stroke="#000" '
                   f'stroke-width="1.5" stroke-dasharray="2 1.5"/>'
                   + text(x, y, sym, 0.11 * s, weight="bold", fill=text_color_on(color)) + "</g>")
    return out


def hex_title(h: HexView, revenue_color: str, fmt: str, stops: Mapping[str, str] | None = None) -> str:
    """The hover text of a hex (issue 22: ``<title>`` on hexes): where, what is laid,
    each stop's value in this phase and who has a token there or a home reserved."""
    parts = [h.id + (f" {place_name(h)}" if h.location_name else "")]
    if h.tile is not None:
        parts.append(f"tile {h.tile}")
    if h.terrain_cost:
        parts.append(f"terrain {money(h.terrain_cost, fmt)}")
    for node in h.nodes:
        if node.hidden:
            continue
        kind = "off-board" if node.kind == "offboard" else node.kind
        value = node.revenue.get(revenue_color, 0)
        name = (stops or {}).get(f"{h.id}-{node.index}")
        stop = f"{name} ({kind}): {money(value, fmt)}" if name else f"{kind} {node.index}: {money(value, fmt)}"
        if node.kind == "city":
            stop += f", {len(node.tokens)} of {max(node.slots, 1)} slots"
        if node.tokens:
            stop += f", tokens {' '.join(node.tokens)}"
        if node.reserved:
            stop += f", home of {' '.join(node.reserved)}"
        parts.append(stop)
    return "; ".join(parts)


def hex_svg(layout: Layout, h: HexView, corps: Mapping[str, CorporationView],
            revenue_color: str, mine_hex: str | None = None, mine_subsidy: int = 0, *,
            currency_format: str, stops: Mapping[str, str] | None = None) -> str:
    """The whole hex as one ``<g class="hex">`` (with a ``<g class="tile">`` when laid);
    money in the title's ``currency_format`` (``"$%s"``); ``stops``: each stop's one name
    by node id (``engine.api.stop_names``) for the hover help."""
    stops = stops or {}
    fmt = currency_format
    s = layout.size
    c = layout.center(h.x, h.y)
    color = COLORS.get(h.color, "#ddd")
    laid = f"tile {h.tile}, rotation {h.rotation}" if h.tile is not None else "printed tile"
    out = [f'<g {attrs(class_="hex", data_hex=h.id, data_color=h.color)}>',
           f"<title>{escape(hex_title(h, revenue_color, fmt, stops))}</title>",
           f'<polygon points="{hex_polygon(layout, c)}" fill="{color}" stroke="#777" stroke-width="1"/>']
    if h.tile is None:  # a printed mark is covered by a laid tile
        out.extend(MARKS[m](layout, c) for m in h.marks if m in MARKS)
    out.extend(_terrain(layout, c, h, fmt))
    shape = tile_shape(h)
    if h.tile is not None:
        out.append(f'<g {attrs(class_="tile", data_hex=h.id, data_tile=h.tile, data_rotation=h.rotation)}>')
    for p in h.paths:
        out.append(f'<path {attrs(class_="track", data_hex=h.id, data_path=p.index)} '
                   f'd="{piece_d(layout, c, shape, p.index)}" fill="none" stroke="{TRACK}" '
                   f'stroke-width="{num(0.13 * s)}"/>')
    for node in h.nodes:
        pos = shape.nodes.get((node.kind, node.index), (0.0, 0.0))
        page = layout.to_page(c, pos)
        if node.kind == "city":
            out.extend(_city(layout, c, pos, h, node, corps, revenue_color, fmt, stops))
        elif node.kind == "town":
            out.append(_town(layout, c, pos, shape.town_bars.get((node.kind, node.index)),
                             _stop_title(h, node, revenue_color, fmt, stops)))
        else:
            out.append(_offboard(layout, c, pos, h))
        if node.hidden:
            continue
        if not node.flat_revenue:
            out.extend(_revenue_boxes(layout, c[0], c[1] + (0.56 if node.kind != "offboard" else 0.45) * s,
                                      node, revenue_color))
        elif node.revenue.get(revenue_color, 0) > 0:
            width = max(node.slots, 1)
            dx = 0.22 * width + 0.2 if node.kind == "city" else 0.28
            spot = (page[0] - dx * s if pos[0] > 0.01 else page[0] + dx * s, page[1] - 0.22 * s)
            out.extend(_revenue_disc(layout, spot, node.revenue[revenue_color]))
    if h.tile is not None:
        out.append(text(c[0] + 0.5 * s, c[1] + 0.42 * s, h.tile, 0.18 * s, anchor="end",
                        fill="#333", cls="tile-name"))
        out.append("</g>")
    if h.labels:
        out.append(text(c[0] - 0.52 * s, c[1] - 0.3 * s, " ".join(h.labels), 0.2 * s,
                        weight="bold", cls="label"))
    if h.id == mine_hex:
        out.append(f'<rect class="mine" x="{num(c[0] - 0.42 * s)}" y="{num(c[1] - 0.6 * s)}" width="{num(0.84 * s)}" '
                   f'height="{num(0.22 * s)}" rx="3" fill="#444"/>')
        out.append(text(c[0], c[1] - 0.49 * s, f"mine +{money(mine_subsidy, fmt)}", 0.15 * s, fill="#fff",
                        weight="bold", cls="mine-label"))
    out.extend(_marker_row(layout, c, h, corps))
    out.append("</g>")
    return "".join(out)


def borders_svg(layout: Layout, hexes: Iterable[HexView]) -> str:
    """Impassable sides, drawn over every hex so that no neighbour covers them; a side
    both its hexes list is drawn once."""
    seen: set[tuple[float, float]] = set()
    out = []
    for h in hexes:
        c = layout.center(h.x, h.y)
        for e in sorted(h.impassable_edges):
            mid = layout.to_page(c, edge_midpoint(e))
            key = (round(mid[0]), round(mid[1]))
            if key not in seen:
                seen.add(key)
                out.extend(_borders(layout, c, h, (e,)))
    return "".join(out)
