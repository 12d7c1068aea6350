"""The community variants drawn as players see them: each power in its own colours from variant.json
(a lighter fill, the unit colour, ink that contrasts), letters on units where there are many powers, a
picture as wide as its map, a legend naming Chaos's 34 powers, and moves round the Cape of Good Hope
drawn off the edge of the map rather than across it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import Board, adjudicate, initial_board
from engine.variants import get_variant
from render import RenderOptions, render_map
from render.compose import DEFAULT_WIDTH, picture_width
from render.geometry import load_geometry
from render.layout import Layout
from render.legend import crossing_notes
from render.palette import (
    COLORBLIND,
    DEFAULT,
    delta_e,
    hex_rgb,
    ink_for,
    palette_for,
    relative_luminance,
)
from tests.render.pixels import count_near, window

COMMUNITY = ("ancmed", "modern", "youngstown", "1900", "chaos")


def picture(board: Board, **options: object) -> Image.Image:
    png = render_map(board, options=RenderOptions(**options))  # type: ignore[arg-type]
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb_pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    data = img.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def at(img: Image.Image, board: Board, location: str, width: int | None = None) -> tuple[int, int]:
    geo = load_geometry(board.game_map.name)
    x, y = Layout.for_width(width or img.width, geo).px(geo.anchor(location))
    return round(x), round(y)


# --- palettes -------------------------------------------------------------------------------------------


def test_the_standard_games_keep_their_palettes() -> None:
    for name in ("standard", "ww1914", "fleetrome"):
        assert palette_for(get_variant(name), "default") is DEFAULT
        assert palette_for(get_variant(name), "colorblind") is COLORBLIND


@pytest.mark.parametrize("variant", COMMUNITY)
@pytest.mark.parametrize("base", ["default", "colorblind"])
def test_every_power_is_drawn_in_its_variant_colour(variant: str, base: str) -> None:
    v = get_variant(variant)
    pal = palette_for(v, base)
    land, sea = pal.land, pal.sea
    assert set(pal.powers) == set(v.game_map().powers)
    for code, info in v.powers.items():
        colours = pal.power(code)
        assert colours.unit == hex_rgb(info.colour) and colours.letter == info.letter
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
