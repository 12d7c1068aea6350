"""Benchmark: a sandbox (/sandbox) with the real bot against the loopback fake Discord. Prints
milliseconds; asserts nothing.

    .venv/bin/python bench/sandbox.py [--rounds 20] [--workers 2]

A game in bench/legal_orders.py's mid-game position (Fall 1905: 34 units). Each round makes a
sandbox of it (/sandbox new), shows another power (the power picker), picks an order, adjudicates
(the engine and the results map in the worker processes), steps back, and deletes the sandbox. Each
step is timed twice, as in bench/sheet.py: "ack" until Discord has the interaction's answer (the
3-second limit: an adjudication is deferred first), "shown" until the player sees its outcome (the
new sheet; for Adjudicate, the new sheet and then the results message with its map).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.taps import TapClock, game_in_mid_game, main, unit_selects
from harness.bot_helpers import ask
from harness.fakediscord import FakeDiscord, User
from harness.fakediscord.state import walk_components
from harness.sheet_helpers import button_id

STEPS = (
    "new (/sandbox new)",
    "show another power",
    "pick an order",
    "Adjudicate",
    "Step back",
)


async def one_round(
    fake: FakeDiscord, clock: TapClock, user: User, general: Any, game_id: int, turn: int
) -> None:
    handle, _, began = await clock.timed_handle(
        "new (/sandbox new)",
        fake.slash(user, "sandbox", "new", options={"game": str(game_id)}, channel=general),
    )
    [sheet] = await handle.followups(1)
    clock.shown["new (/sandbox new)"][-1] = time.perf_counter() - began
    picker = next(c for c in walk_components(sheet.components) if str(c.get("custom_id", "")).endswith(":p"))
    powers = [o["value"] for o in picker["options"]]
    power = powers[(turn + 1) % len(powers)]
    sheet = await clock.timed(
        "show another power", fake.click(user, sheet, picker["custom_id"], values=[power])
    )
    units = unit_selects(sheet)
    menu = units[turn % len(units)]
    plain = [o["value"] for o in menu["options"] if not o["value"].startswith("@")]
    sheet = await clock.timed(
        "pick an order", fake.click(user, sheet, menu["custom_id"], values=[plain[turn % len(plain)]])
    )
    handle, sheet, began = await clock.timed_handle(
        "Adjudicate", fake.click(user, sheet, button_id(sheet, "adjudicate"))
    )
    await fake.wait_for(
        lambda: any(fake.world.messages[i].files() for i in handle.interaction.followup_ids),
        what="the results with their map",
    )
    clock.shown["Adjudicate"][-1] = time.perf_counter() - began  # the new sheet, then the results and map
    sheet = await clock.timed("Step back", fake.click(user, sheet, button_id(sheet, "back")))
    number = sheet.custom_ids()[0].split(":")[1].split(".")[0]
    await ask(fake, user, "sandbox", "delete", channel=general, sandbox=number)


async def run(rounds: int, workers: int) -> None:
    clock = TapClock(STEPS)
    async with game_in_mid_game("Bench sandbox", workers) as (fake, table, _, game_id):
        owner = table.player("ENGLAND")
        for turn in range(rounds):
            await one_round(fake, clock, owner, table.general, game_id, turn)
    print(f"{rounds} rounds in a sandbox of a 34-unit position; worker processes: {workers}")
    clock.print_steps()


if __name__ == "__main__":
    main(__doc__ or "", run, rounds=20)
