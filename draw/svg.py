"""A few helpers to write SVG text quickly (no DOM: pictures are strings)."""

from __future__ import annotations

from typing import Iterable
from xml.sax.saxutils import escape, quoteattr

from route18xx.draw.geometry import Point

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


def num(v: float) -> str:
    """A coordinate with one decimal (a tenth of a pixel), without a trailing '.0'."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def attrs(**kw: object) -> str:
    """``key="value"`` pairs; ``class_`` → class, ``data_x`` → data-x; None is left out."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f"{name}={quoteattr(str(v))}")
    return " ".join(out)


def points(ps: Iterable[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in ps)


def polyline_d(ps: Iterable[Point]) -> str:
    it = iter(ps)
    x, y = next(it)
    rest = " ".join(f"L{num(a)} {num(b)}" for a, b in it)
    return f"M{num(x)} {num(y)} {rest}".strip()


def text(x: float, y: float, body: str, size: float, *, anchor: str = "middle",
         weight: str | None = None, fill: str = "#000", cls: str | None = None,
         extra: str = "") -> str:
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" '
        f'dominant-baseline="central" fill="{fill}"'
        + (f' font-weight="{weight}"' if weight else "")
        + (f' class="{cls}"' if cls else "")
        + (f" {extra}" if extra else "")
        + f">{escape(body)}</text>"
    )


def text_color_on(background: str) -> str:
    """Black or white, whichever reads better on a ``#rrggbb`` background."""
    if not background.startswith("#") or len(background) != 7:
        return "#000"
    r, g, b = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"
