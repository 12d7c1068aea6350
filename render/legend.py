"""What the map itself does not say: the powers' legend, and notes at the map's edge for special
crossings.

The legend is a band under the map naming every power beside the letter its units carry, in its
colour, with its supply-center count. Drawn for variants with more powers than the title bar has room
for (Chaos: 34 powers sharing 12 colours, told apart by their letters), instead of the title's chips.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.board import Board
from render import layout as L
from render.geometry import MapGeometry, Point
from render.layout import Layout
from render.palette import Palette
from render.text import BOLD, CONDENSED_BOLD, font

LEGEND_MIN_POWERS = 11
"""From this many powers the title bar's chips give way to the legend (10 powers still fit there)."""


def wants_legend(board: Board) -> bool:
    return len(board.game_map.powers) >= LEGEND_MIN_POWERS


def _entries(board: Board, only: str | None = None) -> list[tuple[str, str]]:
    """(power, its text: ``Ankara 1``) in the map's order; with ``only`` (one power's view under the
    fog of war) the others without a count, which that power does not know."""
    counts = board.center_counts()
    return [
        (
            p,
            f"{board.rules.power_name(p)} {counts.get(p, 0)}"
            if only in (None, p)
            else board.rules.power_name(p),
        )
        for p in board.game_map.powers
    ]


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


def draw_legend(img: Image.Image, board: Board, lay: Layout, pal: Palette, only: str | None = None) -> None:
    """The legend in its band, below the map and above the footer (see Layout.legend_height); with
    ``only``, one power's view: the others' counts left out, and none of them shown as out."""
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
    for k, (power, text) in enumerate(_entries(board, only)):
        r, c = divmod(k, columns)
        x = pad + c * column
        y = top + pad / 2 + r * row + row / 2
        colours = pal.power(power)
        out = counts.get(power, 0) == 0 and not board.units.get(power) and only in (None, power)
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


# --- special crossings round the map's edge -----------------------------------------------------------


def crossing_notes(board: Board, geo: MapGeometry, lay: Layout) -> list[tuple[str, Point, str]]:
    """(text, where, Pillow anchor) of a note at the map's edge for each end of a variant's special
    crossings (1900's Cape of Good Hope: Egypt and Hejaz to the Mid-Atlantic, round Africa), where a
    move across one leaves or enters the picture (render.orders draws it so)."""
    crossings = board.rules.switches.crossings
    if crossings is None:
        return []
    ends: dict[str, set[str]] = {}
    for a, b in crossings.pairs:
        ends.setdefault(a, set()).add(b)
    # group the places that share the same far ends: one note for Egypt and Hejaz together
    groups: dict[frozenset[str], list[str]] = {}
    for here, far in ends.items():
        groups.setdefault(frozenset(far), []).append(here)
    notes = []
    step = lay.size(L.CROSSING_NOTE_OFFSET)
    for there, heres in sorted(groups.items(), key=lambda item: sorted(item[1])):
        points = [_edge(lay.px(geo.anchor(h)), lay) for h in heres if geo.has(h)]
        if not points:
            continue
        text = f"round the Cape of Good Hope to {', '.join(sorted(there))}"
        side = points[0][1]
        xs, ys = [p[0][0] for p in points], [p[0][1] for p in points]
        # beside where the arrows cross the edge, not on them: to the left along a bottom or top
        # edge, below along a side
        if side in ("md", "ma"):
            notes.append((text, (min(xs) - step, ys[0]), "rd" if side == "md" else "ra"))
        else:
            notes.append((text, (xs[0], max(ys) + step), "la" if side == "lm" else "ra"))
    return notes


def _edge(p: Point, lay: Layout) -> tuple[Point, str]:
    """The nearest point of the map's frame to ``p``, just inside it, and the anchor for a note there."""
    top, bottom = lay.title_height, lay.title_height + lay.map_height
    inset = lay.size(3.0)
    x, y = p
    candidates: list[tuple[float, Point, str]] = [
        (x, (inset, y), "lm"),
        (lay.width - x, (lay.width - inset, y), "rm"),
        (y - top, (x, top + inset), "ma"),
        (bottom - y, (x, bottom - inset), "md"),
    ]
    _, point, anchor = min(candidates)
    return point, anchor


def draw_crossing_notes(img: Image.Image, board: Board, geo: MapGeometry, lay: Layout, pal: Palette) -> None:
    notes = crossing_notes(board, geo, lay)
    if not notes:
        return
    draw = ImageDraw.Draw(img)
    f = font(round(lay.size(L.LABEL_SIZE)), CONDENSED_BOLD)
    halo = max(1, round(lay.size(L.LABEL_HALO)))
    for text, (x, y), anchor in notes:
        left, _, right, _ = draw.textbbox((x, y), text, font=f, anchor=anchor)
        shift = max(0.0, -left + halo) - max(0.0, right - lay.width + halo)  # keep it on the picture
        draw.text(
            (x + shift, y),
            text,
            font=f,
            fill=pal.sea_label,
            anchor=anchor,
            stroke_width=halo,
            stroke_fill=pal.halo,
        )
