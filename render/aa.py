"""Anti-aliased drawing with Pillow: draw a few shapes on a supersampled tile, shrink, paste.

ImageDraw does not anti-alias lines or polygons. Drawing the shapes of one order (or one icon) at
``factor`` times the size on a transparent tile just big enough to hold them, then shrinking the tile
with ``Image.reduce`` (a box filter that handles alpha correctly) and pasting it with its own alpha,
gives smooth edges at a cost proportional to the shapes' size, not the picture's.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]

SUPERSAMPLE = 3


@dataclass(frozen=True, slots=True)
class Stroke:
    """A polyline; ``dash`` = (on, off) lengths in pixels for a dashed line."""

    points: Sequence[Point]
    width: float
    colour: RGBA
    dash: tuple[float, float] | None = None
    round_ends: bool = False


@dataclass(frozen=True, slots=True)
class Fill:
    points: Sequence[Point]
    colour: RGBA
    outline: RGBA | None = None
    outline_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Circle:
    centre: Point
    radius: float
    fill: RGBA | None = None
    outline: RGBA | None = None
    width: float = 0.0


Shape = Stroke | Fill | Circle


def _extent(shape: Shape) -> tuple[float, float, float, float]:
    if isinstance(shape, Circle):
        r = shape.radius + shape.width
        x, y = shape.centre
        return (x - r, y - r, x + r, y + r)
    pad = shape.width if isinstance(shape, Stroke) else shape.outline_width
    xs = [p[0] for p in shape.points]
    ys = [p[1] for p in shape.points]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def dash_segments(points: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """Cut a polyline into dashes of length ``on`` separated by gaps of length ``off``."""
    dashes: list[list[Point]] = []
    current: list[Point] = []
    drawing, left = True, on
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > 1e-9:
            step = min(left, seg - pos)
            t0, t1 = pos / seg, (pos + step) / seg
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            if drawing:
                if not current:
                    current.append(a)
                current.append(b)
            pos += step
            left -= step
            if left <= 1e-9:
                if drawing and current:
                    dashes.append(current)
                    current = []
                drawing = not drawing
                left = on if drawing else off
    if current and len(current) > 1:
        dashes.append(current)
    return dashes


BIG_TILE = 250_000  # target pixels: a group of shapes whose box is bigger is drawn band by band
BAND = 48  # the height of a band, in target pixels
SHRINK_BY_BANDS = 20_000  # target pixels: a smaller group's tile is shrunk whole, a bigger one by bands


def premultiplied(colour: RGBA) -> RGBA:
    """``colour`` with its red, green and blue multiplied by its alpha, rounded as Pillow's RGBA to
    RGBa conversion rounds them (so a shape drawn in it on an RGBa tile is that conversion's pixel)."""
    r, g, b, a = colour
    return (_times(r, a), _times(g, a), _times(b, a), a)


def _times(value: int, alpha: int) -> int:
    tmp = value * alpha + 128
    return ((tmp >> 8) + tmp) >> 8


def paint(
    target: Image.Image, shapes: Sequence[Shape], opacity: float = 1.0, factor: int = SUPERSAMPLE
) -> None:
    """Draw ``shapes`` (in order, in target pixels) anti-aliased onto ``target`` (RGB or RGBA).

    Shapes whose boxes do not touch are painted on tiles of their own (a move that leaves the map at
    one edge and comes in at another is two small pieces, not one tile the size of the map). A group
    whose box is big anyway (a long diagonal arrow) is shrunk band by band, each band only as wide as
    what crosses it: drawn once on the whole tile when that is of a moderate size, drawn band by band
    on tiles of their own past BIG_TILE. The same pixels either way, at a cost that follows the
    shapes' size, not their box's.

    The tile is premultiplied (mode RGBa, each colour converted by :func:`premultiplied`): ImageDraw
    sets pixels without blending, so the tile holds what converting an RGBA drawing would give, the
    box filter of ``reduce`` runs on it as it is, and Pillow composites a premultiplied tile directly.
    Converting the large tile from RGBA and the small one back, as ``reduce`` and ``paste`` of an RGBA
    tile do, was most of the cost of the order lines."""
    if not shapes:
        return
    for group in _clusters(shapes):
        boxes = [_extent(s) for s in group]
        x0 = max(0, math.floor(min(b[0] for b in boxes)) - 2)
        y0 = max(0, math.floor(min(b[1] for b in boxes)) - 2)
        x1 = min(target.width, math.ceil(max(b[2] for b in boxes)) + 2)
        y1 = min(target.height, math.ceil(max(b[3] for b in boxes)) + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        box = (x0, y0, x1, y1)
        area = (x1 - x0) * (y1 - y0)
        if area <= SHRINK_BY_BANDS:
            _paint_tile(target, group, opacity, factor, box, [box])
        elif area <= BIG_TILE:
            _paint_tile(target, group, opacity, factor, box, _bands(group, box))
        else:
            for band in _bands(group, box):
                _paint_tile(target, group, opacity, factor, band, [band])


def _bands(shapes: Sequence[Shape], box: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """``box`` cut into bands BAND rows high, each narrowed to what ``shapes`` draw in it (none where
    they draw nothing): a long diagonal arrow's box is mostly empty, its bands are not."""
    x0, y0, x1, y1 = box
    bands = []
    for top in range(y0, y1, BAND):
        bottom = min(top + BAND, y1)
        inside = _band_extent(shapes, top, bottom)
        if inside is None:
            continue
        left, right = max(x0, math.floor(inside[0]) - 2), min(x1, math.ceil(inside[2]) + 2)
        upper, lower = max(top, math.floor(inside[1]) - 2), min(bottom, math.ceil(inside[3]) + 2)
        if right > left and lower > upper:
            bands.append((left, upper, right, lower))
    return bands


def _clusters(shapes: Sequence[Shape]) -> list[list[Shape]]:
    """The shapes in groups whose boxes touch (directly or through others), each in painting order."""
    boxes = [_extent(s) for s in shapes]
    parent = list(range(len(shapes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(shapes)), 2):
        a, b = boxes[i], boxes[j]
        if a[0] <= b[2] + 2 and b[0] <= a[2] + 2 and a[1] <= b[3] + 2 and b[1] <= a[3] + 2:
            parent[root(j)] = root(i)
    groups: dict[int, list[Shape]] = {}
    for i, shape in enumerate(shapes):
        groups.setdefault(root(i), []).append(shape)
    return list(groups.values())


def _band_extent(shapes: Sequence[Shape], top: float, bottom: float) -> tuple[float, ...] | None:
    """The box (x0, y0, x1, y1) of what ``shapes`` draw between rows ``top`` and ``bottom``, or None."""
    x_low = y_low = math.inf
    x_high = y_high = -math.inf
    for shape in shapes:
        x0, y0, x1, y1 = _extent(shape)
        if y1 < top or y0 > bottom:
            continue
        if not isinstance(shape, Stroke):
            x_low, x_high = min(x_low, x0), max(x_high, x1)
            y_low, y_high = min(y_low, y0), max(y_high, y1)
            continue
        pad = shape.width
        for (ax, ay), (bx, by) in itertools.pairwise(shape.points):
            if max(ay, by) + pad < top or min(ay, by) - pad > bottom:
                continue
            if abs(by - ay) < 1e-9:
                t0, t1 = 0.0, 1.0
            else:  # the part of the segment within the band (widened by the stroke)
                t0 = (top - pad - ay) / (by - ay)
                t1 = (bottom + pad - ay) / (by - ay)
                t0, t1 = max(0.0, min(t0, t1)), min(1.0, max(t0, t1))
            xs = (ax + (bx - ax) * t0, ax + (bx - ax) * t1)
            ys = (ay + (by - ay) * t0, ay + (by - ay) * t1)
            x_low, x_high = min(x_low, *xs) - pad, max(x_high, *xs) + pad
            y_low, y_high = min(y_low, *ys) - pad, max(y_high, *ys) + pad
    if x_low > x_high:
        return None
    return (x_low, max(y_low, top), x_high, min(y_high, bottom))


def _paint_tile(
    target: Image.Image,
    shapes: Sequence[Shape],
    opacity: float,
    factor: int,
    box: tuple[int, int, int, int],
    parts: Sequence[tuple[int, int, int, int]],
) -> None:
    """Draw ``shapes`` on a supersampled tile covering ``box`` of ``target``, then shrink each of the
    ``parts`` of it (boxes within ``box``, where the shapes are) and paste it in place: shrinking
    costs by the pixel, drawing by the shape, so a big sparse tile is drawn once and shrunk in parts."""
    x0, y0, x1, y1 = box
    tile = Image.new("RGBa", ((x1 - x0) * factor, (y1 - y0) * factor), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)

    def tf(p: Point) -> Point:
        return ((p[0] - x0) * factor, (p[1] - y0) * factor)

    def ink(colour: RGBA) -> RGBA:
        return _ink(colour, opacity)

    for shape in shapes:
        _draw(draw, shape, tf, factor, ink)
    for left, upper, right, lower in parts:
        area = ((left - x0) * factor, (upper - y0) * factor, (right - x0) * factor, (lower - y0) * factor)
        small = tile.reduce(factor, box=area)
        target.paste(small, (left, upper), small)


@lru_cache(maxsize=256)
def _ink(colour: RGBA, opacity: float) -> RGBA:
    """``colour`` premultiplied and faded to ``opacity``: a premultiplied pixel's colour and alpha fade
    together, so fading the colours drawn is fading the tile (without a pass over its pixels)."""
    premul = premultiplied(colour)
    if opacity >= 1.0:
        return premul
    r, g, b, a = (round(v * opacity) for v in premul)
    return (r, g, b, a)


def _draw(
    draw: ImageDraw.ImageDraw,
    shape: Shape,
    tf: Callable[[Point], Point],
    factor: int,
    ink: Callable[[RGBA], RGBA],
) -> None:
    if isinstance(shape, Circle):
        cx, cy = tf(shape.centre)
        r = shape.radius * factor
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=None if shape.fill is None else ink(shape.fill),
            outline=None if shape.outline is None else ink(shape.outline),
            width=max(1, round(shape.width * factor)) if shape.outline else 0,
        )
    elif isinstance(shape, Fill):
        pts = [tf(p) for p in shape.points]
        draw.polygon(pts, fill=ink(shape.colour))
        if shape.outline is not None and shape.outline_width > 0:
            w = max(1, round(shape.outline_width * factor))
            draw.line([*pts, pts[0], pts[1]], fill=ink(shape.outline), width=w, joint="curve")
    else:
        colour = ink(shape.colour)
        width = max(1, round(shape.width * factor))
        parts = (
            dash_segments(shape.points, shape.dash[0], shape.dash[1]) if shape.dash else [list(shape.points)]
        )
        for part in parts:
            pts = [tf(p) for p in part]
            # No round joints: our strokes are smooth curves of short segments, where the notches
            # joints would fill are invisible, and round joints cost a pie slice per vertex.
            draw.line(pts, fill=colour, width=width)
            if shape.round_ends:
                r = width / 2
                for x, y in (pts[0], pts[-1]):
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
