"""Draw a variant's starting position from its folder, to look at the converted map.

For checking scripts/convert_variant.py's output by eye; the bot renders games with render/, and
docs/images shows its pictures (scripts/variant_pictures.py). Run from the repository root::

    .venv/bin/python scripts/preview_variant.py ancmed                   # -> /tmp/variant_ancmed.png
    .venv/bin/python scripts/preview_variant.py ancmed --width 1400 --out /tmp/ancmed.png

It uses the renderer's own layers (render/basemap.py: fills, coastlines and borders, names) on the
variant's geometry, colours the home centres' provinces and the centre markers in the powers' colours
from variant.json, and draws the starting units with their power's letter. ``--width`` defaults to
the Standard map's scale at 1600 pixels (so units and names have the size they have there).
``--marks`` adds what a reviewer looks for: every unit anchor and coast spot as a small cross.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.variants import read_variant  # noqa: E402
from render import layout as L  # noqa: E402
from render.basemap import (  # noqa: E402
    FRAME,
    BaseMap,
    _build_index,
    _build_labels,
    _build_overlay,
    _pieces,
    filled_map,
)
from render.geometry import geometry_from_json  # noqa: E402
from render.icons import center_sprite, paste_centred, unit_sprite  # noqa: E402
from render.layout import Layout  # noqa: E402
from render.palette import COLORBLIND, DEFAULT, power_colours  # noqa: E402
from render.text import BOLD, font  # noqa: E402

STANDARD_PX_PER_UNIT = 1600 / 628


def _mix(c: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    r, g, b = (round(v + (255 - v) * t) for v in c)
    return r, g, b


def load_variant(folder: Path) -> tuple[dict[str, Any], dict[str, Any], Any]:
    variant = json.loads((folder / "variant.json").read_text(encoding="utf-8"))
    map_ref = variant.get("map", "map.json")
    variants_dir = ROOT / "data" / "variants"
    map_path = folder / map_ref if map_ref.endswith(".json") else variants_dir / map_ref / "map.json"
    geo_ref = variant.get("geometry", "geometry.json")
    standard = ROOT / "data" / "variants" / "standard"
    geo_path = folder / geo_ref if geo_ref.endswith(".json") else standard / "geometry.json"
    game_map = json.loads(map_path.read_text(encoding="utf-8"))
    geometry = json.loads(geo_path.read_text(encoding="utf-8"))
    return variant, game_map, geometry


def render_preview(folder: Path, width: int | None, marks: bool, colorblind: bool) -> Image.Image:
    variant, game_map, raw_geo = load_variant(folder)
    geo = geometry_from_json(raw_geo)
    width = width or min(L.MAX_WIDTH, round(geo.width * STANDARD_PX_PER_UNIT))
    lay = Layout.for_width(width, geo)
    base_pal = COLORBLIND if colorblind else DEFAULT
    info = read_variant(folder).powers  # the powers' colours as the renderer reads them
    pal = replace(base_pal, powers={name: power_colours(info.get(name), name, base_pal) for name in info})
    index, slot_of = _build_index(geo, lay)
    fixed = {0: pal.sea, 250: _mix(pal.sea, 0.22), 251: pal.sea, 252: pal.island, 253: pal.impassable}
    framed = Image.new("P", (lay.width, lay.height), FRAME)  # as render.basemap frames it
    framed.paste(index, (0, lay.title_height))
    base = BaseMap(
        layout=lay,
        framed=framed,
        slot_of=slot_of,
        sea_codes=frozenset(c for c, p in geo.provinces.items() if p.kind == "sea"),
        overlay=_pieces(_build_overlay(geo, lay, pal)),
        labels=_build_labels(geo, lay, pal),
        fixed_colours=fixed,
    )
    start = variant.get("start") or game_map["start"]
    centres = start.get("centers") or game_map["start"]["centers"]
    units = start.get("units") or game_map["start"]["units"]
    owner = {c: p for p, cs in centres.items() for c in cs}
    fills = {c: pal.power(p).fill for c, p in owner.items()}
    img = Image.new("RGB", (lay.width, lay.height), pal.title_bg)
    img.paste(filled_map(base, fills, pal.land, pal.sea), (0, lay.title_height))
    r = lay.size(L.CENTER_RADIUS)
    for prov in game_map["provinces"]:
        shape = geo.provinces.get(prov["code"])
        if prov["supply_center"] and shape and shape.supply_center:
            who = owner.get(prov["code"])
            colour = pal.power(who).unit if who else pal.neutral_center
            paste_centred(img, center_sprite(colour, pal.center_ring, r), lay.px(shape.supply_center))
    for label, corner in base.labels:
        img.paste(label, corner, label)
    for power, texts in units.items():
        pc = pal.power(power)
        for text in texts:
            kind, loc = text.split()
            sprite = unit_sprite(
                kind,
                pc.unit,
                pc.ink,
                lay.size(L.ARMY_RADIUS),
                lay.size(L.FLEET_HALF_WIDTH),
                lay.size(L.FLEET_HALF_HEIGHT),
                pc.letter,
            )
            paste_centred(img, sprite, lay.px(geo.anchor(loc)))
    draw = ImageDraw.Draw(img)
    if marks:
        s = max(2, round(lay.size(1.5)))
        for shape in geo.provinces.values():
            for x, y in (lay.px(shape.unit), *(lay.px(p) for p in shape.coasts.values())):
                draw.line((x - s, y - s, x + s, y + s), fill=(220, 0, 0), width=1)
                draw.line((x - s, y + s, x + s, y - s), fill=(220, 0, 0), width=1)
    title = (
        f"{variant['title']} - {len(variant['powers'])} powers, {variant['victory_centers']} centres to win"
    )
    draw.text(
        (lay.size(4), lay.title_height / 2),
        title,
        font=font(round(lay.title_height * 0.45), BOLD),
        fill=pal.title_text,
        anchor="lm",
    )
    return img


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="a folder under data/variants")
    parser.add_argument("--width", type=int, help="pixels (default: the Standard map's scale)")
    parser.add_argument("--out", type=Path, help="PNG to write (default /tmp/variant_NAME.png)")
    parser.add_argument("--marks", action="store_true", help="cross every unit anchor and coast spot")
    parser.add_argument("--colorblind", action="store_true", help="the colour-blind palette's land and sea")
    args = parser.parse_args(argv)
    folder = Path(args.name) if Path(args.name).is_dir() else ROOT / "data" / "variants" / args.name
    img = render_preview(folder, args.width, args.marks, args.colorblind)
    out = args.out or Path(f"/tmp/variant_{args.name}.png")
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, optimize=True
    )
    print(f"wrote {out} ({img.width} x {img.height})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
