"""Pictures of the 1888 board (DESIGN.md §1, §8): a view over ``route18xx.engine.api``.

``render_svg`` draws a state's map, tiles, tokens and routes (optimal, recorded or
both) as SVG text; ``svg_to_png`` rasterises it with cairosvg. The engine never
imports this package.
"""

from __future__ import annotations

from route18xx.draw.render import MODES, render_svg
from route18xx.draw.png import svg_to_png

__all__ = ["MODES", "render_svg", "svg_to_png"]
