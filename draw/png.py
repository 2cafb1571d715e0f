"""SVG → PNG through cairosvg (libcairo; DESIGN.md §8). Imported only when a PNG is asked for."""

from __future__ import annotations


def svg_to_png(svg: str, scale: float = 1.5) -> bytes:
    """The picture rasterised at ``scale`` pixels per SVG unit."""
    import cairosvg  # lazy: SVG pictures need no libcairo

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    if not isinstance(png, bytes):  # pragma: no cover  (cairosvg returns bytes without write_to)
        raise TypeError("cairosvg returned no PNG bytes")
    return png
