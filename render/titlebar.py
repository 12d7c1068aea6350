"""The title bar (phase, and each power's supply-center count) and the footer (the map's credit)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.board import Board
from render.layout import Layout
from render.palette import Palette
from render.text import BOLD, CONDENSED_BOLD, font

CREDIT = "Map geometry derived from DPjudge's maps (MIT) \u00b7 authors and licence: the variant's NOTICE.txt"
SHORT_CREDIT = "Map geometry: DPjudge (MIT) \u00b7 NOTICE.txt"


def _short(power: str) -> str:
    return power[:3].upper()


def draw_title(
    img: Image.Image,
    board: Board,
    lay: Layout,
    pal: Palette,
    title: str,
    subtitle: str,
    *,
    adjustments: bool = True,
    chips: bool = True,
    only: str | None = None,
) -> None:
    """Phase name at the left, one chip per power with its center count at the right (in an
    adjustment phase, with ``adjustments``, the builds or removals due); no chips without ``chips``
    (the legend under the map names the powers), only ``only``'s with it (one power's view under the
    fog of war, whose counts of the others it does not know). When the chips do not all fit beside
    the title, the powers with the fewest centers are left out."""
    h = lay.title_height
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, lay.width, h), fill=pal.title_bg)
    pad = round(h * 0.28)
    counts = board.center_counts()
    adjusting = adjustments and board.phase.kind == "A"
    unit_counts = {p: len(board.units.get(p, ())) for p in counts}
    chip_font = font(round(h * 0.34), CONDENSED_BOLD)
    delta_font = font(round(h * 0.26), CONDENSED_BOLD)
    chip_h = round(h * 0.60)
    gap = round(h * 0.14)
    labels = []
    for power in board.game_map.powers if chips else ():
        if only is not None and power != only:
            continue
        text = f"{_short(power)} {counts.get(power, 0)}"
        delta = counts.get(power, 0) - unit_counts.get(power, 0) if adjusting else 0
        extra = f"{delta:+d}" if delta else ""
        width = draw.textlength(text, font=chip_font) + chip_h * 0.7
        if extra:
            width += draw.textlength(extra, font=delta_font) + chip_h * 0.25
        labels.append((power, text, extra, width))
    room = (
        lay.width - 2 * pad - min(draw.textlength(title, font=font(round(h * 0.42), BOLD)), lay.width * 0.4)
    )
    while labels and sum(w + gap for *_, w in labels) > room:
        fewest = min(labels, key=lambda item: counts.get(item[0], 0))
        labels = [item for item in labels if item is not fewest] if fewest is not labels[-1] else labels[:-1]
    x = lay.width - pad - sum(w for *_, w in labels) - gap * max(0, len(labels) - 1)
    _draw_heading(draw, title, subtitle, pad, x - 2 * pad, h, pal)
    y0 = (h - chip_h) / 2
    for power, text, extra, width in labels:
        colours = pal.power(power)
        eliminated = counts.get(power, 0) == 0 and unit_counts.get(power, 0) == 0
        fill = pal.title_bg if eliminated else colours.unit
        ink = pal.title_dim if eliminated else colours.ink
        draw.rounded_rectangle(
            (x, y0, x + width, y0 + chip_h),
            radius=chip_h * 0.3,
            fill=fill,
            outline=pal.title_dim if eliminated else (255, 255, 255),
            width=max(1, round(h * 0.03)),
        )
        tx = x + chip_h * 0.35
        draw.text((tx, y0 + chip_h / 2), text, font=chip_font, fill=ink, anchor="lm")
        if extra:
            tx += draw.textlength(text, font=chip_font) + chip_h * 0.25
            draw.text((tx, y0 + chip_h / 2), extra, font=delta_font, fill=ink, anchor="lm")
        x += width + gap


def _draw_heading(
    draw: ImageDraw.ImageDraw, title: str, subtitle: str, left: float, room: float, h: int, pal: Palette
) -> None:
    """The title, and the subtitle after it if both fit in ``room``; a long title is made smaller."""
    size = round(h * 0.42)
    big = font(size, BOLD)
    small = font(round(h * 0.27), BOLD)
    title_w = draw.textlength(title, font=big)
    gap = h * 0.25
    if subtitle and title_w + gap + draw.textlength(subtitle, font=small) > room:
        subtitle = ""
    while title_w > room and size > 8:
        size -= 1
        big = font(size, BOLD)
        title_w = draw.textlength(title, font=big)
    draw.text((left, h * 0.47), title, font=big, fill=pal.title_text, anchor="lm")
    if subtitle:
        draw.text((left + title_w + gap, h * 0.50), subtitle, font=small, fill=pal.title_dim, anchor="lm")


def draw_footer(img: Image.Image, lay: Layout, pal: Palette, note: str) -> None:
    """The credit for the map geometry, small, at the bottom right; ``note`` at the left if it fits."""
    top = lay.footer_top
    h = lay.footer_height
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, top, lay.width, top + h), fill=pal.title_bg)
    f = font(max(9, round(h * 0.58)), CONDENSED_BOLD)
    pad = round(h * 0.6)
    credit = CREDIT
    if draw.textlength(credit, font=f) > lay.width - 2 * pad:
        credit = SHORT_CREDIT
    credit_w = draw.textlength(credit, font=f)
    draw.text((lay.width - pad, top + h / 2), credit, font=f, fill=pal.title_dim, anchor="rm")
    if note and draw.textlength(note, font=f) + credit_w + 4 * pad < lay.width:
        draw.text((pad, top + h / 2), note, font=f, fill=pal.title_dim, anchor="lm")
