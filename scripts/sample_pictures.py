"""The README's pictures of the rulebook's sample game (harness/sample_game.py), drawn by the bot's
own code (gm.phases.worker.render_maps, which the close of a phase runs): each phase's results map,
as the results post shows it, and the first phase's orders before they are adjudicated.

    .venv/bin/python scripts/sample_pictures.py [--out docs/images]

Writes ``sample_S1901M_orders.png`` and ``sample_<phase>_<results|retreats|adjustments>.png`` for
F1901M, F1902M (a retreat phase follows: centers drawn as the units stand), F1902R and W1902A.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pictures_cli import pictures_main

from engine import Board, adjudicate
from gm.messages.maps import ORDERS_MAP
from gm.phases.worker import render_maps
from harness.sample_game import play
from render import RenderOptions, marks_from_orders, render_map

RESULTS = {"F1901M": "results", "F1902M": "results", "F1902R": "retreats", "W1902A": "adjustments"}


async def make(out: Path) -> None:
    for request, _ in play():
        phase = request["phase"]
        board = Board.from_json(request)
        if phase == "S1901M":  # the orders as given, before the close
            marks = marks_from_orders(request["orders"], board.game_map, "M")
            png = render_map(board, marks, options=RenderOptions())
            (out / "sample_S1901M_orders.png").write_bytes(png)
        if phase in RESULTS:
            maps = render_maps(board, adjudicate(board, request["orders"]), position=False)
            path = out / f"sample_{phase}_{RESULTS[phase]}.png"
            path.write_bytes(maps[ORDERS_MAP])
            print(f"{path}: {len(maps[ORDERS_MAP]) // 1024} KB")


if __name__ == "__main__":
    pictures_main(__doc__ or "", make)
