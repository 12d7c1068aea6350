"""Benchmark: orders by tap (cogs.ui.builder) with the real bot against the loopback fake Discord, and
the private preview map. Prints milliseconds; asserts nothing.

    .venv/bin/python bench/builder.py [--rounds 30] [--workers 2]

Each builder step is timed twice, from the tap: "ack" until Discord has the interaction's answer (the
3-second limit applies to this: an edit of the message, or a deferral), "shown" until the player sees
the new message (after a deferral, the edit that follows). The fake answers at once, so Discord's own
latency comes on top. The board is a mid-game position (bench/legal_orders.py's Fall 1905: 34 units,
12 fleets at sea); England (6 units, 4 fleets at sea) taps one order per round, its kind picked in
turn (a convoy or support where the unit has one), so every step kind is measured.

The preview is timed end to end (the map button and /orders show, with the map drawn in the worker
processes, or a thread with --workers 0) and alone (gm.ordering.drawing.render_preview in this
process: the first picture, which loads the base map, and the next ones).
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
from harness.fakediscord import FakeDiscord, Message, User
from harness.fakediscord.state import walk_components

STEPS = ("open (/orders build)", "pick a unit", "pick a kind", "pick a target", "pick a choice", "map button")


def selects(message: Message) -> list[dict[str, Any]]:
    return [c for c in walk_components(message.components) if c.get("type") == 3]


async def one_round(fake: FakeDiscord, clock: TapClock, user: User, general: Any, turn: int) -> None:
    builder = await clock.timed("open (/orders build)", fake.slash(user, "orders", "build", channel=general))
    [units] = selects(builder)
    option = units["options"][turn % len(units["options"])]
    kinds = await clock.timed(
        "pick a unit", fake.click(user, builder, units["custom_id"], values=[option["value"]])
    )
    wanted = [c for c in kinds.custom_ids() if ":go:t:" in c]
    kind = next((c for c in wanted if c.endswith((":convoy", ":support"))), wanted[0])
    if turn % 3 == 0:
        kind = next((c for c in wanted if c.endswith(":move")), kind)
    targets = await clock.timed("pick a kind", fake.click(user, kinds, kind))
    first = selects(targets)[0]
    target = first["options"][turn % len(first["options"])]["value"]
    after = await clock.timed("pick a target", fake.click(user, targets, first["custom_id"], values=[target]))
    if "which" in after.content or "by land or by convoy" in after.content:
        choice = selects(after)[0]
        value = choice["options"][0]["value"]
        after = await clock.timed(
            "pick a choice", fake.click(user, after, choice["custom_id"], values=[value])
        )
    [button] = [c for c in after.custom_ids() if c.endswith(":map")]
    await clock.timed("map button", fake.click(user, after, button))


async def run(rounds: int, workers: int) -> None:
    clock = TapClock(STEPS)
    shows: list[float] = []
    async with game_in_mid_game("Bench taps", workers) as (fake, table, bot, game_id):
        england = table.player("ENGLAND")
        for turn in range(rounds):
            await one_round(fake, clock, england, table.general, turn)
        for _ in range(max(3, rounds // 3)):
            began = time.perf_counter()
            await (await fake.slash(england, "orders", "show", channel=table.general)).message()
            shows.append(time.perf_counter() - began)
        board = (await current_phase(bot, game_id)).board
    print(f"{rounds} orders by tap, England in a 34-unit position; worker processes: {workers}")
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
