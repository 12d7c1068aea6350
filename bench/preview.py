"""Benchmark: the private preview map (the order sheet's "My orders on the map" and /orders show) with
the real bot against the loopback fake Discord. Prints milliseconds; asserts nothing.

    .venv/bin/python bench/preview.py [--rounds 30] [--workers 2]

The board is a mid-game position (bench/legal_orders.py's Fall 1905: 34 units). England opens its
sheet (/orders sheet) and presses the map button, timed twice from the tap (bench/taps.py: "ack" until
Discord has the answer, "shown" until the player sees the picture); then /orders show with the map,
end to end, and the picture alone (gm.ordering.drawing.render_preview in this process: the first
picture, which loads the base map, and the next ones). The maps are drawn in the worker processes (or
a thread with --workers 0). (It was part of the step-by-step builder's benchmark, retired with the
builder: the sheet gives every order it gave, bench/sheet.py.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.taps import TapClock, game_in_mid_game, main
from bench.timing import summary
from gm.ordering.drawing import preview_request, preview_title, render_preview
from harness.bot_helpers import current_phase
from harness.fakediscord import FakeDiscord, User

STEPS = ("open (/orders sheet)", "map button")


async def one_round(fake: FakeDiscord, clock: TapClock, user: User, general: Any) -> None:
    sheet = await clock.timed("open (/orders sheet)", fake.slash(user, "orders", "sheet", channel=general))
    [button] = [c for c in sheet.custom_ids() if ":b:map" in c]
    await clock.timed("map button", fake.click(user, sheet, button))


async def run(rounds: int, workers: int) -> None:
    clock = TapClock(STEPS)
    shows: list[float] = []
    async with game_in_mid_game("Bench previews", workers) as (fake, table, bot, game_id):
        england = table.player("ENGLAND")
        for _ in range(rounds):
            await one_round(fake, clock, england, table.general)
        for _ in range(max(3, rounds // 3)):
            began = time.perf_counter()
            await (await fake.slash(england, "orders", "show", channel=table.general)).message()
            shows.append(time.perf_counter() - began)
        board = (await current_phase(bot, game_id)).board
    print(f"{rounds} preview maps, England in a 34-unit position; worker processes: {workers}")
    clock.print_steps()
    print(summary("/orders show with the map", shows))
    request = preview_request(
        board,
        "standard",
        {"ENGLAND": ["F NTH C A NWY - LON", "A LON - WAL"]},
        preview_title("Spring 1901 Movement", ["ENGLAND"]),
    )
    renders = []
    for _ in range(10):
        began = time.perf_counter()
        render_preview(request)
        renders.append(time.perf_counter() - began)
    print(summary("preview render, first (this process)", renders[:1]))
    print(summary("preview render, next ones", renders[1:]))


if __name__ == "__main__":
    main(__doc__ or "", run, rounds=30)
