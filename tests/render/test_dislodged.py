"""A dislodged unit is set aside in its province without hiding a name, another unit or a center."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from engine.board import Board
from engine.mapdata import load_map, province_of
from render import layout as L
from render.basemap import base_map
from render.geometry import load_geometry
from render.icons import badge_sprite, center_sprite, unit_sprite
from render.orders import OrderOverlay
from render.palette import DEFAULT
from render.scene import Scene
from tests.render.pixels import STANDARD, board, draw, rgb_at

WIDTH = 1600
SOLID = 128  # alpha above which a pixel of a sprite counts as drawn


def _solid(img: Image.Image) -> Image.Image:
    return img.getchannel("A").point(lambda v: 255 if v > SOLID else 0)


def _names_mask() -> Image.Image:
    """Every province name as drawn on the picture (text and halo)."""
    base = base_map(WIDTH, "default", True)
    mask = Image.new("L", (base.layout.width, base.layout.height), 0)
    for sprite, corner in base.labels:
        mask.paste(_solid(sprite), corner, _solid(sprite))
    return mask


def _place(mask: Image.Image, sprite: Image.Image, at: tuple[float, float]) -> None:
    solid = _solid(sprite)
    mask.paste(solid, (round(at[0] - sprite.width / 2), round(at[1] - sprite.height / 2)), solid)


def _overlap(a: Image.Image, b: Image.Image) -> bool:
    """Whether two masks of the same picture share a pixel."""
    box = a.getbbox()
    return box is not None and ImageChops.multiply(a.crop(box), b.crop(box)).getbbox() is not None


def _kind(location: str) -> str:
    return "F" if load_map().provinces[province_of(location)].is_sea or "/" in location else "A"


def all_dislodgements() -> Iterator[tuple[str, str]]:
    """Every place a unit can stand, with every province it can be attacked from."""
    game_map = load_map()
    for loc in sorted(set(game_map.army_adjacency) | set(game_map.fleet_adjacency)):
        near = set(game_map.army_adjacency.get(loc, ())) | set(game_map.fleet_adjacency.get(loc, ()))
        for attacker in sorted({province_of(n) for n in near}):
            yield loc, attacker


def test_no_dislodged_unit_hides_a_name_a_unit_or_a_center() -> None:
    """Over every (place, attacker) pair, with a unit in each neighbouring province too: the set-aside
    unit and its "!" badge, as drawn at 1600 px, share no pixel with any name, any other unit or any
    supply-center marker, and almost always stay in their own province."""
    game_map, geo, pal = load_map(), load_geometry(), DEFAULT
    lay = base_map(WIDTH, "default", True).layout
    names = _names_mask()
    centers = Image.new("L", names.size, 0)
    for shape in geo.provinces.values():
        if shape.supply_center:
            _place(
                centers,
                center_sprite((1, 1, 1), (0, 0, 0), lay.size(L.CENTER_RADIUS)),
                lay.px(shape.supply_center),
            )

    def sprite(kind: str | None) -> Image.Image:
        size = (lay.size(L.ARMY_RADIUS), lay.size(L.FLEET_HALF_WIDTH), lay.size(L.FLEET_HALF_HEIGHT))
        return unit_sprite(kind or "A", (200, 0, 0), (0, 0, 0), *size)

    hidden: dict[str, list[tuple[str, str]]] = {"name": [], "unit": [], "center": []}
    outside, pairs = [], 0
    for loc, attacker in all_dislodgements():
        pairs += 1
        kind = _kind(loc)
        near = set(game_map.army_adjacency.get(loc, ())) | set(game_map.fleet_adjacency.get(loc, ()))
        others = [f"{_kind(p)} {p}" for p in sorted({province_of(n) for n in near})]
        b = Board.from_json(
            {
                "phase": "F1901R",
                "units": {"GERMANY": [f"{kind} {loc}"], "FRANCE": others},
                "dislodged": {"RUSSIA": {f"{kind} {loc}": {"attacker_from": attacker, "retreats": []}}},
            },
            game_map,
        )
        scene = Scene.build(b, [], geo, lay, pal)
        moved = next(u for u in scene.units if u.dislodged)
        drawn = Image.new("L", names.size, 0)
        _place(drawn, sprite(kind), moved.at)
        _place(
            drawn,
            badge_sprite("!", (232, 110, 0), lay.size(L.BADGE_RADIUS)),
            OrderOverlay(scene)._badge_spot(moved),
        )
        units = Image.new("L", names.size, 0)
        for u in scene.units:
            if not u.dislodged:
                _place(units, sprite(u.unit.type), u.at)
        for what, mask in (("name", names), ("unit", units), ("center", centers)):
            if _overlap(drawn, mask):
                hidden[what].append((loc, attacker))
        at = (moved.at[0] / lay.scale, (moved.at[1] - lay.title_height) / lay.scale)
        if not geo.contains(province_of(loc), at):
            outside.append((loc, attacker))
    assert pairs > 400
    assert hidden == {"name": [], "unit": [], "center": []}
    assert len(outside) <= pairs // 50, outside  # only where the province has no room (Clyde)


@pytest.mark.parametrize(
    ("location", "attacker"),
    [("WAR", "PRU"), ("BUD", "VIE"), ("LON", "YOR"), ("MAR", "BUR"), ("MOS", "STP")],
)
def test_the_provinces_name_shows_beside_its_dislodged_unit(location: str, attacker: str) -> None:
    geo = load_geometry()
    kind = _kind(location)
    taken = {"GERMANY": [f"{kind} {location}"]}
    lost = {"RUSSIA": {f"{kind} {location}": {"attacker_from": attacker, "retreats": []}}}
    before = draw(board(taken, phase="F1901R"), width=WIDTH)
    after = draw(board(taken, phase="F1901R", dislodged=lost), width=WIDTH)
    # The name's letters (fully opaque pixels of its sprite) look the same with the unit set aside.
    base = base_map(WIDTH, "default", True)
    codes = sorted({**geo.provinces, **geo.impassable})
    sprite, (ox, oy) = base.labels[codes.index(location)]
    alpha = sprite.getchannel("A")
    letters = [
        (x, y) for x in range(sprite.width) for y in range(sprite.height) if alpha.getpixel((x, y)) == 255
    ]
    assert len(letters) > 30
    hidden = [
        p
        for p in letters
        if before.getpixel((ox + p[0], oy + p[1])) != after.getpixel((ox + p[0], oy + p[1]))
    ]
    assert hidden == []
    # ...and the dislodged unit is drawn (its power's colour appears near the province's spot).
    x, y = base.layout.px(geo.anchor(location))
    russian = STANDARD.powers["RUSSIA"].unit
    near = [
        rgb_at(after, (round(x) + dx, round(y) + dy)) for dx in range(-40, 41, 2) for dy in range(-40, 41, 2)
    ]
    assert sum(1 for p in near if max(abs(a - b) for a, b in zip(p, russian, strict=True)) < 30) > 20
