"""How the PNG's 256 colours are chosen, and how far from the drawn picture: prints figures, asserts nothing.

    .venv/bin/python bench/palette_sample.py

render.compose.paletted takes the colours the picture was drawn with (key colours) and adds the
octree's choice on a nearest-neighbour copy of the picture (one pixel in ``step`` of one row in
``step``), then maps every pixel to the nearest. For each picture (the crowded Standard board in both
palettes, each phase of the rulebook's sample game, each variant's crowded board) three ways are
compared: the octree alone on every other pixel of every other row (how the bot chose them before),
the octree alone on one pixel in 4 of one row in 4, and the key colours with the octree on that.
For each: milliseconds to choose and map, the mean difference from the drawn picture (grey levels of
the per-pixel difference, 0-255), the worst channel difference of any pixel, and how many pixels
differ by 12 or more.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageChops, ImageStat

from engine import adjudicate_json
from engine.variants import all_variants
from harness.boards import crowded_result
from harness.sample_game import play
from render import RenderOptions
from render.compose import key_colours, paletted, render_image
from render.jsonio import board_and_marks
from render.palette import RGB


def pictures() -> list[tuple[str, Callable[[], tuple[Image.Image, list[RGB]]]]]:
    """(name, a function drawing the picture in RGB and giving its key colours) for every picture."""
    out: list[tuple[str, Callable[[], tuple[Image.Image, list[RGB]]]]] = []

    def drawn(
        result: Mapping[str, Any], options: RenderOptions | None = None
    ) -> Callable[[], tuple[Image.Image, list[RGB]]]:
        board, marks = board_and_marks(result)
        return lambda: (render_image(board, marks, options=options), key_colours(board, options))

    crowded = crowded_result()
    out.append(("standard crowded", drawn(crowded, RenderOptions(width=1600))))
    colour_blind = RenderOptions(width=1600, palette="colorblind")
    out.append(("standard crowded, colour-blind", drawn(crowded, colour_blind)))
    for request, result in play():
        out.append((f"sample game {request['phase']}", drawn(result)))
    spec = importlib.util.spec_from_file_location("bench_adjudicate", Path(__file__).parent / "adjudicate.py")
    assert spec is not None and spec.loader is not None
    dense = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dense)
    for name in (v.name for v in all_variants() if v.name != "standard"):
        dense.use_variant(name)
        request = dense.requests(1, 3, len(dense.GM.supply_centers), convoy_hops=2)[0]
        out.append((f"{name} crowded", drawn(adjudicate_json(request), RenderOptions(width=1600))))
    return out


WAYS: tuple[tuple[str, bool, int], ...] = (
    ("octree, step 2", False, 2),
    ("octree, step 4", False, 4),
    ("keys + octree, step 4", True, 4),
)


def measure(img: Image.Image, keys: Sequence[RGB], step: int, repeat: int) -> str:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = paletted(img, keys, step)
        times.append((time.perf_counter() - t0) * 1000)
    diff = ImageChops.difference(img, out.convert("RGB"))
    grey = diff.convert("L")
    worst = max(high for _, high in ImageStat.Stat(diff).extrema)
    off = sum(grey.histogram()[12:])
    return f" | {statistics.median(times):5.2f} {ImageStat.Stat(grey).mean[0]:5.3f} {worst:3d} {off:5d}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'':<31}" + "".join(f" | {name:<24}" for name, *_ in WAYS))
    print(f"{'picture':<31}" + " | ms    mean  worst px>=12" * len(WAYS))
    for name, draw in pictures():
        img, keys = draw()
        cells = [measure(img, keys if use_keys else (), step, args.repeat) for _, use_keys, step in WAYS]
        print(f"{name:<31}{''.join(cells)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
