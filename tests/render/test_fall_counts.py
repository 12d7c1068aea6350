"""A fall's results when a retreat phase follows (the rulebook's sample game, Fall 1902): centers
change hands at the end of the fall, after its retreats (rulebook, "Controlling supply centers"), so
the board those results are drawn on still has last year's owners. The map draws the centers as the
units stand, which is what the fall changed, and says so; the retreats' map shows the same counts,
now final."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine import Board, adjudicate
from engine.adjudication import standing_centers
from gm.messages.maps import ORDERS_MAP
from gm.phases.worker import render_maps
from harness.sample_game import play
from render import RenderOptions, render_map
from tests.render.pixels import fill_at


def _written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the renderer writes from now on."""
    written: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        written.append(str(text))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return written


def _chips(written: list[str]) -> dict[str, int]:
    return {t[:3]: int(t[4:]) for t in written if re.fullmatch(r"[A-Z]{3} \d+", t)}


def _sample(phase: str) -> tuple[Board, Any]:
    request = next(request for request, _ in play() if request["phase"] == phase)
    board = Board.from_json(request)
    return board, adjudicate(board, request["orders"])


def test_a_falls_results_map_counts_the_centers_the_fall_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    board, done = _sample("F1902M")
    assert done.next_phase is not None and str(done.next_phase) == "F1902R", "a retreat phase follows"
    assert done.board.center_counts()["TURKEY"] == 4, "the board after the moves: last year's owners"
    written = _written(monkeypatch)
    png = render_maps(board, done, position=False)[ORDERS_MAP]
    retreats, after = _sample("F1902R")
    final = {p[:3]: n for p, n in after.board.center_counts().items()}
    assert _chips(written) == final, "the counts the fall left, the same the retreats make final"
    assert final["TUR"] == 5 and final["RUS"] == 4, "Turkey took Rumania from Russia"
    assert any("centers as the units stand" in t for t in written), "the title bar says how it counts"
    assert any("centers change hands after the retreats" in t for t in written), "and the footer why"
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert fill_at(img, "RUM") == "TURKEY" and fill_at(img, "STP") == "ENGLAND"
    written.clear()
    render_maps(retreats, after, position=False)
    assert _chips(written) == final, "the retreats' results: the same counts"
    assert not any("as the units stand" in t for t in written), "final now: no note"


def test_a_retreat_phases_position_counts_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    _, done = _sample("F1902M")
    written = _written(monkeypatch)
    render_map(done.board, options=RenderOptions(width=1000))
    assert _chips(written)["TUR"] == 5 and any("as the units stand" in t for t in written)


def test_other_phases_count_the_owners_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    _, done = _sample("S1902M")  # the Fall 1902 position: units on centers a spring does not take
    standing = {p[:3]: len(c) for p, c in standing_centers(done.board).items()}
    owned = {p[:3]: n for p, n in done.board.center_counts().items()}
    assert standing != owned, "Austria, France and Germany stand on centers they do not own yet"
    written = _written(monkeypatch)
    render_map(done.board, options=RenderOptions(width=1000))
    assert _chips(written) == owned
    assert not any("as the units stand" in t for t in written)
