"""The final map's title, the most shared picture of a game: at least 24 px high on the map as it is
drawn (1,600 px wide for Standard; a bigger map as many times wider), for the longest endings there
are: a seven-way draw in Standard and the longest ending of any variant, measured in the pixels."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine import Board
from engine.variants import all_variants, game_map, get_variant
from gm.messages.maps import ending_words, final_title
from render import RenderOptions, render_map
from render.compose import picture_width
from render.geometry import load_geometry
from render.layout import TITLE_HEIGHT
from render.palette import palette_for
from render.text import BOLD, font

MIN_PX = 24


def _titles(variant: str) -> list[str]:
    powers = list(game_map(variant).powers)
    longest = max(powers, key=len)
    endings = [
        ending_words("draw", shared=powers),
        ending_words("last_year", shared=powers),
        ending_words("solo", longest),
        ending_words("concession", longest),
        ending_words("moderator"),
    ]
    return [final_title("Spring 1903 Movement", e, at_close=False) for e in endings]


LONGEST = max(((v.name, t) for v in all_variants() for t in _titles(v.name)), key=lambda vt: len(vt[1]))
SEVEN_WAY = final_title("Fall 1903 Movement", ending_words("draw", shared=list(game_map("standard").powers)))


def _draw(variant: str, title: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Image.Image, list[Any]]:
    """The final map, and every text written on it with its font size."""
    written: list[Any] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append((str(text), getattr(kwargs.get("font"), "size", 0)))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    board = Board.initial(game_map(variant), variant=variant)
    width = picture_width(get_variant(variant).map_name)
    png = render_map(board, options=RenderOptions(width=width, title=title, show_adjustments=False))
    return Image.open(io.BytesIO(png)).convert("RGB"), written


def _first_letter_height(img: Image.Image, ink: tuple[int, int, int], bar: int) -> int:
    """The height in pixels of the title's first letter (the G of "Game over"), read from the ink:
    the columns from the leftmost inked one to the first blank one, and the rows they ink."""

    def inked(x: int, y: int) -> bool:
        pixel = img.getpixel((x, y))
        assert isinstance(pixel, tuple)
        return sum(abs(a - b) for a, b in zip(pixel, ink, strict=True)) < 90

    columns = [x for x in range(img.width // 4) if any(inked(x, y) for y in range(bar))]
    start = columns[0]
    end = next(x for x in range(start, img.width) if x not in columns)
    rows = [any(inked(x, y) for x in range(start, end)) for y in range(bar)]
    top = rows.index(True)
    return rows[top:].index(False)  # its first run of inked rows (a second line's letter is below)


@pytest.mark.parametrize(
    ("variant", "title"), [("standard", SEVEN_WAY), LONGEST], ids=["seven-way draw", f"longest: {LONGEST[0]}"]
)
def test_the_final_maps_title_is_at_least_24_px_for_the_longest_endings(
    variant: str, title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    img, written = _draw(variant, title, monkeypatch)
    lines = [(text, size) for text, size in written if text and text in title and len(text) > 12]
    joined = " ".join(text for text, _ in lines)
    assert joined in (title, title.replace(" \u00b7 ", " ")), "the whole title, on one line or two"
    assert all(size >= MIN_PX for _, size in lines), lines
    # the ink says the same: its first letter at least as tall as a 24-px "G"
    pal = palette_for(get_variant(variant), "default")
    bar = round(TITLE_HEIGHT * img.width / load_geometry(get_variant(variant).map_name).width)
    letter = font(MIN_PX, BOLD).getbbox("G")
    assert _first_letter_height(img, pal.title_text, bar) >= letter[3] - letter[1]
    if variant == "standard":  # every power's chip stays, its centers beside it
        chips = [text for text, _ in written if re.fullmatch(r"[A-Z]{3} \d+", text)]
        assert len(chips) == 7, chips


def test_an_ending_shared_by_more_powers_than_a_title_can_name_counts_them() -> None:
    chaos = list(game_map("chaos").powers)
    assert ending_words("draw", shared=chaos) == f"a draw of {len(chaos)} powers"
    assert ending_words("last_year", shared=chaos) == f"{len(chaos)} powers share the win"
    ten = list(game_map("modern").powers)
    assert ending_words("draw", shared=ten).endswith("Turkey and Ukraine"), "ten are named"


TWO_DIGIT_ENDING = {  # the widest chips a seven-way ending can have: two powers in two digits
    "FRANCE": ["BRE", "MAR", "PAR", "SPA", "POR", "BEL", "HOL", "TUN", "LON", "LVP"],
    "GERMANY": ["BER", "KIE", "MUN", "DEN", "SWE", "NWY", "WAR", "MOS", "STP", "SER"],
    "AUSTRIA": ["VIE", "BUD", "TRI"],
    "ITALY": ["ROM", "NAP", "VEN"],
    "TURKEY": ["ANK", "CON", "SMY"],
    "RUSSIA": ["SEV", "RUM", "BUL"],
    "ENGLAND": ["EDI", "GRE"],
}


@pytest.mark.parametrize("kind", ["draw", "last_year"], ids=["seven-way draw", "seven-way shared win"])
def test_a_seven_way_endings_final_map_draws_every_powers_chip(kind: str) -> None:
    powers = list(game_map("standard").powers)
    title = final_title("Fall 1908 Movement", ending_words(kind, shared=powers))
    board = Board.from_json(
        {"phase": "W1908A", "units": {}, "centers": TWO_DIGIT_ENDING}, game_map("standard")
    )
    png = render_map(board, options=RenderOptions(title=title, show_adjustments=False))
    img = Image.open(io.BytesIO(png)).convert("RGB")
    bar = round(TITLE_HEIGHT * img.width / load_geometry().width)
    counted = (img.crop((img.width // 2, 0, img.width, bar)).getcolors(1 << 16)) or []
    pal = palette_for(get_variant("standard"), "default")

    def area(fill: tuple[int, int, int]) -> int:  # the chip's pixels, give or take the PNG's palette
        near = [n for n, rgb in counted if isinstance(rgb, tuple) and _distance(rgb, fill) <= 6]
        return sum(near)

    areas = {power: area(pal.power(power).unit) for power in powers}
    assert all(areas.values()), f"every power's chip is drawn: {areas}"
    assert min(areas.values()) > 0.5 * max(areas.values()), f"each chip whole: {areas}"


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))
