"""Routes over the track: one colour per train, each route a little off the track's
centre line so that two trains in one hex stay apart, stops ringed.

A route is one ``<path class="route">`` that follows its tile paths in travel
order (``engine.api.RouteWalk.legs``); its ``data-kind`` (optimal, recorded),
``data-train`` and ``data-hexes`` name it. Recorded routes are dashed.
"""

from __future__ import annotations

from html import escape

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence


from route18xx.draw.geometry import Layout, Point, offset_points, sample
from route18xx.draw.svg import attrs, num, polyline_d
from route18xx.draw.tracks import TileShape, oriented
from route18xx.engine.api import HexView, RouteWalk, money

#: Distinct, saturated colours that no tile or map colour uses.
ROUTE_COLORS = ("#E4007C", "#0047FF", "#FF7A00", "#00A878", "#8A00E6", "#00B4D8",
                "#B8860B", "#5C2E00")
#: Lane spacing between routes, in hex sizes.
LANE = 0.11


@dataclass(frozen=True)
class DrawnRoute:
    """A route to draw: which set it belongs to, its walk, colour and lane offset."""

    kind: str
    walk: RouteWalk
    color: str
    offset: float

    @property
    def dashed(self) -> bool:
        return self.kind == "recorded"


def lane_offsets(count: int) -> list[float]:
    """Offsets of ``count`` routes, all different in size, so that two routes over the
    same track never coincide whichever way each one travels."""
    return [LANE * (i - (count - 1) / 2 + 0.25) for i in range(count)]


def route_points(layout: Layout, hexes: Mapping[str, HexView], shapes: Mapping[str, TileShape],
                 walk: RouteWalk, offset: float) -> tuple[list[Point], list[Point]]:
    """The route's polyline on the page, and the page positions of its stops."""
    line: list[Point] = []
    stops: list[Point] = []
    by = offset  # in unit-hex lengths
    stop_keys = set(walk.stops)
    for leg in walk.legs:
        h = hexes[leg.hex]
        shape = shapes[leg.hex]
        path = next(p for p in h.paths if p.index == leg.path)
        piece = oriented(shape.pieces[leg.path], path, leg.start)
        c = layout.center(h.x, h.y)
        pts = [layout.to_page(c, p) for p in offset_points(sample(piece), by)]
        if line and _close(line[-1], pts[0]):
            pts = pts[1:]
        line.extend(pts)
        for end in (leg.start, leg.end):
            if end[0] != "edge" and f"{leg.hex}-{end[1]}" in stop_keys:
                stops.append(layout.to_page(c, shape.nodes.get((end[0], end[1]), (0.0, 0.0))))
    return line, _unique(stops)


def _close(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) < 0.05 and abs(a[1] - b[1]) < 0.05


def _unique(ps: Sequence[Point]) -> list[Point]:
    out: list[Point] = []
    for p in ps:
        if not any(_close(p, q) for q in out):
            out.append(p)
    return out


def _same(name: str) -> str:
    return name


def route_title(r: DrawnRoute, fmt: str, stop: Callable[[str], str] = _same,
                train: Callable[[str], str] = _same) -> str:
    """The hover text of a route (issue 22: ``<title>`` on routes): which train, its
    stops, its revenue (destination bonus included), subsidy and income, in the
    title's money (``fmt``: ``"$%s"``); ``stop`` and ``train`` give each its one name."""
    w = r.walk
    text = f"{r.kind} {train(w.train)}: {' – '.join(stop(s) for s in w.stops)}; revenue {money(w.revenue, fmt)}"
    if w.bonus:
        text += f" ({w.bonus_name} {money(w.bonus, fmt)})"
    if w.subsidy:
        text += f", mine subsidy {money(w.subsidy, fmt)}, income {money(w.revenue + w.subsidy, fmt)}"
    if not w.legal:
        text += f"; illegal: {w.violations[0] if w.violations else '?'}"
    return text


def routes_svg(layout: Layout, hexes: Mapping[str, HexView], shapes: Mapping[str, TileShape],
               routes: Sequence[DrawnRoute], currency_format: str,
               stop: Callable[[str], str] = _same, train: Callable[[str], str] = _same) -> str:
    s = layout.size
    width = 0.09 * s
    out = ['<g id="routes">']
    rings = []
    seen: list[Point] = []  # every drawn point, for the routes' box
    for r in routes:
        ring_dash = ' stroke-dasharray="4 3"' if r.dashed else ""
        if not r.walk.legs:
            continue
        line, stops = route_points(layout, hexes, shapes, r.walk, r.offset)
        seen.extend(line)
        seen.extend(stops)
        d = polyline_d(line)
        dash = f' stroke-dasharray="{num(0.22 * s)} {num(0.12 * s)}"' if r.dashed else ""
        names = {"class_": "route-casing", "data_kind": r.kind, "data_train": r.walk.train}
        out.append(f'<path {attrs(**names)} d="{d}" fill="none" stroke="#fff" stroke-opacity="0.85" '
                   f'stroke-width="{num(width + 3)}" stroke-linejoin="round"{dash}/>')
        out.append(
            f'<path {attrs(class_="route", id=f"route-{r.kind}-{r.walk.train}", data_kind=r.kind, data_train=r.walk.train, data_hexes=" ".join(r.walk.hexes), data_color=r.color)} '
            f'd="{d}" fill="none" stroke="{r.color}" stroke-width="{num(width)}" '
            f'stroke-linejoin="round" stroke-linecap="round"{dash}>'
            f"<title>{escape(route_title(r, currency_format, stop, train))}</title></path>")
        for x, y in stops:
            rings.append(
                f'<circle {attrs(class_="stop", data_kind=r.kind, data_train=r.walk.train)} cx="{num(x)}" '
                f'cy="{num(y)}" r="{num(0.3 * s if r.kind == "recorded" else 0.25 * s)}" fill="none" '
                f'stroke="{r.color}" stroke-width="2.5"{ring_dash}/>')
    out.extend(rings)
    out.append("</g>")
    if seen:  # the routes' box (rings and lines included), so a page fits them without measuring
        pad = 0.3 * s + 2
        x0, y0 = min(p[0] for p in seen) - pad, min(p[1] for p in seen) - pad
        x1, y1 = max(p[0] for p in seen) + pad, max(p[1] for p in seen) + pad
        out[0] = f'<g id="routes" data-box="{num(x0)} {num(y0)} {num(x1 - x0)} {num(y1 - y0)}">'
    return "".join(out)
