"""The README's picture of the supply-center chart (the final post's, and /history chart's): seven
built-in players (engine.player, seeded) play a Standard game from 1901 to 1910 through the engine,
and render.chart draws each power's centers at the end of every year, in the usual palette and in
the colour-blind one.

    .venv/bin/python scripts/chart_picture.py [--out docs/images]

Writes ``centers_chart.png`` and ``centers_chart_colorblind.png``; prints the table of counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pictures_cli import pictures_main

from engine import Board, adjudicate
from engine.player import choose_orders
from render.chart import ChartRow, render_chart

LAST_YEAR = 1910


def play() -> tuple[list[str], dict[str, list[int]]]:
    """The years ("start", 1901...) and each power's centers at the end of each."""
    board = Board.initial()
    powers = list(board.game_map.powers)
    years = ["start"]
    counts = {p: [board.center_counts().get(p, 0)] for p in powers}
    while board.phase.year <= LAST_YEAR:
        orders = {p: [o.text for o in choose_orders(board, p, seed=42)] for p in powers}
        result = adjudicate(board, orders)
        after = result.board
        if result.next_phase is None or result.next_phase.year != board.phase.year or result.winner:
            years.append(str(board.phase.year))
            for p in powers:
                counts[p].append(after.center_counts().get(p, 0))
        if result.next_phase is None or result.winner:
            break
        board = after
    return years, counts


async def make(out: Path) -> None:
    years, counts = play()
    rows = [ChartRow(p, c) for p, c in counts.items()]
    print("Year  " + " ".join(f"{p[:3]:>4}" for p in counts))
    for i, year in enumerate(years):
        print(f"{year:<5} " + " ".join(f"{c[i]:>4}" for c in counts.values()))
    title = "Friday: supply centers per year"
    (out / "centers_chart.png").write_bytes(render_chart(years, rows, title=title))
    (out / "centers_chart_colorblind.png").write_bytes(
        render_chart(years, rows, title=title, palette="colorblind")
    )


if __name__ == "__main__":
    pictures_main(__doc__ or "", make)
