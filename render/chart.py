"""The supply-center chart: each power's center count year by year, a line in its colour, as a PNG.

Drawn to be read on a phone, where Discord shows a picture about 400 points wide: 1,200 pixels wide,
its words 30 pixels high or more (about 10 points on the phone), lines 7 pixels thick. Every line
ends in a chip naming its power and its last count (``FRA 9``), like the map's title bar, so nobody
matches colours against a legend; the chips never overlap (they are spread apart, each joined to
its line's end). The victory target is a dashed line, the scale going up to it, once a power has
half of it (TARGET_REACH); before that it is left out, as a scale up to it would squeeze every
line into the bottom of the chart. Each power's points have their own shape
(circle, square, diamond, triangle...), so that two lines of close colours (the colour-blind
palette, Chaos's 34 powers sharing 12 colours) are still told apart. Drawn at twice the size and
scaled down, so lines and words are smooth.

``render_chart(years, rows, variant=..., title=..., palette=...)`` returns the PNG bytes; pure,
Pillow only, like the map.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.variants import get_variant
from render.palette import RGB, Palette, palette_for, relative_luminance
from render.text import BOLD, CONDENSED_BOLD, font

WIDTH, HEIGHT = 1200, 900
SCALE = 2  # drawn at twice the size, then scaled down (smooth lines and words)
BACKGROUND: RGB = (250, 249, 245)
GRID: RGB = (222, 219, 210)
AXIS: RGB = (70, 70, 74)
TARGET: RGB = (150, 40, 40)
TARGET_REACH = 2.0  # the target is drawn once the leader has 1/TARGET_REACH of it (9 of 18)
MARKERS = ("circle", "square", "diamond", "triangle", "down", "hexagon", "star")


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One power's line: its code and its center count at each of the chart's years."""

    power: str
    centers: Sequence[int]


def render_chart(
    years: Sequence[str],
    rows: Sequence[ChartRow],
    *,
    variant: str = "standard",
    title: str = "Supply centers per year",
    palette: str = "default",
    target: int | None = None,
) -> bytes:
    """The chart of ``rows`` (one per power, in the variant's order) over ``years`` (``start``,
    ``1901``...), as PNG bytes. ``target``: the centers that win (a dashed line), the variant's
    unless given."""
    the_variant = get_variant(variant)
    pal = palette_for(the_variant, palette)
    goal = the_variant.target() if target is None else target
    img = _draw(list(years), list(rows), pal, title, goal)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _draw(years: list[str], rows: list[ChartRow], pal: Palette, title: str, goal: int | None) -> Image.Image:
    s = SCALE
    w, h = WIDTH * s, HEIGHT * s
    img = Image.new("RGB", (w, h), BACKGROUND)
    draw = ImageDraw.Draw(img)
    # the title bar, as on the map
    bar = 76 * s
    draw.rectangle((0, 0, w, bar), fill=pal.title_bg)
    title_font = _fitting_font(draw, title, 40 * s, 30 * s, w - 60 * s)
    draw.text((30 * s, bar / 2), title, font=title_font, fill=pal.title_text, anchor="lm")

    label_font = font(30 * s, BOLD)
    chip_font = font(30 * s, CONDENSED_BOLD)
    highest = max([max(r.centers, default=0) for r in rows] + [1])
    if goal and goal > highest * TARGET_REACH:  # every line far below it: no line, and no words
        goal = None
    top_value = _nice_top(max(highest, goal or 0))  # up to the target when it is drawn
    chip_w = max((draw.textlength(_chip_text(r), font=chip_font) for r in rows), default=0) + 30 * s
    left, right = 90 * s, w - chip_w - 60 * s
    top, bottom = bar + 40 * s, h - 80 * s
    n = max(1, len(years) - 1)

    def x_at(i: int) -> float:
        return left + (right - left) * i / n

    def y_at(value: float) -> float:
        return bottom - (bottom - top) * value / top_value

    step = _grid_step(top_value)
    for value in range(0, top_value + 1, step):
        y = y_at(value)
        draw.line((left, y, right, y), fill=GRID, width=2 * s)
        draw.text((left - 16 * s, y), str(value), font=label_font, fill=AXIS, anchor="rm")
    every = max(1, math.ceil(len(years) / 8))
    for i, year in enumerate(years):
        if i % every == 0 or i == len(years) - 1:
            shown = "start" if year == "start" else year
            draw.text((x_at(i), bottom + 18 * s), shown, font=label_font, fill=AXIS, anchor="mt")
    draw.line((left, bottom, right, bottom), fill=AXIS, width=3 * s)
    if goal:
        y = y_at(goal)
        _dashed(draw, left, right, y, TARGET, 4 * s, 18 * s)
        draw.text((left + 12 * s, y - 8 * s), f"{goal} to win", font=label_font, fill=TARGET, anchor="lb")

    # the lines, the smallest last count first, so the leaders are drawn on top
    ordered = sorted(enumerate(rows), key=lambda item: item[1].centers[-1] if item[1].centers else 0)
    for index, row in ordered:
        colours = pal.power(row.power)
        points = [(x_at(i), y_at(v)) for i, v in enumerate(row.centers[: len(years)])]
        edge = _edge(colours.unit)
        if len(points) > 1:
            draw.line(points, fill=edge, width=11 * s, joint="curve")
            draw.line(points, fill=colours.unit, width=7 * s, joint="curve")
        for point in points:
            _marker(draw, MARKERS[index % len(MARKERS)], point, 9 * s, colours.unit, edge)

    # the chips at the right, spread apart, each joined to its line's end
    chip_h = 44 * s
    room = int((bottom + 40 * s - top) // (chip_h + 6 * s))
    named = sorted(rows, key=lambda r: -(r.centers[-1] if r.centers else 0))[
        :room
    ]  # leaders, when not all fit
    ends = [(y_at(r.centers[-1] if r.centers else 0), r) for r in rows if r in named]
    spread = _spread([y for y, _ in ends], chip_h + 6 * s, top + chip_h / 2, bottom + 40 * s)
    last_x = x_at(min(len(years), max((len(r.centers) for r in rows), default=1)) - 1)
    chip_x = right + 40 * s
    for (end_y, row), y in zip(ends, spread, strict=True):
        colours = pal.power(row.power)
        draw.line((last_x + 12 * s, end_y, chip_x - 4 * s, y), fill=colours.unit, width=3 * s)
        text = _chip_text(row)
        width = draw.textlength(text, font=chip_font) + 24 * s
        draw.rounded_rectangle(
            (chip_x, y - chip_h / 2, chip_x + width, y + chip_h / 2),
            radius=chip_h * 0.3,
            fill=colours.unit,
            outline=(255, 255, 255),
            width=2 * s,
        )
        draw.text((chip_x + 12 * s, y), text, font=chip_font, fill=colours.ink, anchor="lm")
    return img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _edge(colour: RGB) -> RGB:
    """The outline around a line or a point: the background's colour, or a dark grey around a light
    colour (a yellow) that the background alone would swallow."""
    return (96, 96, 96) if relative_luminance(colour) > 0.45 else BACKGROUND


def _chip_text(row: ChartRow) -> str:
    return f"{row.power[:3].upper()} {row.centers[-1] if row.centers else 0}"


def _fitting_font(
    draw: ImageDraw.ImageDraw, text: str, size: int, smallest: int, room: float
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    while size > smallest and draw.textlength(text, font=font(size, BOLD)) > room:
        size -= 2
    return font(size, BOLD)


def _nice_top(value: int) -> int:
    """The top of the scale: the value rounded up to a step of the grid, with a little room."""
    step = _grid_step(value + 1)
    return max(step, math.ceil((value + 1) / step) * step)


def _grid_step(top: int) -> int:
    return 1 if top <= 6 else 2 if top <= 14 else 5 if top <= 40 else 10


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` as they can be with at least ``gap`` between any two, kept
    between ``low`` and ``high`` when there is room (pushed apart in order, then back up)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [wanted[i] for i in order]
    for k in range(len(placed)):
        floor = low if k == 0 else placed[k - 1] + gap
        placed[k] = max(placed[k], floor)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed[-1] -= overflow
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    out = [0.0] * len(wanted)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def _dashed(
    draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, fill: RGB, width: int, dash: int
) -> None:
    x = x0
    while x < x1:
        draw.line((x, y, min(x + dash, x1), y), fill=fill, width=width)
        x += dash * 1.7


def _marker(
    draw: ImageDraw.ImageDraw, shape: str, at: tuple[float, float], r: float, fill: RGB, edge: RGB
) -> None:
    x, y = at
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=max(2, round(r / 4)))
        return
    if shape == "square":
        q = r * 0.85
        draw.rectangle((x - q, y - q, x + q, y + q), fill=fill, outline=edge, width=max(2, round(r / 4)))
        return
    sides, turn = {"diamond": (4, 0.0), "triangle": (3, -90.0), "down": (3, 90.0), "hexagon": (6, 0.0)}.get(
        shape, (5, -90.0)
    )
    radius = r * (1.25 if sides == 3 else 1.1)
    if shape == "star":
        points = []
        for k in range(10):
            angle = math.radians(-90 + 36 * k)
            rr = radius * (1.0 if k % 2 == 0 else 0.5)
            points.append((x + rr * math.cos(angle), y + rr * math.sin(angle)))
    else:
        points = [
            (
                x + radius * math.cos(math.radians(turn + 360 * k / sides)),
                y + radius * math.sin(math.radians(turn + 360 * k / sides)),
            )
            for k in range(sides)
        ]
    draw.polygon(points, fill=fill, outline=edge, width=max(2, round(r / 4)))
