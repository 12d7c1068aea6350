"""Benchmark: the order sheet (cogs.ui.sheet) with the real bot against the loopback fake Discord.
Prints milliseconds; asserts nothing.

    .venv/bin/python bench/sheet.py [--rounds 30] [--workers 2]

England in bench/legal_orders.py's mid-game position (Fall 1905: 34 units on the board, 6 English):
each round opens the sheet (/orders sheet), picks an order for one unit (a move, or a support or
convoy through its second menu), presses Ready and takes it back. Each tap is timed twice
(bench/taps.py): "ack" until Discord has the interaction's answer (the 3-second limit), "shown"
until the player sees the redrawn sheet.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.taps import TapClock, game_in_mid_game, main, unit_selects
from harness.fakediscord import FakeDiscord, User
from harness.fakediscord.state import walk_components
from harness.sheet_helpers import button_id

STEPS = ("open (/orders sheet)", "pick an order", "open a second menu", "pick in it", "Ready", "undo Ready")


async def one_round(fake: FakeDiscord, clock: TapClock, user: User, general: Any, turn: int) -> None:
    sheet = await clock.timed("open (/orders sheet)", fake.slash(user, "orders", "sheet", channel=general))
    menus = unit_selects(sheet)
    menu = menus[turn % len(menus)]
    values = [o["value"] for o in menu["options"]]
    second = next((v for v in values if v in ("@support", "@convoy")), None)
    if second is not None and turn % 2:
        opened = await clock.timed(
            "open a second menu", fake.click(user, sheet, menu["custom_id"], values=[second])
        )
        [inner] = [c for c in walk_components(opened.components) if ":s:" in str(c.get("custom_id", ""))]
        choice = next(o["value"] for o in inner["options"] if not o["value"].startswith("@"))
        sheet = await clock.timed("pick in it", fake.click(user, opened, inner["custom_id"], values=[choice]))
    else:
        plain = [v for v in values if not v.startswith("@")]
        choice = plain[turn % len(plain)]
        sheet = await clock.timed(
            "pick an order", fake.click(user, sheet, menu["custom_id"], values=[choice])
        )
    sheet = await clock.timed("Ready", fake.click(user, sheet, button_id(sheet, "ready")))
    await clock.timed("undo Ready", fake.click(user, sheet, button_id(sheet, "unready")))


async def run(rounds: int, workers: int) -> None:
    clock = TapClock(STEPS)
    async with game_in_mid_game("Bench sheet", workers) as (fake, table, _, _):
        england = table.player("ENGLAND")
        for turn in range(rounds):
            await one_round(fake, clock, england, table.general, turn)
    print(f"{rounds} rounds on the order sheet, England in a 34-unit position; worker processes: {workers}")
    clock.print_steps()


if __name__ == "__main__":
    main(__doc__ or "", run, rounds=30)
