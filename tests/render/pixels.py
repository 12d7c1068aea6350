"""Helpers for the render tests: draw a board, decode the PNG, and look at its pixels."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence

from PIL import Image

from engine.board import Board
from engine.mapdata import load_map
from engine.variants import get_variant
from render import OrderMark, RenderOptions, render_map
from render.geometry import MapGeometry, Point, load_geometry
from render.layout import Layout
from render.palette import RGB, palette_for

WIDTH = 1000  # small enough to be quick, big enough to see a unit

# The Standard map's palettes, its powers' colours read from data/variants/standard/variant.json.
STANDARD = palette_for(get_variant("standard"), "default")
STANDARD_CB = palette_for(get_variant("standard"), "colorblind")


def board(
    units: dict[str, list[str]],
    centers: dict[str, list[str]] | None = None,
    phase: str = "S1901M",
    dislodged: dict | None = None,
) -> Board:
    data = {"phase": phase, "units": units, "centers": centers or {}}
    if dislodged:
        data["dislodged"] = dislodged
    return Board.from_json(data, load_map())


def draw(
    b: Board, marks: Sequence[OrderMark] = (), width: int = WIDTH, palette: str = "default", **kw
) -> Image.Image:
    png = render_map(b, list(marks), options=RenderOptions(width=width, palette=palette, **kw))
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def layout(width: int = WIDTH) -> Layout:
    return Layout.for_width(width, load_geometry())


def to_px(p: Point, width: int = WIDTH) -> tuple[int, int]:
    x, y = layout(width).px(p)
    return round(x), round(y)


def rgb_at(img: Image.Image, xy: tuple[int, int]) -> RGB:
    """One pixel of an RGB picture (as draw() gives them)."""
    pixel = img.getpixel(xy)
    assert isinstance(pixel, tuple) and len(pixel) == 3, f"not an RGB pixel at {xy}: {pixel!r}"
    r, g, b = pixel
    return r, g, b


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    return math.dist(a, b)


def nearest(colour: RGB, candidates: dict[str, RGB]) -> str:
    return min(candidates, key=lambda name: distance(colour, candidates[name]))


def window(img: Image.Image, centre: tuple[int, int], radius: int) -> list[RGB]:
    cx, cy = centre
    return [
        rgb_at(img, (x, y))
        for x in range(cx - radius, cx + radius + 1)
        for y in range(cy - radius, cy + radius + 1)
        if 0 <= x < img.width and 0 <= y < img.height
    ]


def count_near(pixels: Iterable[RGB], colour: Sequence[int], tolerance: float = 28.0) -> int:
    return sum(1 for p in pixels if distance(p, colour) <= tolerance)


def inside(p: Point, ring: Sequence[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = p
    hit = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def in_province(p: Point, code: str, geo: MapGeometry | None = None) -> bool:
    geo = geo or load_geometry()
    return any(
        inside(p, poly[0]) and not any(inside(p, h) for h in poly[1:])
        for poly in geo.provinces[code].polygons
    )


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    if dx == dy == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def fill_at(img: Image.Image, code: str, width: int | None = None) -> str:
    """Which fill a province shows (default palette): the nearest power's fill, plain land or sea."""
    fills = {"land": STANDARD.land, "sea": STANDARD.sea} | {p: c.fill for p, c in STANDARD.powers.items()}
    return nearest(rgb_at(img, to_px(quiet_point(code), width or img.width)), fills)


def quiet_point(code: str) -> Point:
    """A point inside the province as far as possible from its border, unit spots, name and center."""
    geo = load_geometry()
    shape = geo.provinces[code]
    ring = shape.polygons[0][0]
    features = [shape.unit, shape.label, *shape.coasts.values()]
    if shape.supply_center:
        features.append(shape.supply_center)
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    best, best_score = shape.unit, -1.0
    steps = 24
    for i in range(steps + 1):
        for j in range(steps + 1):
            p = (min(xs) + (max(xs) - min(xs)) * i / steps, min(ys) + (max(ys) - min(ys)) * j / steps)
            if not in_province(p, code, geo):
                continue
            edge = min(_segment_distance(p, ring[k], ring[(k + 1) % len(ring)]) for k in range(len(ring)))
            clear = min(math.dist(p, f) for f in features)
            score = min(edge, clear / 2)
            if score > best_score:
                best, best_score = p, score
    return best
