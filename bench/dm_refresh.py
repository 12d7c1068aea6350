"""Benchmark: what keeping a direct-message order sheet up to date costs (cogs.ui.sheet_live), and what
a tap on the sheet costs, in one process (the bot and the fake Discord together: compare two checkouts
run alike, not these figures with bench/load.py's bot-only CPU).

    .venv/bin/python bench/dm_refresh.py                    # this checkout
    .venv/bin/python bench/dm_refresh.py --root ../main     # another checkout's bot, same script

A game in bench/legal_orders.py's mid-game position; France's call to order carries its sheet. Printed:
CPU per typed change (``/order``-like, through gm) with the DM sheet's redraw right after it and
without any redraw, the order menu reads the redraws made, and per tap on France's sheet (a pick,
Ready and undo) the CPU and the calls the bot made to Discord."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

ROUNDS = 100


async def run(rounds: int) -> None:
    from bench.taps import game_in_mid_game, unit_selects
    from gm.ordering import legal
    from harness.sheet_helpers import button_id

    async with game_in_mid_game("Refresh", 0) as (fake, table, bot, game_id):
        live = bot.live_sheets
        gamemaster = bot.services.gamemaster
        france = table.player("FRANCE")
        reads = 0
        original = legal.order_menu

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal reads
            reads += 1
            return await original(*args, **kwargs)

        legal.order_menu = counted

        async def change(number: int) -> None:
            await gamemaster.submit_orders(game_id, france.id, "F BRE H" if number % 2 else "F BRE - MAO")

        live.delay = 0.0
        began = time.process_time()
        for number in range(rounds):
            await change(number)
            await live.idle()
        with_redraw = (time.process_time() - began) / rounds
        redraws, read = live.refreshed, reads
        live.delay = 1e6
        began = time.process_time()
        for number in range(rounds):
            await change(number)
        without = (time.process_time() - began) / rounds
        await live.abandon()
        legal.order_menu = original
        print(
            f"a typed change: {1000 * with_redraw:.2f} ms of CPU with its DM sheet's redraw, "
            f"{1000 * without:.2f} ms without: the redraw {1000 * (with_redraw - without):.2f} ms "
            f"({redraws} redraws, {read} order menus read)"
        )

        general, options = table.general, {"game": str(game_id)}
        state: dict[str, Any] = {}

        async def opened(number: int) -> None:
            handle = await fake.slash(france, "orders", "sheet", options=options, channel=general)
            state["sheet"] = await handle.message()

        async def pick(number: int) -> None:
            menus = unit_selects(state["sheet"])
            menu = menus[number % len(menus)]
            plain = [o["value"] for o in menu["options"] if not o["value"].startswith("@")]
            handle = await fake.click(
                france, state["sheet"], menu["custom_id"], values=[plain[number % len(plain)]]
            )
            state["sheet"] = await handle.message()

        async def ready(number: int) -> None:
            for action in ("ready", "unready"):
                handle = await fake.click(france, state["sheet"], button_id(state["sheet"], action))
                state["sheet"] = await handle.message()

        for name, step in (("the sheet opened", opened), ("a pick", pick), ("Ready and undo", ready)):
            for number in range(5):
                await step(number)
            calls = len(fake.rest_log)
            began = time.process_time()
            for number in range(rounds):
                await step(number)
            cpu = (time.process_time() - began) / rounds
            made = (len(fake.rest_log) - calls) / rounds
            print(f"{name}: {1000 * cpu:.2f} ms of CPU, {made:.1f} calls to Discord")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", help="run this checkout's bot (default: this one)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(here))
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
    asyncio.run(run(args.rounds))


if __name__ == "__main__":
    main()
