"""The map renderer: a board (and its orders, with their outcomes) -> a PNG. Pure; Pillow only.

    from render import render_map, RenderOptions, OrderMark, marks_from_results
    png = render_map(board, marks, options=RenderOptions(width=1600, palette="colorblind"))

``python -m render IN.json OUT.png [--width N]`` draws the engine's JSON (request or result form).
"""

from render.compose import DEFAULT_WIDTH, RenderOptions, render_image, render_map
from render.jsonio import render_json
from render.marks import OrderMark, marks_from_orders, marks_from_results
from render.palette import PALETTES

__all__ = [
    "DEFAULT_WIDTH",
    "PALETTES",
    "OrderMark",
    "RenderOptions",
    "marks_from_orders",
    "marks_from_results",
    "render_image",
    "render_json",
    "render_map",
]
