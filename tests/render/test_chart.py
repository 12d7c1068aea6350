"""The supply-center chart (render.chart) read from its pixels: the victory target is a dashed line,
drawn (the scale going up to it) once a power has half of it; before that neither line nor words."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.chart import TARGET, WIDTH, ChartRow, render_chart

YEARS = ["start", "1901", "1902", "1903", "1904"]
ROWS = [  # a quiet game: nobody past 9 centers, half the way to 18
    ChartRow("AUSTRIA", [3, 4, 4, 3, 2]),
    ChartRow("ENGLAND", [3, 4, 5, 5, 5]),
    ChartRow("FRANCE", [3, 5, 5, 6, 6]),
    ChartRow("GERMANY", [3, 5, 5, 5, 4]),
    ChartRow("ITALY", [3, 4, 4, 4, 4]),
    ChartRow("RUSSIA", [4, 5, 5, 4, 4]),
    ChartRow("TURKEY", [3, 4, 6, 7, 9]),
]


def _target_rows(png: bytes, share: float = 0.3) -> list[int]:
    """The rows where the target's red runs across ``share`` of the chart (its dashed line: not a
    word, with the default)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = list(img.get_flattened_data())

    def red(rgb: object) -> bool:  # the target's dark red, give or take the scaling down (not a red line)
        assert isinstance(rgb, tuple)
        return abs(rgb[0] - TARGET[0]) <= 15 and rgb[1] < 60 and rgb[2] < 60

    rows = [pixels[y * img.width : (y + 1) * img.width] for y in range(img.height)]
    return [y for y, row in enumerate(rows) if sum(map(red, row)) > share * WIDTH]


@pytest.mark.parametrize("palette", ["default", "colorblind"])
def test_the_victory_line_is_drawn_when_the_leader_has_half_of_it(palette: str) -> None:
    rows = _target_rows(render_chart(YEARS, ROWS, palette=palette))
    assert rows, "the 18-center line is drawn"
    assert max(rows) - min(rows) < 8, "one line"


def test_the_victory_line_sits_above_the_leaders_line_in_proportion() -> None:
    near = _target_rows(render_chart(YEARS, ROWS, target=10))
    far = _target_rows(render_chart(YEARS, ROWS))
    assert near and far and max(far) < min(near), "18 drawn higher up than 10"


def test_a_target_far_above_every_line_is_neither_drawn_nor_written() -> None:
    quiet = [ChartRow(row.power, [min(5, n) for n in row.centers]) for row in ROWS]
    assert _target_rows(render_chart(YEARS, quiet), share=0.0) == [], "no red at all: no line, no caption"
    assert _target_rows(render_chart(YEARS, quiet, target=10)), "10 is drawn when the leader has 5"
