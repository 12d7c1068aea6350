"""The title bar (phase, and each power's supply-center count) and the footer (the map's credit)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

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
    the title, they are set closer together, then the powers with the fewest centers are left out."""
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
    shown = [p for p in board.game_map.powers if chips and (only is None or p == only)]
    spacing = Spacing(chip_h * 0.35, round(h * 0.14))
    labels = _labels(draw, shown, counts, unit_counts, adjusting, chip_font, delta_font, chip_h, spacing)
    room = (
        lay.width - 2 * pad - min(draw.textlength(title, font=font(round(h * 0.42), BOLD)), lay.width * 0.4)
    )

    def fewer(labels: list[Label]) -> list[Label]:
        """The chips closer together first (all of them still there), then without the fewest."""
        nonlocal spacing
        if spacing.inner > chip_h * 0.2:
            spacing = Spacing(chip_h * 0.2, round(h * 0.07))
            kept = [label[0] for label in labels]
            return _labels(draw, kept, counts, unit_counts, adjusting, chip_font, delta_font, chip_h, spacing)
        return _without_fewest(labels, counts)

    while labels and sum(w + spacing.gap for *_, w in labels) > room:
        labels = fewer(labels)
    while True:  # a long title (a game's end) takes two lines, and chips' room, before it gets small
        gap = spacing.gap
        x = lay.width - pad - sum(w for *_, w in labels) - gap * max(0, len(labels) - 1)
        heading = fit_heading(title, subtitle, x - pad - gap, h)
        if heading.size >= min_title_size(h) or not labels:
            break
        labels = fewer(labels)
    _draw_heading(draw, heading, pad, h, pal)
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
        tx = x + spacing.inner
        draw.text((tx, y0 + chip_h / 2), text, font=chip_font, fill=ink, anchor="lm")
        if extra:
            tx += draw.textlength(text, font=chip_font) + chip_h * 0.25
            draw.text((tx, y0 + chip_h / 2), extra, font=delta_font, fill=ink, anchor="lm")
        x += width + gap


Label = tuple[str, str, str, float]  # power, its count's text, the builds or removals due, width


@dataclass(frozen=True, slots=True)
class Spacing:
    """How tight the chips are: the room inside a chip before its text (as much after), and between
    two chips. Tighter before any chip is left out (a seven-way ending's two-line title)."""

    inner: float
    gap: int


def _labels(
    draw: ImageDraw.ImageDraw,
    powers: list[str],
    counts: dict[str, int],
    unit_counts: dict[str, int],
    adjusting: bool,
    chip_font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    delta_font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    chip_h: int,
    spacing: Spacing,
) -> list[Label]:
    labels = []
    for power in powers:
        text = f"{_short(power)} {counts.get(power, 0)}"
        delta = counts.get(power, 0) - unit_counts.get(power, 0) if adjusting else 0
        extra = f"{delta:+d}" if delta else ""
        width = draw.textlength(text, font=chip_font) + 2 * spacing.inner
        if extra:
            width += draw.textlength(extra, font=delta_font) + chip_h * 0.25
        labels.append((power, text, extra, width))
    return labels


def _without_fewest(labels: list[Label], counts: dict[str, int]) -> list[Label]:
    """The chips but one: the power with the fewest centers (the last of those) left out."""
    fewest = min(labels, key=lambda item: counts.get(item[0], 0))
    return [item for item in labels if item is not fewest] if fewest is not labels[-1] else labels[:-1]


def min_title_size(h: int) -> int:
    """The smallest a title's letters get before the chips make room for it (24 px on the 1600-px
    Standard map, whose title bar is 69 px high; 29 px is the one-line size)."""
    return round(h * 0.35)


@dataclass(frozen=True, slots=True)
class Heading:
    """How the title bar's heading is set: its lines (one, or two for a long title), their font
    size in pixels, and the subtitle after a one-line title ("" when it does not fit)."""

    lines: tuple[str, ...]
    size: int
    subtitle: str = ""


def fit_heading(title: str, subtitle: str, room: float, h: int) -> Heading:
    """The title in ``room`` pixels of a title bar ``h`` high: on one line at full size (the subtitle
    after it if both fit), or smaller down to :func:`min_title_size`; else on two lines (split at
    " · ", or between the words that balance them best) as large as fits; else one line as small as
    it must be (the caller first gives the title more room)."""
    full = round(h * 0.42)
    smallest = min_title_size(h)
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    title_w = measure.textlength(title, font=font(full, BOLD))
    if title_w <= room:
        small = font(round(h * 0.27), BOLD)
        fits = subtitle and title_w + h * 0.25 + measure.textlength(subtitle, font=small) <= room
        return Heading((title,), full, subtitle if fits else "")
    for size in range(full - 1, smallest - 1, -1):
        if measure.textlength(title, font=font(size, BOLD)) <= room:
            return Heading((title,), size)
    splits = _splits(title)
    for size in range(round(h * 0.38), smallest - 1, -1):
        big = font(size, BOLD)
        for first, second in splits:
            if max(measure.textlength(first, font=big), measure.textlength(second, font=big)) <= room:
                return Heading((first, second), size)
    size = smallest
    while size > 8 and measure.textlength(title, font=font(size, BOLD)) > room:
        size -= 1
    return Heading((title,), size)


def _splits(title: str) -> list[tuple[str, str]]:
    """Two-line forms of ``title``: at " · " first, then at each space, the most even first."""
    found = []
    if " \u00b7 " in title:
        head, _, tail = title.partition(" \u00b7 ")
        found.append((head, tail))
    words = title.split(" ")
    pairs = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    pairs.sort(key=lambda pair: abs(len(pair[0]) - len(pair[1])))  # a few characters off is tried too
    return found + [(a.removesuffix(" \u00b7"), b.removeprefix("\u00b7 ")) for a, b in pairs]


def _draw_heading(draw: ImageDraw.ImageDraw, heading: Heading, left: float, h: int, pal: Palette) -> None:
    big = font(heading.size, BOLD)
    if len(heading.lines) == 2:
        step = heading.size * 0.56
        for line, y in zip(heading.lines, (h * 0.5 - step, h * 0.5 + step), strict=True):
            draw.text((left, y), line, font=big, fill=pal.title_text, anchor="lm")
        return
    title = heading.lines[0]
    draw.text((left, h * 0.47), title, font=big, fill=pal.title_text, anchor="lm")
    if heading.subtitle:
        x = left + draw.textlength(title, font=big) + h * 0.25
        small = font(round(h * 0.27), BOLD)
        draw.text((x, h * 0.50), heading.subtitle, font=small, fill=pal.title_dim, anchor="lm")


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
