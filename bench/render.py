"""Map renderer speed and size: prints figures, asserts nothing.

    .venv/bin/python bench/render.py                 # the figures for docs/PERFORMANCE.md
    .venv/bin/python bench/render.py --repeat 50     # more samples
    .venv/bin/python bench/render.py --save DIR      # also write the pictures it timed
    .venv/bin/python bench/render.py --variant youngstown   # also a variant's crowded board

The main case is the goal in the issue: a 1600-px-wide map of a crowded mid-game board (34 units,
34 orders with their results: moves, supports, holds, a convoy, bounces), PNG encoding included,
after the first call has built the cached base layers. The first call is timed separately.

Beside it, the Pillow floor: what any Pillow program that produced this very picture would pay at
least, a blank RGB picture of its size made and the finished picture encoded as our PNG is (256
colours, the same compression); the map's time is given as a multiple of it.

``--variant NAME`` adds the same for a variant: a board as full as its map has supply centres
(Youngstown: 72 units), every unit ordered (bench/adjudicate.py's dense positions and orders,
convoys through two seas at most) and adjudicated, drawn with its results at the width the bot
draws it (the map's own, 3421 px for Youngstown: render.compose.picture_width) and at 1600 px; the
goal for the largest variant is twice the Standard figure at most.

Wall time (median) and the process's CPU time (median, and the fastest run) are both printed: on a
shared machine the wall time also counts the other processes' turns; the load average comes first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from harness.boards import crowded_result
from harness.sample_game import play
from render import RenderOptions, render_image, render_json
from render.compose import encode_png, key_colours
from render.jsonio import board_and_marks


def timed(fn, repeat: int, cpu: list[float] | None = None) -> tuple[list[float], bytes]:
    """Wall milliseconds of ``repeat`` calls (and their CPU milliseconds appended to ``cpu``)."""
    samples, out = [], b""
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        samples.append((time.perf_counter() - t0) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
    return samples, out


def variant_rows(args: argparse.Namespace, standard_ms: float) -> None:
    """The variant's crowded board: its figures, and their ratio to the Standard one's at 1600 px."""
    import importlib.util

    from engine import adjudicate_json
    from render.compose import picture_width

    spec = importlib.util.spec_from_file_location("bench_adjudicate", Path(__file__).parent / "adjudicate.py")
    assert spec is not None and spec.loader is not None
    bench_adjudicate = importlib.util.module_from_spec(spec)  # bench/adjudicate.py's dense boards
    spec.loader.exec_module(bench_adjudicate)
    bench_adjudicate.use_variant(args.variant)
    gm = bench_adjudicate.GM
    # convoys through two seas at most, as in a game (the adjudication bench's dense boards send
    # armies across all of Asia, which would draw arrows no game has)
    request = bench_adjudicate.requests(1, 3, len(gm.supply_centers), convoy_hops=2)[0]
    result = adjudicate_json(request)
    n_units = sum(len(v) for v in request["units"].values())
    own = picture_width(gm.name)
    print(f"\n{args.variant}: {n_units} units, {len(result['orders'])} orders with results")
    print(f"{'width':>6} {'median ms':>10} {'p90 ms':>8} {'PNG KB':>8}  vs Standard 1600 px")
    for width in (own, 1600):
        options = RenderOptions(width=width)
        render_json(result, options)  # build this width's cached layers
        samples, png = timed(lambda options=options: render_json(result, options), args.repeat)
        median = statistics.median(samples)
        p90 = statistics.quantiles(samples, n=10)[-1]
        print(f"{width:>6} {median:>10.1f} {p90:>8.1f} {len(png) / 1024:>8.0f}  {median / standard_ms:.2f}x")
        if args.save:
            (args.save / f"{args.variant}_{width}.png").write_bytes(png)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--save", type=Path, help="directory to write the timed pictures to")
    parser.add_argument("--variant", help="also time a crowded board of this variant (e.g. youngstown)")
    args = parser.parse_args()

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    crowded = crowded_result()
    n_units = sum(len(v) for v in crowded["units"].values())
    n_orders = len(crowded["orders"])

    t0 = time.perf_counter()
    first = render_json(crowded, RenderOptions(width=1600))
    cold = (time.perf_counter() - t0) * 1000
    print(f"first call at 1600 px (builds the cached base layers): {cold:.0f} ms")

    rows = []
    for width in (1600, 1200, 800):
        options = RenderOptions(width=width)
        render_json(crowded, options)  # warm the cache for this width
        cpu: list[float] = []
        samples, png = timed(lambda options=options: render_json(crowded, options), args.repeat, cpu)
        again = render_json(crowded, options)
        rows.append((width, samples, cpu, png, again == png))
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"crowded_{width}.png").write_bytes(png)
    print(f"\ncrowded board: {n_units} units, {n_orders} orders with results, {args.repeat} runs each")
    print(
        f"{'width':>6} {'median ms':>10} {'p90 ms':>8} {'min ms':>8} {'CPU median':>11} {'CPU min':>8} "
        f"{'PNG KB':>7}  identical bytes twice"
    )
    for width, samples, cpu, png, same in rows:
        p90 = statistics.quantiles(samples, n=10)[-1]
        print(
            f"{width:>6} {statistics.median(samples):>10.1f} {p90:>8.1f} {min(samples):>8.1f} "
            f"{statistics.median(cpu):>11.1f} {min(cpu):>8.1f} {len(png) / 1024:>7.0f}  "
            f"{'yes' if same else 'NO'}"
        )
    print(f"first call gave the same bytes as the warm ones: {'yes' if first == rows[0][3] else 'NO'}")

    board, marks = board_and_marks(crowded)
    picture = render_image(board, marks, options=RenderOptions(width=1600))
    keys = key_colours(board)

    def floor() -> bytes:
        Image.new("RGB", picture.size, (255, 255, 255))
        return encode_png(picture, keys)

    floor_cpu: list[float] = []
    floor_samples, _ = timed(floor, args.repeat, floor_cpu)
    map_cpu = statistics.median(rows[0][2])
    print(
        f"\nPillow floor at 1600 px (a blank picture of the size, the finished one encoded): median "
        f"{statistics.median(floor_samples):.1f} ms, CPU {statistics.median(floor_cpu):.1f} ms; the map: "
        f"{statistics.median(rows[0][1]) / statistics.median(floor_samples):.2f}x by wall time, "
        f"{map_cpu / statistics.median(floor_cpu):.2f}x by CPU"
    )

    render_json(crowded, RenderOptions(width=1600, palette="colorblind"))
    samples, png = timed(lambda: render_json(crowded, RenderOptions(palette="colorblind")), args.repeat)
    median = statistics.median(samples)
    print(f"\ncolour-blind palette, 1600 px: median {median:.1f} ms, {len(png) / 1024:.0f} KB")

    if args.variant:
        variant_rows(args, statistics.median(rows[0][1]))

    print("\nrulebook sample game, result of each phase at 1600 px:")
    for request, result in play():
        samples, png = timed(lambda result=result: render_json(result), max(5, args.repeat // 3))
        print(
            f"  {request['phase']}: {len(result['orders']):>2} orders, "
            f"median {statistics.median(samples):6.1f} ms, {len(png) / 1024:5.0f} KB"
        )
        if args.save:
            (args.save / f"sample_{request['phase']}.png").write_bytes(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
