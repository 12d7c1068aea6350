"""The picture of a variant's game: provinces closed for now are hatched, and the footer gives the
variant's victory target (the two-player 1914 game: Italy neutral until Spring 1915, 24 centers)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw

from engine import initial_board
from engine.board import Board
from render import RenderOptions, render_map
from render.palette import DEFAULT
from tests.render.pixels import count_near, draw, quiet_point, to_px, window

CLOSED = ["TUS", "APU", "PIE", "VEN"]


def hatch_pixels(board: Board, code: str) -> int:
    """Pixels of the hatching's colour round a quiet point of ``code`` (a border nearby counts too)."""
    img = draw(board, show_labels=False)
    return count_near(window(img, to_px(quiet_point(code), img.width), 6), DEFAULT.closed_hatch, 40)


def opened_1915() -> Board:
    return Board.from_json({**initial_board("ww1914").to_json(), "phase": "S1915M"})


@pytest.mark.parametrize("code", CLOSED)
def test_italian_territory_is_hatched_while_italy_is_neutral(code: str) -> None:
    plain = hatch_pixels(initial_board("standard"), code)
    assert hatch_pixels(initial_board("ww1914"), code) >= plain + 8
    assert hatch_pixels(opened_1915(), code) == plain


def test_land_outside_italy_is_not_hatched() -> None:
    assert hatch_pixels(initial_board("ww1914"), "BUR") == hatch_pixels(initial_board("standard"), "BUR")


def footer_texts(board: Board, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    written: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    render_map(board, options=RenderOptions(width=1200, show_labels=False))
    return [t for t in written if "centers win" in t]


def test_the_footer_gives_the_target_and_why_italy_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert footer_texts(initial_board("ww1914"), monkeypatch) == [
        "24 centers win \u00b7 Italy is neutral until Spring 1915"
    ]
    assert footer_texts(opened_1915(), monkeypatch) == ["24 centers win"]
    assert footer_texts(initial_board("standard"), monkeypatch) == ["18 centers win"]
