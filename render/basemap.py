"""The static part of the picture, built once per (width, palette, labels) and cached.

Two layers:

* ``framed``: a palette ('P') image of the whole picture without a legend, in which every pixel of
  the map area holds the number of the province (or decoration) under it and the title bar's and
  footer's rows hold :data:`FRAME`. Filling the provinces for a given board is then one palette swap
  and one conversion to RGB, a few milliseconds whatever the board (no blank picture to paste it
  into: -1.2 ms at 1600 px); the map area alone (a picture with a legend under it) is cut from it;
* ``overlay``: everything that does not depend on the board -- coastlines, borders, Switzerland's
  hatching -- drawn supersampled for smooth edges, as RGBa (premultiplied: Pillow composites such a
  layer about three times faster than an RGBA one) pieces pasted over the fills. Only the pieces
  where something is drawn are kept: strips 16 rows high, cut around their lines (a fifth to a
  third of the map's area, and as quick to paste as the whole layer);
* ``closed_hatch``: the same hatching over the provinces a variant closes for a while (Italy while
  it is neutral in the 1914 game), cached per set of provinces and cut to them, pasted under the
  overlay;
* ``labels``: the province names with a light halo, small RGBA images pasted after the order lines
  and before the units, so that arrows never hide a name (and the names never sit under a unit: their
  places in data/variants/standard/geometry.json are chosen clear of the units' spots).

The layers are cached per worker process in one cache bounded by the bytes it holds (render.lru),
least recently used out first: every variant's map at its own width and at the previews' 1600 px
takes about 59 MiB (``bench/variant_maps.py`` prints each entry's size), under the
:data:`CACHE_BUDGET` of 64 MiB. Maps that share a drawing (the Standard board of the 1914 game,
Chaos, Fleet Rome) share their entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.variants import geometry_file
from render import layout as L
from render.geometry import MapGeometry, Point, Polygon, ProvinceShape, load_geometry
from render.layout import Layout
from render.lru import ByteLRU, CacheInfo
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
CACHE_BUDGET = 64 * 2**20  # bytes of cached layers per process (render.lru)
STRIP = 16  # rows of an overlay piece
CELL = 16  # columns looked at together when cutting a strip into pieces
GAP = 2  # empty cells that may stay inside one piece (fewer, longer pieces paste as fast)


@dataclass(frozen=True, slots=True)
class BaseMap:
    layout: Layout
    framed: (
        Image.Image
    )  # 'P' mode, the whole picture without a legend: the map area's index, FRAME rows around it
    slot_of: dict[str, int]  # province code -> palette slot
    sea_codes: frozenset[str]
    overlay: tuple[Sprite, ...]  # RGBa (premultiplied) pieces and their corners in the map area
    labels: tuple[Sprite, ...]  # province names and where they go in the picture (may be empty)
    fixed_colours: dict[int, RGB]

    @property
    def nbytes(self) -> int:
        """The bytes of pixels this holds (what the cache counts)."""
        return image_bytes(self.framed) + sum(image_bytes(img) for img, _ in (*self.overlay, *self.labels))

    def index(self) -> Image.Image:
        """The map area's index alone (a copy cut from ``framed``)."""
        top = self.layout.title_height
        return self.framed.crop((0, top, self.layout.width, top + self.layout.map_height))


@dataclass(frozen=True, slots=True)
class Hatch:
    """A closed provinces' hatching: an RGBA image and its corner in the map area."""

    image: Image.Image
    corner: tuple[int, int]

    @property
    def nbytes(self) -> int:
        return image_bytes(self.image)


def image_bytes(img: Image.Image) -> int:
    """The bytes of an image's pixels (Pillow keeps 4 a pixel for 3-band modes, as for 4)."""
    return img.width * img.height * (1 if img.mode in ("P", "L", "1") else 4)


_CACHE: ByteLRU[tuple[object, ...], BaseMap | Hatch] = ByteLRU(CACHE_BUDGET, lambda v: v.nbytes)


def cache_info() -> CacheInfo:
    """Hits, misses, evictions and bytes of this process's cache of layers."""
    return _CACHE.info()


def cache_keys() -> list[tuple[object, ...]]:
    """What the cache holds, least recently used first: ``("base", width, palette, labels, drawing)``
    and ``("hatch", width, palette, drawing, provinces)``."""
    return _CACHE.keys()


def set_cache_budget(budget: int) -> None:
    """Hold at most ``budget`` bytes of layers from now on (tests, benchmarks)."""
    _CACHE.set_budget(budget)


def clear_cache() -> None:
    """Forget every cached layer and the counts (tests, benchmarks)."""
    _CACHE.clear()


def drawing_of(map_name: str) -> str:
    """The drawing ``map_name`` is drawn from (its geometry file): maps that share one share their
    cached layers."""
    return str(geometry_file(map_name))


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


def _pieces(layer: Image.Image) -> tuple[Sprite, ...]:
    """The parts of an RGBa ``layer`` where something is drawn: each strip of :data:`STRIP` rows cut
    into runs of :data:`CELL`-wide columns holding a pixel (runs at most :data:`GAP` empty cells
    apart joined), each run trimmed to what it holds. Pasted in turn, they give the layer."""
    drawn = layer.getchannel("a").point(lambda v: 255 if v else 0)
    # a cell holds something when its (twice averaged) mean is not zero: any pixel at 255 in a row of
    # CELL columns averages at least 255 / CELL, in a column of STRIP such rows at least that / STRIP
    columns = drawn.reduce((CELL, 1)).point(lambda v: 255 if v else 0)
    cells = columns.reduce((1, STRIP))
    across = cells.width
    occupied = cells.tobytes()
    pieces: list[Sprite] = []
    for row in range(cells.height):
        top, bottom = row * STRIP, min(layer.height, (row + 1) * STRIP)
        start = last = None
        runs = []
        for col in range(across):
            if not occupied[row * across + col]:
                continue
            if start is None or last is None:
                start = col
            elif col - last > GAP + 1:
                runs.append((start, last))
                start = col
            last = col
        if start is not None and last is not None:
            runs.append((start, last))
        for first, final in runs:
            box = (first * CELL, top, min(layer.width, (final + 1) * CELL), bottom)
            trim = layer.crop(box).getchannel("a").getbbox()
            if trim is None:
                continue
            left, upper = box[0] + trim[0], box[1] + trim[1]
            pieces.append((layer.crop((left, upper, box[0] + trim[2], box[1] + trim[3])), (left, upper)))
    return tuple(pieces)


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


def base_map(width: int, palette_name: str, show_labels: bool, map_name: str = "standard") -> BaseMap:
    """The cached static layers for a picture ``width`` pixels wide."""
    key = ("base", width, palette_name, show_labels, drawing_of(map_name))
    found = _CACHE.get_or_build(key, lambda: _build_base_map(width, palette_name, show_labels, map_name))
    assert isinstance(found, BaseMap)
    return found


def _build_base_map(width: int, palette_name: str, show_labels: bool, map_name: str) -> BaseMap:
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
    overlay = _pieces(_build_overlay(geo, lay, pal))
    labels = _build_labels(geo, lay, pal) if show_labels else ()
    seas = frozenset(c for c, p in geo.provinces.items() if p.kind == "sea")
    return BaseMap(
        layout=lay,
        framed=framed,
        slot_of=slot_of,
        sea_codes=seas,
        overlay=overlay,
        labels=labels,
        fixed_colours=fixed,
    )


def closed_hatch(width: int, palette_name: str, map_name: str, closed: frozenset[str]) -> Hatch:
    """The hatching of the ``closed`` provinces (like Switzerland's, wider), cut to them."""
    key = ("hatch", width, palette_name, drawing_of(map_name), closed)
    found = _CACHE.get_or_build(key, lambda: _build_hatch(width, palette_name, map_name, closed))
    assert isinstance(found, Hatch)
    return found


def _build_hatch(width: int, palette_name: str, map_name: str, closed: frozenset[str]) -> Hatch:
    geo = load_geometry(map_name)
    pal = get_palette(palette_name)
    lay = Layout.for_width(width, geo)
    shapes = [geo.provinces[code] for code in sorted(closed) if code in geo.provinces]
    k = LINE_SUPERSAMPLE
    layer = _hatch(shapes, lay, pal.closed_hatch, k, spacing=3.0).reduce(k)
    box = layer.getbbox() or (0, 0, 1, 1)
    return Hatch(layer.crop(box), (box[0], box[1]))


FOG_VEIL = (84, 90, 104, 205)  # over what a power does not see (fog of war): dark slate, a little see-through
FOG_LINE = (52, 56, 66, 200)  # and hatched, so that it reads as hidden in both palettes and in greys


def fog_veil(width: int, map_name: str, hidden: frozenset[str], closed: Hatch | None = None) -> Hatch:
    """The fog of war over the ``hidden`` provinces: a grey veil and hatching, cut to them (with the
    ``closed`` provinces' hatching merged in). Not cached: each power's view differs every phase; the
    veil's pattern is (one per width and drawing)."""
    geo = load_geometry(map_name)
    lay = Layout.for_width(width, geo)
    # Painted as the index is (seas, then land over them), so that an island or a lake takes the
    # fate of the province around it, and what is no province (Switzerland) stays veiled.
    mask = Image.new("L", (lay.width, lay.map_height), 255)
    draw = ImageDraw.Draw(mask)
    codes = sorted(geo.provinces)
    for code in [c for c in codes if geo.provinces[c].kind == "sea"] + [
        c for c in codes if geo.provinces[c].kind != "sea"
    ]:
        _draw_polygons(draw, geo.provinces[code].polygons, lay, 255 if code in hidden else 0)
    # An island that is no province (Corsica, Ireland) goes with a sea it lies in that is in sight.
    boxes = [
        _box(geo.provinces[c].polygons) for c in codes if geo.provinces[c].kind == "sea" and c not in hidden
    ]
    for island in geo.islands:
        xs, ys = zip(*island[0], strict=True)
        middle = (sum(xs) / len(xs), sum(ys) / len(ys))
        if any(x0 <= middle[0] <= x1 and y0 <= middle[1] <= y1 for x0, y0, x1, y1 in boxes):
            _draw_polygons(draw, (island,), lay, 0)
    key = ("fog", width, drawing_of(map_name))
    pattern = _CACHE.get_or_build(key, lambda: Hatch(_fog_pattern(lay), (0, 0)))
    assert isinstance(pattern, Hatch)
    veil = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    veil.paste(pattern.image, (0, 0), mask)
    if closed is not None:
        veil.alpha_composite(closed.image, closed.corner)
    box = veil.getbbox() or (0, 0, 1, 1)
    return Hatch(veil.crop(box), (box[0], box[1]))


def _box(polygons: tuple[Polygon, ...]) -> tuple[float, float, float, float]:
    """The bounding box of polygons' exterior rings, in map units."""
    points = [p for poly in polygons for p in poly[0]]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _fog_pattern(lay: Layout) -> Image.Image:
    """The veil over the whole map area: :data:`FOG_VEIL` crossed by diagonal :data:`FOG_LINE`."""
    img = Image.new("RGBA", (lay.width, lay.map_height), FOG_VEIL)
    draw = ImageDraw.Draw(img)
    step = max(4, round(lay.size(4.0)))
    w, h = img.size
    x = -h
    while x < w:
        draw.line([(x, h), (x + h, 0)], fill=FOG_LINE, width=max(1, round(lay.size(0.5))))
        x += step
    return img


def filled_map(
    base: BaseMap, colours: dict[str, RGB], land: RGB, sea: RGB, hatch: Hatch | None = None
) -> Image.Image:
    """The map area in RGB: provinces filled with ``colours`` (others: land or sea), then ``hatch``
    (closed provinces), overlay on top."""
    img = Image.new("RGB", (base.layout.width, base.layout.map_height))
    paint_filled_map(img, (0, 0), base, colours, land, sea, hatch)
    return img


def paint_filled_map(
    target: Image.Image,
    corner: tuple[int, int],
    base: BaseMap,
    colours: dict[str, RGB],
    land: RGB,
    sea: RGB,
    hatch: Hatch | None = None,
) -> None:
    """:func:`filled_map` painted straight onto ``target`` (RGB) at ``corner``: the paletted index is
    converted as it is pasted, with no map-sized RGB copy in between."""
    index = base.index()
    index.putpalette(_fill_colours(base, colours, land, sea))
    target.paste(index, corner)
    _decorate(target, corner, base, hatch)


def framed_filled_map(
    base: BaseMap,
    colours: dict[str, RGB],
    land: RGB,
    sea: RGB,
    frame: RGB,
    hatch: Hatch | None = None,
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


def _decorate(target: Image.Image, corner: tuple[int, int], base: BaseMap, hatch: Hatch | None) -> None:
    """The closed provinces' hatching, then the lines (coasts, borders) over the filled map."""
    x, y = corner
    if hatch is not None:
        target.paste(hatch.image, (x + hatch.corner[0], y + hatch.corner[1]), hatch.image)
    for piece, (left, top) in base.overlay:
        target.paste(piece, (x + left, y + top), piece)
