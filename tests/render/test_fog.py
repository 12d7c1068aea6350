"""A power's view under the fog of war (RenderOptions.fog): the provinces it does not see are veiled
and hatched, those it sees are drawn as on the full map, and the title bar shows its own count only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PIL import ImageDraw

from engine import initial_board
from engine.fog import fog_board, visible_provinces
from render import RenderOptions, render_map
from render.geometry import load_geometry
from render.palette import RGB
from tests.render.pixels import STANDARD, draw, quiet_point, to_px, window


def brightness(pixels: list[RGB]) -> float:
    return sum(sum(p) for p in pixels) / (3 * len(pixels))


@pytest.mark.parametrize("code", ["BER", "MOS", "NTH", "ION", "PIE", "BUR"])
def test_what_france_does_not_see_is_veiled_and_what_it_sees_is_unchanged(code: str) -> None:
    board = initial_board("standard")
    seen = visible_provinces(board, "FRANCE")
    plain = draw(board, show_labels=False)
    fogged = draw(fog_board(board, "FRANCE"), show_labels=False, fog=seen, viewer="FRANCE")
    at = to_px(quiet_point(code), plain.width)
    if code in seen:
        assert window(fogged, at, 5) == window(plain, at, 5)
    else:
        assert window(fogged, at, 5) != window(plain, at, 5)
        assert brightness(window(fogged, at, 5)) <= brightness(window(plain, at, 5)) - 40  # veiled
        assert len(set(window(fogged, at, 5))) > 1  # hatched: the veil and its lines


def test_a_hidden_unit_is_not_drawn_and_a_seen_one_is() -> None:
    board = initial_board("standard")
    plain = draw(board, show_labels=False)
    fogged = draw(fog_board(board, "FRANCE"), show_labels=False, fog=visible_provinces(board, "FRANCE"))
    colours = {p: STANDARD.power(p).unit for p in ("GERMANY", "FRANCE")}

    def has(img: Any, code: str, power: str) -> bool:
        return any(
            max(abs(a - b) for a, b in zip(img.getpixel((x + dx, y + dy)), colours[power], strict=True)) < 20
            for x, y in [to_px(load_geometry().provinces[code].unit, img.width)]
            for dx in range(-12, 13, 2)
            for dy in range(-12, 13, 2)
        )

    assert has(plain, "BER", "GERMANY") and not has(fogged, "BER", "GERMANY")
    assert has(fogged, "PAR", "FRANCE")


def test_the_title_bar_counts_the_viewers_centers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    board = initial_board("standard")
    options = RenderOptions(width=1000, fog=visible_provinces(board, "FRANCE"), viewer="FRANCE")
    render_map(fog_board(board, "FRANCE"), options=options)
    chips = [t for t in written if re.fullmatch(r"[A-Z]{3} \d+", t)]
    assert chips == ["FRA 3"]


def test_chaos_legend_counts_the_viewers_centers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    board = initial_board("chaos")
    options = RenderOptions(width=1000, fog=visible_provinces(board, "PARIS"), viewer="PARIS")
    render_map(fog_board(board, "PARIS"), options=options)
    assert "Paris 1" in written and "Brest" in written and "Brest 0" not in written
