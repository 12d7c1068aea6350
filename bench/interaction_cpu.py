"""Benchmark: the CPU and the SQL statements of each kind of interaction bench/load.py plays, one kind
at a time, in one process (the bot and the fake Discord together: compare two checkouts run alike,
not these figures with bench/load.py's bot-only CPU).

    .venv/bin/python bench/interaction_cpu.py                       # this checkout
    .venv/bin/python bench/interaction_cpu.py --root ../main        # another checkout's bot
    .venv/bin/python bench/interaction_cpu.py --profile FILE        # cProfile (CPU time) of the rounds
    .venv/bin/python bench/interaction_cpu.py --only open,Ready --sql   # some kinds, their statements
    .venv/bin/python bench/interaction_cpu.py --deferred             # every answer deferred, as under load

A game in bench/legal_orders.py's mid-game position; France taps its sheet (open, a pick, a support
menu and a pick in it, Ready and undo), Germany types (the orders form and its submission, /order, a
direct message, /orders show). Printed per kind: CPU per interaction (process time, bot and fake; the
maps are drawn in 2 worker processes, as in bench/load.py, and not counted), SQL statements per
interaction and calls the bot made to Discord; of the CPU, the kernel's (system time: sockets, fsync,
threads) and the cyclic garbage collector's. A DM sheet's redraw is made at once (no 10-s wait) and
counted with the change that asked for it. ``--deferred``: every answer is deferred ("thinking..." or
a tap's deferred update, then the answer as a followup or an edit), as a loaded bot does for a third of
its answers (bench/load.py's calls by route). On a busy machine the CPU times vary by a fifth from run to
run; the statements, the calls and a profile's function calls do not (``--profile``: printed per kind,
the Python function calls per interaction, bot and fake)."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import random
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROUNDS = 40


async def run(
    rounds: int,
    profile: str | None,
    show_sql: bool = False,
    only: str = "",
    show_calls: bool = False,
    deferred: bool = False,
) -> None:
    from sqlalchemy import event

    if deferred:  # no answer within the time before a deferral: "thinking..." or a deferred update first
        from cogs.shared import replies
        from cogs.ui import sheet_flows

        replies.ANSWER_WITHIN = 0.0
        sheet_flows.DEFER_AFTER = 0.0

    from bench.taps import game_in_mid_game, unit_selects
    from engine.board import Board
    from engine.legal import legal_orders
    from harness.fakediscord.state import walk_components
    from harness.sheet_helpers import button_id

    async with game_in_mid_game("Kinds", 2) as (fake, table, bot, game_id):
        statements = [0]
        engines = [bot.database.sync_engine]
        for pool in ("reader", "urgent"):  # SQLite's readers' and urgent writers' engines
            other = getattr(bot.database, pool, None)
            if other is not None:
                engines.append(other.sync_engine)

        shown: list[str] = []

        def count(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
            statements[0] += 1
            if show_sql:
                shown.append(" ".join(sql.split())[:160])

        for engine in engines:
            event.listen(engine, "before_cursor_execute", count)
        general, options = table.general, {"game": str(game_id)}
        france, germany = table.player("FRANCE"), table.player("GERMANY")
        rng = random.Random(1)
        state: dict[str, Any] = {}
        async with bot.runtime.sessions() as session:
            from gm.reading.lookup import latest_phase

            phase = await latest_phase(session, game_id)
            assert phase is not None
            board = Board.from_json(phase.board)
        typed = [e for e in legal_orders(board, "GERMANY").entries if e.orders]

        def orders() -> list[str]:
            return [rng.choice(entry.orders).text for entry in typed]

        async def opened(number: int) -> None:
            handle = await fake.slash(france, "orders", "sheet", options=options, channel=general)
            state["sheet"] = await handle.message()

        async def pick(number: int) -> None:
            menus = unit_selects(state["sheet"])
            menu = menus[number % len(menus)]
            plain = [o["value"] for o in menu["options"] if not o["value"].startswith("@")]
            handle = await fake.click(france, state["sheet"], menu["custom_id"], values=[rng.choice(plain)])
            state["sheet"] = await handle.message()

        async def support(number: int) -> None:
            for menu in unit_selects(state["sheet"]):
                values = [o["value"] for o in menu["options"]]
                if "@support" in values:
                    break
            else:
                raise AssertionError("no support menu")
            handle = await fake.click(france, state["sheet"], menu["custom_id"], values=["@support"])
            inner_message = await handle.message()
            inner = [
                c for c in walk_components(inner_message.components) if ":s:" in str(c.get("custom_id", ""))
            ]
            choices = [o["value"] for o in inner[0]["options"] if not o["value"].startswith("@")]
            handle = await fake.click(
                france, inner_message, inner[0]["custom_id"], values=[rng.choice(choices)]
            )
            state["sheet"] = await handle.message()

        async def ready(number: int) -> None:
            for action in ("ready", "unready"):
                handle = await fake.click(france, state["sheet"], button_id(state["sheet"], action))
                state["sheet"] = await handle.message()

        async def form(number: int) -> None:
            handle = await fake.slash(germany, "orders", "edit", options=options, channel=general)
            await handle.modal(timeout=30)
            submitted = await fake.submit_modal(germany, handle, {"orders": "\n".join(orders())})
            await submitted.message()

        async def order(number: int) -> None:
            handle = await fake.slash(
                germany, "order", options={**options, "text": "; ".join(orders())}, channel=general
            )
            await handle.message()

        async def direct(number: int) -> None:
            handle = await fake.dm_bot(germany, "\n".join(orders()))
            await handle.reply(timeout=30)

        async def show(number: int) -> None:
            handle = await fake.slash(germany, "orders", "show", options=options, channel=general)
            await handle.message()

        kinds: list[tuple[str, Callable[[int], Awaitable[None]]]] = [
            ("sheet: open", opened),
            ("sheet: pick", pick),
            ("sheet: support menu + pick", support),
            ("sheet: Ready + undo", ready),
            ("/orders edit + submit", form),
            ("/order", order),
            ("DM of orders", direct),
            ("/orders show", show),
        ]
        live = bot.live_sheets
        live.delay = 0.0  # a DM sheet's redraw counted with the change that asked for it

        async def settled(step: Callable[[int], Awaitable[None]], number: int) -> None:
            await step(number)
            await live.idle()

        profiles: list[cProfile.Profile] = []
        total = 0.0
        collecting = [0.0, 0.0]  # the collector's CPU so far; when the collection under way began

        def collector(phase: str, _info: dict[str, int]) -> None:
            if phase == "start":
                collecting[1] = time.process_time()
            else:
                collecting[0] += time.process_time() - collecting[1]

        gc.callbacks.append(collector)
        if only:
            kinds = [(name, step) for name, step in kinds if any(o in name for o in only.split(","))]
        for name, step in kinds:
            for number in range(3):
                await settled(step, number)
            await asyncio.sleep(0.2)
            calls, done, collected = len(fake.rest_log), statements[0], collecting[0]
            profiler = cProfile.Profile(time.process_time) if profile else None
            if profiler:
                profiles.append(profiler)
                profiler.enable()
            began, system = time.process_time(), resource.getrusage(resource.RUSAGE_SELF).ru_stime
            for number in range(rounds):
                await settled(step, number)
            cpu = (time.process_time() - began) / rounds
            in_system = (resource.getrusage(resource.RUSAGE_SELF).ru_stime - system) / rounds
            python_calls = ""
            if profiler:
                profiler.disable()
                made_calls = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
                python_calls = f", {made_calls / rounds:7.0f} Python calls"
            total += cpu
            made = (len(fake.rest_log) - calls) / rounds
            ran = (statements[0] - done) / rounds
            in_gc = (collecting[0] - collected) / rounds
            if show_sql:
                shown.clear()
                await settled(step, rounds)
                print("\n".join(f"    {sql}" for sql in shown))
            if show_calls:
                before = len(fake.rest_log)
                await settled(step, rounds)
                print("\n".join(f"    {c.method} {c.route}" for c in fake.rest_log[before:]))
            print(
                f"{name:28s} {1000 * cpu:6.2f} ms of CPU ({1000 * in_system:5.2f} system, "
                f"{1000 * in_gc:4.2f} collecting), {ran:5.1f} statements, {made:4.1f} calls to Discord"
                + python_calls
            )
        print(f"{'all kinds, summed':28s} {1000 * total:6.2f} ms of CPU")
        print(f"tasks pending at the end (bot and fake): {len(asyncio.all_tasks())}")
        if profiles and profile:
            merged = pstats.Stats(profiles[0])
            for other in profiles[1:]:
                merged.add(other)
            merged.dump_stats(profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", help="run this checkout's bot (default: this one)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--profile", help="cProfile (CPU time) of the measured rounds, into this file")
    parser.add_argument("--sql", action="store_true", help="print the statements of one more round of each")
    parser.add_argument("--only", default="", help="only the kinds whose names hold this")
    parser.add_argument(
        "--calls", action="store_true", help="print the calls to Discord of one more round of each"
    )
    parser.add_argument("--deferred", action="store_true", help="every answer deferred, as under load")
    parser.add_argument(
        "--loop",
        choices=("bot", "asyncio", "uvloop"),
        default="bot",
        help="the event loop (default: the one the bot runs on, bot.new_event_loop)",
    )
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(here))
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
    factory = asyncio.new_event_loop
    if args.loop != "asyncio":
        try:
            from ops.eventloop import loop_factory
        except ImportError:  # a checkout from before ops.eventloop: asyncio's loop
            if args.loop == "uvloop":
                import uvloop

                factory = uvloop.new_event_loop
        else:
            factory = loop_factory("uvloop")[1]
    print(f"event loop: {type(factory()).__module__}")
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(run(args.rounds, args.profile, args.sql, args.only, args.calls, args.deferred))


if __name__ == "__main__":
    main()
