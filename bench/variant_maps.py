"""Benchmark: every variant's maps from one worker's cache, as a server with several variants draws
them. Prints its figures; asserts nothing.

    .venv/bin/python bench/variant_maps.py                  # the figures for docs/PERFORMANCE.md
    .venv/bin/python bench/variant_maps.py --rounds 5 --repeat 7
    .venv/bin/python bench/variant_maps.py --root /path/to/other/checkout   # the code before a change

For each of the eight variants, a board as full as the map has supply centres with an order for every
unit (bench/adjudicate.py's dense positions, convoys through two seas at most), adjudicated. Two maps
of it, as the worker processes draw them: the results at the map's own width (gm.phases.worker) and a
player's private preview of one power's orders (gm.ordering.drawing.render_preview, 1600 px or the
map's own width when smaller).

1. Alone: each variant's two maps drawn ``--repeat`` times after a first drawing that built their
   layers, the cache holding that variant's layers only: the time of each map in a single-variant run.
2. In turn: the cache emptied, then ``--rounds`` rounds each drawing every variant's two maps one after
   the other (16 maps a round), as a server with games of every variant does. The cache's hits and
   misses per round, and each map's time in the rounds after the first against its time alone.

Times are the process's CPU time (median), which another process's load on a shared machine barely
changes, and the wall time beside it; the load average is printed at the start and the end. The last
table lists what the cache holds, entry by entry, with its size.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VARIANTS = ("standard", "ww1914", "ancmed", "modern", "youngstown", "1900", "chaos", "fleetrome")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


def boards(root: Path) -> dict[str, tuple[Mapping[str, Any], dict[str, Any]]]:
    """variant -> (the adjudicated result, the preview request) of its crowded board."""
    from engine import adjudicate_json
    from engine.variants import get_variant

    spec = importlib.util.spec_from_file_location("bench_adjudicate", root / "bench" / "adjudicate.py")
    assert spec is not None and spec.loader is not None
    dense = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dense)
    out: dict[str, tuple[Mapping[str, Any], dict[str, Any]]] = {}
    for name in VARIANTS:
        dense.use_variant(name)
        request = dense.requests(1, 3, len(get_variant(name).game_map().supply_centers), convoy_hops=2)[0]
        result = adjudicate_json(request)
        power = max(request["orders"], key=lambda p: len(request["orders"][p]))
        preview = {
            "board": {k: v for k, v in request.items() if k != "orders"},
            "variant": name,
            "orders": {power: request["orders"][power]},
            "title": f"{power.title()}: orders so far",
        }
        out[name] = (result, preview)
    return out


def cache_counts() -> tuple[int, int]:
    """(hits, misses) of the base layers' cache, in this code or the code before it (functools)."""
    from render import basemap

    # (the code before the byte cache had functools' caches: mypy checks against this one)
    info = basemap.cache_info() if hasattr(basemap, "cache_info") else basemap.base_map.cache_info()  # type: ignore[attr-defined]
    return info.hits, info.misses


def clear() -> None:
    from render import basemap

    if hasattr(basemap, "clear_cache"):
        basemap.clear_cache()
    else:
        basemap.base_map.cache_clear()  # type: ignore[attr-defined]  # the code before the byte cache
        basemap.closed_hatch.cache_clear()  # type: ignore[attr-defined]


def draw(kind: str, data: Mapping[str, Any]) -> tuple[float, float]:
    """(CPU ms, wall ms) of drawing one map."""
    from gm.ordering.drawing import render_preview
    from render import RenderOptions, render_json

    c0, t0 = time.process_time(), time.perf_counter()
    if kind == "results":
        render_json(data, RenderOptions())  # the map's own width, as gm.phases.worker draws it
    else:
        render_preview(data)
    return (time.process_time() - c0) * 1000, (time.perf_counter() - t0) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every variant in turn")
    parser.add_argument("--repeat", type=int, default=5, help="drawings of each map alone")
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout whose renderer to time")
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    print(f"load average {load_average()}; renderer of {root}")
    maps = boards(root)
    kinds = ("results", "preview")

    alone: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for name in VARIANTS:
        clear()
        for kind, data in zip(kinds, maps[name], strict=True):
            draw(kind, data)  # builds its layers
            alone[name, kind] = [draw(kind, data) for _ in range(args.repeat)]

    clear()
    turns: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in alone}
    print(f"\nall {len(VARIANTS)} variants in turn, results and preview each, {args.rounds} rounds:")
    print(f"{'round':>5} {'hits':>5} {'misses':>6} {'hit rate':>8} {'CPU s':>7} {'wall s':>7}")
    later_hits = later_all = 0
    for number in range(1, args.rounds + 1):
        hits, misses = cache_counts()
        c0, t0 = time.process_time(), time.perf_counter()
        for name in VARIANTS:
            for kind, data in zip(kinds, maps[name], strict=True):
                took = draw(kind, data)
                if number > 1:
                    turns[name, kind].append(took)
        now_hits, now_misses = cache_counts()
        h, m = now_hits - hits, now_misses - misses
        if number > 1:
            later_hits, later_all = later_hits + h, later_all + h + m
        print(
            f"{number:>5} {h:>5} {m:>6} {h / max(1, h + m):>8.0%} "
            f"{time.process_time() - c0:>7.2f} {time.perf_counter() - t0:>7.2f}"
        )
    if later_all:
        print(
            f"after the first round: {later_hits} hits of {later_all} lookups ({later_hits / later_all:.0%})"
        )

    print("\neach map in turn (rounds 2 on) against alone, CPU ms (wall ms):")
    print(f"{'variant':<11} {'map':<8} {'alone':>15} {'in turn':>15} {'ratio':>6}")
    worst = 0.0
    for (name, kind), samples in alone.items():
        cpu_alone = statistics.median(s[0] for s in samples)
        wall_alone = statistics.median(s[1] for s in samples)
        later = turns[name, kind]
        if not later:
            continue
        cpu_turn = statistics.median(s[0] for s in later)
        wall_turn = statistics.median(s[1] for s in later)
        ratio = cpu_turn / cpu_alone
        worst = max(worst, ratio)
        print(
            f"{name:<11} {kind:<8} {cpu_alone:>6.0f} ({wall_alone:>5.0f}) "
            f"{cpu_turn:>6.0f} ({wall_turn:>5.0f}) {ratio:>5.2f}x"
        )
    print(f"worst ratio: {worst:.2f}x")

    from render import basemap

    if hasattr(basemap, "cache_keys"):
        info = basemap.cache_info()
        print(
            f"\nthe cache holds {info.entries} entries, {info.bytes / 2**20:.1f} MiB of its "
            f"{info.budget / 2**20:.0f} MiB ({info.evictions} evicted since it was emptied):"
        )
        for key in basemap.cache_keys():
            if key[0] == "base":
                _, width, palette, labels, drawing = key
                assert isinstance(width, int) and isinstance(palette, str)
                layers = basemap.base_map(width, palette, bool(labels), Path(str(drawing)).parent.name)
                print(
                    f"  {Path(str(drawing)).parent.name:<11} {width:>5} px  {layers.nbytes / 2**20:5.1f} MiB"
                )
    print(f"\nload average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
