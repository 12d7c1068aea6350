"""The final post's GIF: how long it takes and how big it gets. Prints figures, asserts nothing.

    .venv/bin/python bench/animation.py                   # 60- and 150-phase games
    .venv/bin/python bench/animation.py --phases 300      # a very long game
    .venv/bin/python bench/animation.py --save game.gif   # also write the longest one

A game is played out by the engine with seeded random moves (every unit moves to a random
neighbour, nobody builds), every phase's opening position rendered and PNG-encoded once, as the
closes store them. The timed part is render.animation.make_gif on those stored PNGs: decode, scale to
800 px, one shared palette, Pillow's GIF writer; what the worker process does after a game ends.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, adjudicate
from render import render_map
from render.animation import MAX_BYTES, PictureFrame, make_gif


def play(phases: int, seed: int = 1) -> list[Board]:
    rng = random.Random(seed)
    board = Board.initial()
    boards = [board]
    while len(boards) < phases:
        orders: dict[str, list[str]] = {}
        if board.phase.kind == "M":
            for power, unit in board.all_units():
                where = str(unit).split()[1]
                assert unit.type is not None  # a unit on a board has its type
                options = sorted(board.game_map.neighbours(unit.type, where))
                if options:
                    orders.setdefault(power, []).append(f"{unit.type} {where} - {rng.choice(options)}")
        result = adjudicate(board, orders)
        if result.next_phase is None:
            break
        board = result.board
        boards.append(board)
    return boards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, nargs="*", default=[60, 150])
    parser.add_argument("--save", type=Path, help="write the GIF of the longest game here")
    args = parser.parse_args()
    gif = b""
    for phases in args.phases:
        boards = play(phases)
        t0 = time.perf_counter()
        pngs: list[PictureFrame] = [{"png": render_map(b)} for b in boards]
        rendered = time.perf_counter() - t0
        t0 = time.perf_counter()
        gif, width, kept = make_gif(pngs)
        took = time.perf_counter() - t0
        print(
            f"{len(boards):4d} phases: GIF {len(gif) / 1e6:5.2f} MB "
            f"({len(gif) / MAX_BYTES:4.0%} of the limit), "
            f"{width} px, {kept} frames, made in {took:5.2f} s "
            f"({took / len(boards) * 1000:4.0f} ms a frame); the maps themselves took {rendered:5.2f} s"
        )
    if args.save:
        args.save.write_bytes(gif)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
