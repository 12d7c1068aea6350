"""What the fog of war adds to a close: prints figures, asserts nothing.

    .venv/bin/python bench/fog_maps.py [--repeat 10]

A close of a fogged game draws, besides the orders map and the next position (gm.phases.worker's
render_maps), each player's own view of both (gm.phases.worker.fog_maps): 14 more maps for seven
players. Timed on the rulebook's sample game at Fall 1902 Movement, after a first call has built the
cached layers: the full pair, one power's pair, and the seven powers' pairs; CPU time of this process
(median), the load average first (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, adjudicate
from gm.phases.worker import fog_maps, render_maps
from harness.sample_game import play

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def cpu_ms(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    request = next(r for r, _ in play() if r["phase"] == "F1902M")
    board = Board.from_json(request)
    done = adjudicate(board, request["orders"])
    render_maps(board, done)
    fog_maps(board, done, POWERS)  # the cached layers, built once
    print(f"load average {os.getloadavg()[0]:.2f}; CPU ms, median of {args.repeat}")
    full = cpu_ms(lambda: render_maps(board, done), args.repeat)
    one = cpu_ms(lambda: fog_maps(board, done, ["FRANCE"]), args.repeat)
    seven = cpu_ms(lambda: fog_maps(board, done, POWERS), max(1, args.repeat // 3))
    print(f"orders map + position, full:            {full:7.1f}")
    print(f"orders map + position, France's view:   {one:7.1f}")
    print(f"the seven powers' views (14 maps):      {seven:7.1f}  ({seven / 14:.1f} a map)")


if __name__ == "__main__":
    main()
