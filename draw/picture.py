"""The whole picture: title, the map with its grid labels, routes, a suggestion's
highlight, and the legend with each train's income.

``picture`` is pure drawing (no solving): it takes the engine's ``BoardView`` and
walked routes and returns SVG text. The root ``<svg>`` carries the hex layout
(``data-hex-size``, ``data-origin-x``, ``data-origin-y``: the page position of the
centre of hex A1) so that a reader can map drawn coordinates back to hexes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Mapping, Sequence

from route18xx.draw.geometry import APOTHEM, Layout
from route18xx.draw.hexes import borders_svg, hex_polygon, hex_svg, location_svg
from route18xx.draw.routes import DrawnRoute, routes_svg
from route18xx.draw.svg import FONT, attrs, num, text
from route18xx.draw.tracks import tile_shape
from route18xx.engine.api import BoardView, signed_money

ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

HEX_SIZE = 50.0
MARGIN = 34.0
TITLE_H = 46.0
LINE_H = 21.0


@dataclass(frozen=True)
class Highlight:
    """A suggested move to point at: its hex, a short description and its gain."""

    hex: str
    caption: str
    gain: int


@dataclass(frozen=True)
class LegendLine:
    """One line of the legend; with ``route`` it starts with that route's swatch."""

    text: str
    route: DrawnRoute | None = None
    bold: bool = False


@dataclass(frozen=True)
class Names:
    """The one name of each stop (by node id) and of each of the company's trains (id, name),
    from the engine (``engine.api.stop_names``, ``company_trains``; issue 34)."""

    stops: Mapping[str, str] = field(default_factory=dict)
    trains: Sequence[tuple[str, str]] = ()

    def train(self, train_id: str) -> str:
        """A train's name; one the company does not own keeps its id beside its type."""
        return dict(self.trains).get(train_id) or f"{train_id.rpartition('-')[0] or train_id}-train {train_id}"

    def stop(self, node: str) -> str:
        return self.stops.get(node, node)


@dataclass(frozen=True)
class Picture:
    view: BoardView
    routes: Sequence[DrawnRoute] = ()
    legend: Sequence[LegendLine] = ()
    highlight: Highlight | None = None
    subtitle: str = ""
    notes: Sequence[str] = field(default_factory=tuple)
    names: Names = field(default_factory=Names)


def names_metadata(names: Names) -> str:
    """The names as JSON in the picture's ``<metadata id="names">``: the page writes every
    stop and train as the engine names it, never by its id (issue 34)."""
    body = json.dumps({"stops": dict(names.stops), "trains": [list(t) for t in names.trains]},
                      ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return f'<metadata id="names">{escape(body, quote=False)}</metadata>'


def _title(view: BoardView) -> str:
    corp = view.corporations.get(view.corporation)
    name = f"{view.corporation} {corp.name}" if corp else view.corporation
    trains = ", ".join(view.trains) if view.trains else "none"
    return f"{view.title} ({view.rule_set}) — {name} · trains: {trains} · phase {view.phase}"


def picture(p: Picture) -> str:
    """The picture as SVG text."""
    view = p.view
    s = HEX_SIZE
    max_x = max(h.x for h in view.hexes)
    max_y = max(h.y for h in view.hexes)
    if view.layout == "flat":  # doubled-height coordinates, corners left and right
        layout = Layout(s, MARGIN + s, TITLE_H + MARGIN + APOTHEM * s, flat=True)
        map_w = max_x * 1.5 * s + 2 * s
        map_h = (max_y + 2) * APOTHEM * s
    else:
        layout = Layout(s, MARGIN + APOTHEM * s, TITLE_H + MARGIN + s)
        map_w = (max_x + 2) * APOTHEM * s
        map_h = max_y * 1.5 * s + 2 * s
    width = map_w + 2 * MARGIN
    legend_top = TITLE_H + map_h + 2 * MARGIN + 8
    height = legend_top + LINE_H * (len(p.legend) + len(p.notes)) + 16
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'{attrs(width=num(width), height=num(height), viewBox=f"0 0 {num(width)} {num(height)}", data_hex_size=num(s), data_origin_x=num(layout.origin_x), data_origin_y=num(layout.origin_y), data_layout="flat" if layout.flat else None, font_family=FONT)}>',
        f'<rect width="{num(width)}" height="{num(height)}" fill="#fbfaf6"/>',
        text(width / 2, TITLE_H / 2 - (6 if p.subtitle else 0), _title(view), 19, weight="bold", cls="title"),
        names_metadata(p.names),
    ]
    if p.subtitle:
        out.append(text(width / 2, TITLE_H / 2 + 13, p.subtitle, 13, cls="subtitle"))
    out.append('<g id="map">')
    shapes = {}
    hexes = {}
    for h in view.hexes:
        shapes[h.id] = tile_shape(h)
        hexes[h.id] = h
        out.append(hex_svg(layout, h, view.corporations, view.revenue_color, view.mine_hex,
                           view.mine_subsidy, currency_format=view.currency_format, stops=p.names.stops))
    out.append(borders_svg(layout, view.hexes))
    out.append("</g>")
    out.append(_grid_labels(layout, view, width))
    if p.highlight and p.highlight.hex in hexes:
        h = hexes[p.highlight.hex]
        c = layout.center(h.x, h.y)
        out.append(f'<g {attrs(id="highlight", data_hex=h.id)}>'
                   f'<polygon points="{hex_polygon(layout, c)}" fill="none" stroke="#00C2FF" stroke-width="6"/>'
                   + text(c[0], c[1] + 1.12 * s, signed_money(p.highlight.gain, view.currency_format), 16, weight="bold",
                          fill="#0060A0") + "</g>")
    out.append(routes_svg(layout, hexes, shapes, p.routes, view.currency_format, p.names.stop,
                          p.names.train))
    # names last: no token, route or highlight covers them
    out.append('<g id="labels">' + "".join(location_svg(layout, h) for h in view.hexes) + "</g>")
    out.append(_legend(p, legend_top))
    out.append("</svg>")
    return "".join(out)


def _grid_labels(layout: Layout, view: BoardView, width: float) -> str:
    """The hex ids' two parts along the edges: on a pointy map the row letters at the sides
    and the column numbers above and below; on a flat map (doubled-height coordinates) the
    column letters above and below and the row numbers at the sides, or, where the letters
    name the rows (1882), as on a pointy map."""
    s = layout.size
    rows = sorted({h.y for h in view.hexes})
    cols = sorted({h.x for h in view.hexes})
    # which part of the id a row or a column shares: 1882's flat map has its letters on the
    # rows (18xx.games ``AXES = {x: :number, y: :letter}``), 1889's on the columns
    first = view.hexes[0]
    letters_on_rows = not layout.flat or len(
        {h.id.rstrip("0123456789") for h in view.hexes if h.x == first.x}) > 1

    def side_of(y: int) -> str:
        return ROWS[y] if letters_on_rows else str(y + 1)

    def top_of(x: int) -> str:
        return str(x + 1) if letters_on_rows else ROWS[x]

    reach = APOTHEM * s if layout.flat else s
    out = ['<g id="grid" fill="#555">']
    for y in rows:
        cy = layout.center(0, y)[1]
        out.append(text(MARGIN / 2, cy, side_of(y), 15, weight="bold", fill="#555"))
        out.append(text(width - MARGIN / 2, cy, side_of(y), 15, weight="bold", fill="#555"))
    top = layout.center(0, 0)[1] - reach - 12
    bottom = layout.center(0, rows[-1])[1] + reach + 12
    for x in cols:
        cx = layout.center(x, 0)[0]
        out.append(text(cx, top, top_of(x), 13, fill="#555"))
        out.append(text(cx, bottom, top_of(x), 13, fill="#555"))
    out.append("</g>")
    return "".join(out)


def _legend(p: Picture, top: float) -> str:
    out = ['<g id="legend">']
    y = top
    for line in p.legend:
        x = MARGIN
        if line.route is not None:
            r = line.route
            dash = ' stroke-dasharray="10 6"' if r.dashed else ""
            out.append(f'<line {attrs(class_="swatch", data_kind=r.kind, data_train=r.walk.train)} '
                       f'x1="{num(x)}" y1="{num(y)}" x2="{num(x + 44)}" y2="{num(y)}" stroke="{r.color}" '
                       f'stroke-width="5"{dash}/>')
            x += 54
        out.append(text(x, y, line.text, 14, anchor="start", weight="bold" if line.bold else None,
                        cls="legend-line"))
        y += LINE_H
    for note in p.notes:
        out.append(text(MARGIN, y, note, 12, anchor="start", fill="#a00", cls="note"))
        y += LINE_H
    out.append("</g>")
    return "".join(out)
