"""The powers' legend: a band under the map naming every power beside the letter its units carry, in
its colour, with its supply-center count. Drawn for variants with more powers than the title bar has
room for (Chaos: 34 powers sharing 12 colours, told apart by their letters), instead of the title's
chips.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.board import Board
from render import layout as L
from render.layout import Layout
from render.palette import Palette
from render.text import BOLD, CONDENSED_BOLD, font

LEGEND_MIN_POWERS = 11
"""From this many powers the title bar's chips give way to the legend (10 powers still fit there)."""


def wants_legend(board: Board) -> bool:
    return len(board.game_map.powers) >= LEGEND_MIN_POWERS


def _entries(board: Board) -> list[tuple[str, str]]:
    """(power, its text: ``Ankara 1``) in the map's order."""
    counts = board.center_counts()
    return [(p, f"{board.rules.power_name(p)} {counts.get(p, 0)}") for p in board.game_map.powers]


def _metrics(lay: Layout) -> tuple[int, float, float]:
    """(row height, badge radius, padding) in pixels."""
    row = max(12, round(lay.size(L.LEGEND_ROW)))
    return row, row * 0.36, row * 0.45


def legend_height(board: Board, lay: Layout) -> int:
    """The band's height at this layout's width: as many rows as the entries need."""
    row, _, pad = _metrics(lay)
    columns = _columns(board, lay)
    rows = math.ceil(len(board.game_map.powers) / columns)
    return round(rows * row + pad)


def _columns(board: Board, lay: Layout) -> int:
    row, radius, pad = _metrics(lay)
    f = font(round(row * 0.55), CONDENSED_BOLD)
    widest = max(f.getlength(text) for _, text in _entries(board))
    column = 2 * radius + pad * 0.6 + widest + pad * 1.4
    return max(1, int((lay.width - 2 * pad) // column))


def draw_legend(img: Image.Image, board: Board, lay: Layout, pal: Palette) -> None:
    """The legend in its band, below the map and above the footer (see Layout.legend_height)."""
    if not lay.legend_height:
        return
    row, radius, pad = _metrics(lay)
    top = lay.title_height + lay.map_height
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, top, lay.width, top + lay.legend_height), fill=pal.title_bg)
    text_font = font(round(row * 0.55), CONDENSED_BOLD)
    letter_font = font(round(radius * 1.25), BOLD)
    columns = _columns(board, lay)
    column = (lay.width - 2 * pad) / columns
    counts = board.center_counts()
    for k, (power, text) in enumerate(_entries(board)):
        r, c = divmod(k, columns)
        x = pad + c * column
        y = top + pad / 2 + r * row + row / 2
        colours = pal.power(power)
        out = counts.get(power, 0) == 0 and not board.units.get(power)
        fill = pal.title_bg if out else colours.unit
        draw.ellipse(
            (x, y - radius, x + 2 * radius, y + radius),
            fill=fill,
            outline=pal.title_dim if out else (255, 255, 255),
            width=max(1, round(radius * 0.12)),
        )
        ink = pal.title_dim if out else colours.ink
        draw.text((x + radius, y), colours.letter, font=letter_font, fill=ink, anchor="mm")
        colour = pal.title_dim if out else pal.title_text
        draw.text((x + 2 * radius + pad * 0.6, y), text, font=text_font, fill=colour, anchor="lm")
