"""Putting one picture together: fills, supply centers, orders, units, marks, title; then PNG bytes."""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from engine.adjudication import standing_centers
from engine.board import Board
from engine.orders import Order
from render import layout as L
from render.basemap import base_map, closed_hatch, fog_veil, framed_filled_map, paint_filled_map
from render.geometry import load_geometry
from render.icons import EDGE, RIM, center_sprite, paste_centred, unit_sprite
from render.legend import draw_crossing_notes, draw_legend, legend_height, wants_legend
from render.marks import OrderMark, marks_from_results
from render.orders import BUILD_GREEN, DISLODGED_ORANGE, OrderOverlay
from render.palette import RGB, Palette, palette_for
from render.scene import DrawnUnit, Scene
from render.titlebar import draw_footer, draw_title

DEFAULT_WIDTH = 1600
STANDARD_MAP_WIDTH = 628.0  # the Standard map's width in map units, drawn DEFAULT_WIDTH pixels wide
PALETTE_SAMPLE_STEP = 4  # the palette is chosen on every 4th pixel of every 4th row (encode_png)
MAX_KEY_COLOURS = 64  # the rest of the 256 are the octree's (Standard: 18 keys, Chaos: 34 powers, 22)
PNG_COMPRESS_LEVEL = 2  # zlib level: 6 took twice as long (16 ms more) for a file 15% smaller
# The cached layers, sprites and fonts are shared; one picture at a time per process keeps FreeType
# and the caches safe when the bot renders from several threads (the work is CPU-bound anyway).
_RENDER_LOCK = threading.Lock()
GHOST_OPACITY = 0.5
FADING_OPACITY = 0.45


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How to draw: picture width in pixels (None: :func:`picture_width`, the map's own), palette
    ('default' or 'colorblind'), province names on or off, a title to use instead of the phase's name,
    and whether an adjustment phase's chips show the builds and removals due (not on a final position:
    nothing is built after the end); with ``fog``, one power's view (fog of war)."""

    width: int | None = None
    palette: str = "default"
    show_labels: bool = True
    title: str | None = None
    show_adjustments: bool = True
    # Fog of war: the provinces the viewer sees (engine.fog.visible_provinces); the others are veiled.
    # Draw the board as the viewer sees it (engine.fog.fog_board): the veil hides no unit by itself.
    fog: frozenset[str] | None = None
    viewer: str | None = None  # whose view it is: the title bar shows that power's count alone


def picture_width(map_name: str) -> int:
    """The width a map is drawn at by default: DEFAULT_WIDTH for the Standard map, and a bigger map
    (Youngstown is twice as wide in map units) as many times wider, so that its provinces, names and
    units come out the size of the Standard map's, as legible when a phone's screen zooms in."""
    geo = load_geometry(map_name)
    return max(L.MIN_WIDTH, min(L.MAX_WIDTH, round(DEFAULT_WIDTH * geo.width / STANDARD_MAP_WIDTH)))


def _as_marks(board: Board, orders: Sequence[OrderMark | Order]) -> list[OrderMark]:
    marks = []
    for item in orders:
        if isinstance(item, OrderMark):
            marks.append(item)
        elif item.unit is not None:
            owner = board.owner_at(item.unit.location)
            if owner is None:
                owner = next(
                    (
                        d.power
                        for ds in board.dislodged.values()
                        for d in ds
                        if d.unit.province == item.unit.province
                    ),
                    "",
                )
            marks.append(OrderMark(owner, item, None))
    return marks


def _subtitle(marks: Sequence[OrderMark]) -> str:
    if not marks:
        return ""
    return "results" if any(m.status is not None for m in marks) else "orders"


def render_image(
    board: Board,
    orders: Sequence[OrderMark | Order] | None = None,
    results: Mapping[str, Any] | None = None,
    options: RenderOptions | None = None,
) -> Image.Image:
    """The picture as a Pillow RGB image (see :func:`render_map`)."""
    if isinstance(results, RenderOptions):
        raise TypeError("options come after results: pass them by keyword, options=RenderOptions(...)")
    with _RENDER_LOCK:
        return _render_image(board, orders, results, options)


def _render_image(
    board: Board,
    orders: Sequence[OrderMark | Order] | None,
    results: Mapping[str, Any] | None,
    options: RenderOptions | None,
) -> Image.Image:
    options = options or RenderOptions()
    board, standing = _as_units_stand(board)
    pal: Palette = palette_for(board.rules, options.palette)
    map_name = board.game_map.name
    geo = load_geometry(map_name)
    width = options.width or picture_width(map_name)
    base = base_map(width, options.palette, options.show_labels, map_name)
    lay = base.layout
    legend = wants_legend(board)
    if legend:
        lay = replace(lay, legend_height=legend_height(board, lay))
    marks = _as_marks(board, orders or ())
    if results is not None:
        marks += marks_from_results(results, board.game_map)

    fills = {}
    for power, centers in board.centers.items():
        for prov in centers:
            fills[prov] = pal.power(power).fill
    hatch = closed_hatch(width, options.palette, map_name, board.closed) if board.closed else None
    if options.fog is not None:
        hidden = frozenset(board.game_map.provinces) - options.fog
        hatch = fog_veil(width, map_name, hidden, hatch) if hidden else hatch
    if lay.height == base.framed.height:
        img = framed_filled_map(base, fills, pal.land, pal.sea, pal.title_bg, hatch)
    else:  # a legend under the map (Chaos): a taller picture
        img = Image.new("RGB", (lay.width, lay.height), pal.title_bg)
        paint_filled_map(img, (0, lay.title_height), base, fills, pal.land, pal.sea, hatch)

    centre_r = lay.size(L.CENTER_RADIUS)
    for prov in sorted(board.game_map.supply_centers):
        shape = geo.provinces.get(prov)
        if shape is None or shape.supply_center is None:
            continue
        owner = board.owner_of_center(prov)
        colour = pal.power(owner).unit if owner else pal.neutral_center
        paste_centred(img, center_sprite(colour, pal.center_ring, centre_r), lay.px(shape.supply_center))

    scene = Scene.build(board, marks, geo, lay, pal)
    overlay = OrderOverlay(scene)
    overlay.paint_under(img)
    for label, corner in base.labels:
        img.paste(label, corner, label)
    if options.show_labels:
        draw_crossing_notes(img, board, geo, lay, pal)
    for unit in scene.units:
        _draw_unit(img, unit, scene)
    overlay.paint_over(img)

    draw_title(
        img,
        board,
        lay,
        pal,
        options.title or board.phase.long_name,
        " \u00b7 ".join(filter(None, [_subtitle(marks), STANDING_NOTE if standing else ""])),
        adjustments=options.show_adjustments,
        chips=not legend,
        only=options.viewer,
    )
    draw_legend(img, board, lay, pal, only=options.viewer)
    draw_footer(img, lay, pal, _footer_note(board, standing))
    return img


STANDING_NOTE = "centers as the units stand"
STANDING_FOOTER = "centers change hands after the retreats"


def _as_units_stand(board: Board) -> tuple[Board, bool]:
    """A fall's retreat phase (the board a fall's results are drawn on, and the position of its
    retreats) with its centers as the units stand (engine.adjudication.standing_centers), and True;
    any other board as it is, and False. Centers change hands at the end of the fall, after its
    retreats, so such a board still has the year's old owners: its picture would show last year's
    counts beside this fall's moves. Drawn as the units stand, it shows what the fall changed, and
    says so (only a retreat into a center can still change it)."""
    if board.phase.season != "F" or board.phase.kind != "R":
        return board, False
    return replace(board, centers=standing_centers(board)), True


def _footer_note(board: Board, standing: bool = False) -> str:
    """The variant's victory target, and what is closed while it is ("Italy is neutral until ...");
    in a fall's retreat phase, that its centers change hands after the retreats."""
    note = f"{board.rules.target(board.game_map)} centers win"
    if standing:
        note += f" \u00b7 {STANDING_FOOTER}"
    if board.closed:
        note += f" \u00b7 {board.rules.neutral_until()}"
    return note


def _draw_unit(img: Image.Image, u: DrawnUnit, scene: Scene) -> None:
    lay, pal = scene.layout, scene.palette
    colours = pal.power(u.power)
    sprite = unit_sprite(
        u.unit.type or "A",
        colours.unit,
        colours.ink,
        lay.size(L.ARMY_RADIUS),
        lay.size(L.FLEET_HALF_WIDTH),
        lay.size(L.FLEET_HALF_HEIGHT),
        colours.letter if pal.letters_on_units else "",
    )
    opacity = FADING_OPACITY if u.fading else GHOST_OPACITY if u.ghost else 1.0
    paste_centred(img, sprite, u.at, opacity)


def encode_png(img: Image.Image, key_colours: Sequence[RGB] = ()) -> bytes:
    """PNG bytes, the same for the same picture (no timestamps or other metadata).

    The picture is mostly flat colour, so a 256-colour palette (:func:`paletted`) keeps it visually
    unchanged at about a third of the size of an RGB PNG, and encodes faster.
    """
    buf = io.BytesIO()
    paletted(img, key_colours).save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def paletted(
    img: Image.Image, key_colours: Sequence[RGB] = (), step: int = PALETTE_SAMPLE_STEP
) -> Image.Image:
    """``img`` in 256 colours, without dithering: the ``key_colours`` the picture was drawn with, then
    as many more as fit chosen by Pillow's fast octree; every pixel takes the nearest of them.

    The key colours keep what is drawn small exactly its colour however few pixels it has (a failed
    order's red cross on a map without other red); the octree adds the blends of anti-aliased edges.
    It looks at one pixel in ``step`` of one row in ``step`` (a nearest-neighbour copy that much
    smaller: each colour keeps its share of the picture, thin lines their own colour, where a filtered
    copy would blend them away). At 4, a sixteenth of the work, the colour error is no worse than the
    octree's alone on every other pixel of every other row (bench/palette_sample.py).
    """
    keys = list(dict.fromkeys(key_colours))[:MAX_KEY_COLOURS]
    sample = img.resize((max(1, img.width // step), max(1, img.height // step)), Image.Resampling.NEAREST)
    chosen = sample.quantize(
        colors=256 - len(keys), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    extra = chosen.getpalette() or []
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for rgb in keys for c in rgb] + extra[: 3 * (256 - len(keys))])
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def key_colours(board: Board, options: RenderOptions | None = None) -> list[RGB]:
    """The colours of what a picture of ``board`` draws small, before anti-aliasing blends them:
    units, their ink and the order marks in each power's colour, a failed order's cross, builds and
    dislodgements, supply centers and province names (see :func:`paletted`). The provinces' fills,
    the sea and the lines cover enough of any picture for the octree to find them."""
    pal = palette_for(board.rules, (options or RenderOptions()).palette)
    colours: list[RGB] = [pal.fail, BUILD_GREEN, DISLODGED_ORANGE, EDGE, RIM]
    colours += [pal.neutral_center, pal.center_ring, pal.label, pal.sea_label, pal.halo]
    for power in pal.powers.values():
        colours += [power.unit, power.ink]
    return colours


def render_map(
    board: Board,
    orders: Sequence[OrderMark | Order] | None = None,
    results: Mapping[str, Any] | None = None,
    options: RenderOptions | None = None,
) -> bytes:
    """Draw ``board`` with its orders (and their outcomes) as PNG bytes. Pure: same input, same bytes.

    ``orders`` are :class:`OrderMark` (power, order, status) or bare engine orders (drawn as not yet
    adjudicated, coloured by the unit's owner on ``board``). ``results`` may instead be an
    ``engine.adjudicate_json`` output (or its "orders" list), read with :func:`marks_from_results`.
    ``options`` (width, palette, names, title) is best passed by keyword.
    """
    return encode_png(render_image(board, orders, results, options), key_colours(board, options))
