"""The community variants drawn as players see them: each power in its own colours from variant.json
(a lighter fill, the unit colour, ink that contrasts), letters on units where there are many powers, a
picture as wide as its map, a legend naming Chaos's 34 powers, and moves round the Cape of Good Hope
drawn off the edge of the map rather than across it."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import Board, adjudicate, initial_board, variants
from engine.variants import VARIANTS_DIR, Variant, get_variant, read_variant
from render import RenderOptions, render_map
from render.compose import DEFAULT_WIDTH, picture_width
from render.geometry import load_geometry
from render.layout import Layout
from render.legend import crossing_notes
from render.palette import (
    delta_e,
    hex_rgb,
    ink_for,
    palette_for,
    relative_luminance,
    territory_fill,
)
from tests.render.pixels import count_near, window

COMMUNITY = ("ancmed", "modern", "youngstown", "1900", "chaos")


def picture(board: Board, **options: Any) -> Image.Image:
    png = render_map(board, options=RenderOptions(**options))
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb_pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    data = img.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def at(img: Image.Image, board: Board, location: str, width: int | None = None) -> tuple[int, int]:
    geo = load_geometry(board.game_map.name)
    x, y = Layout.for_width(width or img.width, geo).px(geo.anchor(location))
    return round(x), round(y)


# --- palettes -------------------------------------------------------------------------------------------


# The Standard map's powers as they were drawn when their colours lived in the renderer: units, then
# fills, in each palette. Their variant.json now says so; a change there shows here.
STANDARD_LOOK = {
    "default": (
        "#BE1E28 #202C8A #0070C8 #34363C #1A7A2C #703096 #BA8600",
        "#EE968C #8C94D6 #80C4F0 #A8A8A6 #92D084 #C8A6DE #F6D870",
    ),
    "colorblind": (
        "#D55E00 #005A96 #56B4E9 #141414 #008264 #B85490 #F0E442",
        "#ECA064 #6EA0CD #C0E2F6 #969696 #82CDB4 #E8C0D8 #FAF4AA",
    ),
}


@pytest.mark.parametrize("base", ["default", "colorblind"])
def test_the_standard_games_keep_their_colours(base: str) -> None:
    units, fills = (text.split() for text in STANDARD_LOOK[base])
    for name in ("standard", "ww1914", "fleetrome"):
        pal = palette_for(get_variant(name), base)
        assert [pal.power(p).unit for p in SEVEN] == [hex_rgb(c) for c in units], name
        assert [pal.power(p).fill for p in SEVEN] == [hex_rgb(c) for c in fills], name
        assert pal.letters_on_units == (base == "colorblind")


SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def recoloured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, france: Mapping[str, object]) -> Variant:
    """A copy of the Standard variant whose France has the colours ``france``, registered for the
    test as "recoloured"."""
    doc = json.loads((VARIANTS_DIR / "standard" / "variant.json").read_text(encoding="utf-8"))
    doc.update(name="recoloured", map="standard", geometry="standard")
    names = ("colour", "fill", "ink", "colorblind")
    doc["powers"]["FRANCE"] = {k: v for k, v in doc["powers"]["FRANCE"].items() if k not in names} | dict(
        france
    )
    (tmp_path / "recoloured").mkdir()
    (tmp_path / "recoloured" / "variant.json").write_text(json.dumps(doc), encoding="utf-8")
    variant = read_variant(tmp_path / "recoloured")
    monkeypatch.setitem(variants._REGISTRY, "recoloured", variant)
    return variant


def french_units(base: str, colour: str) -> tuple[int, int]:
    """Pixels of ``colour`` on France's army in Paris and on Germany's in Munich, in a picture of
    the recoloured variant."""
    board = Board.from_json(
        {
            "variant": "recoloured",
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": ["PAR"]},
        }
    )
    img = picture(board, palette=base, show_labels=False)
    rgb = hex_rgb(colour)
    return count_near(window(img, at(img, board, "PAR"), 8), rgb, 30), count_near(
        window(img, at(img, board, "MUN"), 8), rgb, 30
    )


def test_a_colour_changed_in_variant_json_is_the_colour_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = {
        "colour": "#C000C0",
        "fill": "#F0B0F0",
        "ink": "#FFFFFF",
        "colorblind": {"colour": "#00A040", "fill": "#A0E0B0", "ink": "#141414"},
    }
    variant = recoloured(tmp_path, monkeypatch, given)
    default, colorblind = palette_for(variant, "default"), palette_for(variant, "colorblind")
    assert default.power("FRANCE").unit == (0xC0, 0x00, 0xC0)
    assert default.power("FRANCE").fill == (0xF0, 0xB0, 0xF0)
    assert colorblind.power("FRANCE").unit == (0x00, 0xA0, 0x40)
    assert colorblind.power("FRANCE").ink == (0x14, 0x14, 0x14)
    assert french_units("default", "#C000C0")[0] > 30
    assert french_units("default", "#00A040") == (0, 0)
    assert french_units("colorblind", "#00A040")[0] > 30
    assert french_units("colorblind", "#C000C0") == (0, 0)
    # the other powers keep the Standard colours
    assert default.power("GERMANY") == palette_for(get_variant("standard")).power("GERMANY")


def test_a_power_with_one_colour_is_drawn_in_it_in_both_palettes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = recoloured(tmp_path, monkeypatch, {"colour": "#C000C0"})
    for base in ("default", "colorblind"):
        pal = palette_for(variant, base)
        france = pal.power("FRANCE")
        assert france.unit == (0xC0, 0x00, 0xC0)
        # the fill and the ink follow the documented rule, on that palette's land and sea
        assert france.fill == territory_fill(france.unit, pal.land, pal.sea) != france.unit
        assert france.ink == ink_for(france.unit)
        assert french_units(base, "#C000C0")[0] > 30


@pytest.mark.parametrize("variant", COMMUNITY)
@pytest.mark.parametrize("base", ["default", "colorblind"])
def test_every_power_is_drawn_in_its_variant_colour(variant: str, base: str) -> None:
    v = get_variant(variant)
    pal = palette_for(v, base)
    land, sea = pal.land, pal.sea
    assert set(pal.powers) == set(v.game_map().powers)
    for code, info in v.powers.items():
        colours = pal.power(code)
        assert colours.unit == hex_rgb(info.colours(base).unit) and colours.letter == info.letter
        # the territory is lighter (or as light) and stays apart from unowned land and from the sea
        assert relative_luminance(colours.fill) >= relative_luminance(colours.unit) - 1e-9
        assert min(delta_e(colours.fill, land), delta_e(colours.fill, sea)) >= 12, code
        # the glyph on the unit is whichever of white and near-black contrasts more
        assert colours.ink == ink_for(colours.unit)
    assert pal.letters_on_units == (len(v.powers) > 7 or base == "colorblind")


def test_ink_on_yellow_is_dark_and_on_navy_white() -> None:
    assert ink_for(hex_rgb("#F0E442")) != (255, 255, 255)
    assert ink_for(hex_rgb("#1B2A6B")) == (255, 255, 255)


def test_a_chinese_army_is_drawn_in_chinas_orange_with_its_letter() -> None:
    board = initial_board("youngstown")
    img = picture(board, show_labels=False)
    china = hex_rgb(get_variant("youngstown").powers["CHINA"].colour)
    assert count_near(window(img, at(img, board, "PEK"), 8), china, 30) > 30
    assert count_near(window(img, at(img, board, "MUN"), 8), china, 30) == 0  # Germany's black there


# --- sizes -----------------------------------------------------------------------------------------------


def test_a_bigger_map_is_drawn_wider_at_the_standard_maps_scale() -> None:
    assert picture_width("standard") == DEFAULT_WIDTH
    for name in ("modern", "youngstown", "1900"):
        geo = load_geometry(name)
        assert picture_width(name) == round(DEFAULT_WIDTH * geo.width / 628)
    assert picture_width("youngstown") > 2 * DEFAULT_WIDTH
    img = picture(initial_board("youngstown"), show_labels=False)
    assert img.width == picture_width("youngstown")
    # a unit comes out the size it has on the Standard map: the same pixels per map unit
    std = Layout.for_width(DEFAULT_WIDTH, load_geometry("standard")).scale
    big = Layout.for_width(img.width, load_geometry("youngstown")).scale
    assert abs(big - std) / std < 0.01


# --- Chaos's legend ----------------------------------------------------------------------------------------


def test_chaos_names_its_34_powers_in_a_legend_under_the_map() -> None:
    opening = initial_board("chaos")
    built = adjudicate(opening, {"PARIS": ["A Par B"], "ANKARA": ["F Ank B"]}).board
    img = picture(built, width=1200)
    plain = picture(initial_board("standard"), width=1200)
    assert img.height > plain.height + 40  # the legend's rows
    geo = load_geometry("chaos")
    lay = Layout.for_width(1200, geo)
    band = img.crop((0, lay.title_height + lay.map_height, 1200, img.height))
    paris = hex_rgb(get_variant("chaos").powers["PARIS"].colour)
    assert count_near(rgb_pixels(band), paris, 20) > 20  # its letter's disc
    # no chips in the title bar: it is the title's only
    title = img.crop((600, 0, 1200, lay.title_height))
    assert count_near(rgb_pixels(title), paris, 20) == 0


# --- the Cape of Good Hope ----------------------------------------------------------------------------


def test_a_move_round_the_cape_leaves_the_map_instead_of_crossing_africa() -> None:
    board = Board.from_json(
        {
            "variant": "1900",
            "phase": "S1900M",
            "units": {"BRITAIN": ["F EGY"]},
            "centers": {"BRITAIN": ["EGY"]},
        }
    )
    result = adjudicate(board, {"BRITAIN": ["F Egy - Mao"]})
    img = Image.open(
        io.BytesIO(render_map(board, results=result.to_json(), options=RenderOptions()))
    ).convert("RGB")
    blue = hex_rgb(get_variant("1900").powers["BRITAIN"].colour)
    egy, mao = at(img, board, "EGY"), at(img, board, "MAO")
    midway = ((egy[0] + mao[0]) // 2, (egy[1] + mao[1]) // 2)
    assert count_near(window(img, midway, 20), blue, 30) == 0  # nothing across North Africa
    # the arrow comes in from the left edge at the Mid-Atlantic's height
    assert count_near(window(img, (12, mao[1]), 10), blue, 40) > 5
    # and leaves Egypt downwards, to the bottom edge
    geo = load_geometry("1900")
    bottom = Layout.for_width(img.width, geo).title_height + Layout.for_width(img.width, geo).map_height
    assert count_near(window(img, (egy[0], bottom - 12), 8), blue, 40) > 3


def test_the_cape_is_noted_at_both_ends() -> None:
    board = initial_board("1900")
    geo = load_geometry("1900")
    lay = Layout.for_width(picture_width("1900"), geo)
    notes = {text: anchor for text, _, anchor in crossing_notes(board, geo, lay)}
    assert notes == {
        "round the Cape of Good Hope to MAO": "rd",  # under Egypt and Hejaz, at the bottom
        "round the Cape of Good Hope to EGY, HEJ": "la",  # beside the Mid-Atlantic, at the left
    }
    assert crossing_notes(initial_board("ancmed"), load_geometry("ancmed"), lay) == []
