"""The static part of the picture, built once per (width, palette, labels) and cached.

Two layers:

* ``index``: a palette ('P') image of the map area in which every pixel holds the number of the
  province (or decoration) under it. Filling the provinces for a given board is then one palette
  swap and a conversion to RGB, a few milliseconds whatever the board; ``framed``, the same with the
  title bar's and footer's rows around it, converts straight into the whole picture (no blank
  picture to paste it into: -1.2 ms at 1600 px);
* ``overlay``: an RGBa (premultiplied) image with everything that does not depend on the board --
  coastlines, borders, Switzerland's hatching -- drawn supersampled for smooth edges, pasted over the
  fills (Pillow composites a premultiplied layer about three times faster than an RGBA one);
* ``closed_hatch``: the same hatching over the provinces a variant closes for a while (Italy while
  it is neutral in the 1914 game), cached per set of provinces, pasted under the overlay;
* ``labels``: the province names with a light halo, small RGBA images pasted after the order lines
  and before the units, so that arrows never hide a name (and the names never sit under a unit: their
  places in data/variants/standard/geometry.json are chosen clear of the units' spots).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render import layout as L
from render.geometry import MapGeometry, Point, Polygon, ProvinceShape, load_geometry
from render.layout import Layout
from render.palette import RGB, Palette, get_palette
from render.text import CONDENSED_BOLD, font

LINE_SUPERSAMPLE = 2
Sprite = tuple[Image.Image, tuple[int, int]]  # an RGBA image and the picture position of its corner

# Fixed palette slots of the index image; provinces take 1..N in sorted order.
SHALLOWS = 250  # a band of sea along the coasts, a shade lighter
INLAND_WATER = 251
ISLAND = 252
IMPASSABLE = 253
FRAME = 254  # the title bar's and the footer's rows of ``framed``


@dataclass(frozen=True, slots=True)
class BaseMap:
    layout: Layout
    index: Image.Image  # 'P' mode, map area only
    framed: Image.Image  # 'P' mode, the whole picture without a legend: index with FRAME rows around it
    slot_of: dict[str, int]  # province code -> palette slot
    sea_codes: frozenset[str]
    overlay: Image.Image  # RGBa (premultiplied), map area only
    labels: tuple[Sprite, ...]  # province names and where they go in the picture (may be empty)
    fixed_colours: dict[int, RGB]


def _draw_polygons(draw: ImageDraw.ImageDraw, polygons: tuple[Polygon, ...], lay: Layout, fill: int) -> None:
    for poly in polygons:
        draw.polygon([lay.map_px(p) for p in poly[0]], fill=fill)


def _build_index(geo: MapGeometry, lay: Layout) -> tuple[Image.Image, dict[str, int]]:
    index = Image.new("P", (lay.width, lay.map_height), 0)
    draw = ImageDraw.Draw(index)
    codes = sorted(geo.provinces)
    slot_of = {code: i + 1 for i, code in enumerate(codes)}
    seas = [c for c in codes if geo.provinces[c].kind == "sea"]
    lands = [c for c in codes if geo.provinces[c].kind != "sea"]
    for code in seas:
        _draw_polygons(draw, geo.provinces[code].polygons, lay, slot_of[code])
    shallow_width = max(1, round(lay.size(2.6)))
    for line in geo.coast_lines:
        draw.line([lay.map_px(p) for p in line], fill=SHALLOWS, width=shallow_width, joint="curve")
    for code in lands:
        _draw_polygons(draw, geo.provinces[code].polygons, lay, slot_of[code])
    _draw_polygons(draw, geo.water, lay, INLAND_WATER)
    _draw_polygons(draw, geo.lakes, lay, INLAND_WATER)
    _draw_polygons(draw, geo.islands, lay, ISLAND)
    for shape in geo.impassable.values():
        _draw_polygons(draw, shape.polygons, lay, IMPASSABLE)
    return index, slot_of


def _hatch(
    shapes: list[ProvinceShape], lay: Layout, colour: RGB, k: int, spacing: float = 2.2
) -> Image.Image:
    """Diagonal hatching clipped to ``shapes``, at ``k`` times the size."""
    size = (lay.width * k, lay.map_height * k)
    mask = Image.new("L", size, 0)
    mdraw = ImageDraw.Draw(mask)
    for shape in shapes:
        for poly in shape.polygons:
            mdraw.polygon([(x * k, y * k) for x, y in (lay.map_px(p) for p in poly[0])], fill=255)
    lines = Image.new("RGBA", size, (0, 0, 0, 0))
    ldraw = ImageDraw.Draw(lines)
    bbox = mask.getbbox()
    if bbox:
        step = lay.size(spacing) * k
        x0, y0, x1, y1 = bbox
        x: float = x0 - (y1 - y0)
        while x < x1:
            ldraw.line([(x, y1), (x + (y1 - y0), y0)], fill=(*colour, 255), width=max(1, k))
            x += step
    out = Image.new("RGBA", size, (0, 0, 0, 0))
    out.paste(lines, (0, 0), mask)
    return out


def _build_overlay(geo: MapGeometry, lay: Layout, pal: Palette) -> Image.Image:
    k = LINE_SUPERSAMPLE
    big = _hatch(list(geo.impassable.values()), lay, pal.impassable_hatch, k)
    draw = ImageDraw.Draw(big)

    def pts(line: Sequence[Point]) -> list[Point]:
        return [(x * k, y * k) for x, y in (lay.map_px(p) for p in line)]

    for lines, colour, width, alpha in (
        (geo.sea_lines, pal.sea_line, L.SEA_LINE, 200),
        (geo.land_lines, pal.land_line, L.LAND_LINE, 235),
        (geo.coast_lines, pal.coast_line, L.COAST_LINE, 255),
    ):
        w = max(1, round(lay.size(width) * k))
        for line in lines:
            draw.line(pts(line), fill=(*colour, alpha), width=w, joint="curve")
    frame_w = max(1, round(lay.size(0.8) * k))
    draw.rectangle((0, 0, big.width - 1, big.height - 1), outline=(*pal.coast_line, 255), width=frame_w)
    return big.reduce(k).convert("RGBa")


def _build_labels(geo: MapGeometry, lay: Layout, pal: Palette) -> tuple[Sprite, ...]:
    """One small image per province name, with where it goes in the picture."""
    f = font(round(lay.size(L.LABEL_SIZE)), CONDENSED_BOLD)
    halo = max(1, round(lay.size(L.LABEL_HALO)))
    sprites = []
    for code, shape in sorted({**geo.provinces, **geo.impassable}.items()):
        colour = pal.sea_label if shape.kind == "sea" else pal.label
        x, y = lay.px(shape.label)
        left, top, right, bottom = f.getbbox(code, anchor="mm", stroke_width=halo)
        ox, oy = round(x + left) - 1, round(y + top) - 1
        img = Image.new("RGBA", (int(right - left) + 3, int(bottom - top) + 3), (0, 0, 0, 0))
        ImageDraw.Draw(img).text(
            (x - ox, y - oy),
            code,
            font=f,
            fill=(*colour, 255),
            anchor="mm",
            stroke_width=halo,
            stroke_fill=(*pal.halo, 190),
        )
        sprites.append((img, (ox, oy)))
    return tuple(sprites)


@lru_cache(maxsize=8)
def base_map(width: int, palette_name: str, show_labels: bool, map_name: str = "standard") -> BaseMap:
    """The cached static layers for a picture ``width`` pixels wide."""
    geo = load_geometry(map_name)
    pal = get_palette(palette_name)
    lay = Layout.for_width(width, geo)
    index, slot_of = _build_index(geo, lay)
    r, g, b = (round(c + (255 - c) * 0.22) for c in pal.sea)
    fixed = {
        0: pal.sea,
        SHALLOWS: (r, g, b),
        INLAND_WATER: pal.sea,
        ISLAND: pal.island,
        IMPASSABLE: pal.impassable,
    }
    framed = Image.new("P", (lay.width, lay.height), FRAME)
    framed.paste(index, (0, lay.title_height))
    overlay = _build_overlay(geo, lay, pal)
    labels = _build_labels(geo, lay, pal) if show_labels else ()
    seas = frozenset(c for c, p in geo.provinces.items() if p.kind == "sea")
    return BaseMap(
        layout=lay,
        index=index,
        framed=framed,
        slot_of=slot_of,
        sea_codes=seas,
        overlay=overlay,
        labels=labels,
        fixed_colours=fixed,
    )


@lru_cache(maxsize=8)
def closed_hatch(width: int, palette_name: str, map_name: str, closed: frozenset[str]) -> Image.Image:
    """An RGBA layer of the map area hatching the ``closed`` provinces (like Switzerland's, wider)."""
    geo = load_geometry(map_name)
    pal = get_palette(palette_name)
    lay = Layout.for_width(width, geo)
    shapes = [geo.provinces[code] for code in sorted(closed) if code in geo.provinces]
    k = LINE_SUPERSAMPLE
    return _hatch(shapes, lay, pal.closed_hatch, k, spacing=3.0).reduce(k)


def filled_map(
    base: BaseMap, colours: dict[str, RGB], land: RGB, sea: RGB, hatch: Image.Image | None = None
) -> Image.Image:
    """The map area in RGB: provinces filled with ``colours`` (others: land or sea), then ``hatch``
    (closed provinces), overlay on top."""
    img = Image.new("RGB", base.index.size)
    paint_filled_map(img, (0, 0), base, colours, land, sea, hatch)
    return img


def paint_filled_map(
    target: Image.Image,
    corner: tuple[int, int],
    base: BaseMap,
    colours: dict[str, RGB],
    land: RGB,
    sea: RGB,
    hatch: Image.Image | None = None,
) -> None:
    """:func:`filled_map` painted straight onto ``target`` (RGB) at ``corner``: the paletted index is
    converted as it is pasted, with no map-sized RGB copy in between."""
    index = base.index.copy()
    index.putpalette(_fill_colours(base, colours, land, sea))
    target.paste(index, corner)
    _decorate(target, corner, base, hatch)


def framed_filled_map(
    base: BaseMap,
    colours: dict[str, RGB],
    land: RGB,
    sea: RGB,
    frame: RGB,
    hatch: Image.Image | None = None,
) -> Image.Image:
    """The whole picture (without a legend) in RGB: the title bar's and footer's rows in ``frame``,
    the map area as :func:`paint_filled_map` paints it, made in one conversion."""
    lut = _fill_colours(base, colours, land, sea)
    lut[FRAME * 3 : FRAME * 3 + 3] = frame
    index = base.framed.copy()
    index.putpalette(lut)
    picture = index.convert("RGB")
    _decorate(picture, (0, base.layout.title_height), base, hatch)
    return picture


def _fill_colours(base: BaseMap, colours: dict[str, RGB], land: RGB, sea: RGB) -> list[int]:
    """The index's palette: each province in its owner's colour (or land or sea), the fixed slots."""
    lut = [0] * 768
    for slot, rgb in base.fixed_colours.items():
        lut[slot * 3 : slot * 3 + 3] = rgb
    for code, slot in base.slot_of.items():
        rgb = colours.get(code) or (sea if code in base.sea_codes else land)
        lut[slot * 3 : slot * 3 + 3] = rgb
    return lut


def _decorate(target: Image.Image, corner: tuple[int, int], base: BaseMap, hatch: Image.Image | None) -> None:
    """The closed provinces' hatching, then the lines (coasts, borders) over the filled map."""
    if hatch is not None:
        target.paste(hatch, corner, hatch)
    target.paste(base.overlay, corner, base.overlay)
