"""Benchmark: the real bot against the loopback fake Discord (harness/fakediscord). Prints how long
players wait for answers and how long a game's set-up and a phase close take end to end; asserts nothing.

    .venv/bin/python bench/bot_interactions.py [--games 3] [--orders 50] [--workers 2]

What it measures (wall time on this machine, the fake answering at once, so Discord's own latency and
rate limits come on top):
- /game start: drawing powers, creating the category, channels and 21 private threads, DMs queued;
- /order and a DM of orders: from the user's action to the bot's answer;
- an early close: from the last player's /ready to the results (embed, maps, orders) in the game channel.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import summary
from harness.bot_helpers import (
    bot_messages,
    create_game,
    join_everyone,
    make_table,
    place_named,
    running,
    settle,
    start_game,
)
from harness.fakediscord import fake_discord


async def run(games: int, orders: int, workers: int) -> None:
    starts, order_waits, dm_waits, closes = [], [], [], []
    async with fake_discord(reply_timeout=60) as fake:
        table = await make_table(fake)
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, Path(tmp), close_workers=workers) as bot:
                for number in range(games):
                    game_id = await create_game(fake, table, f"Bench {number}")
                    await join_everyone(fake, table, game_id)
                    began = time.perf_counter()
                    await start_game(fake, bot, table, game_id)
                    starts.append(time.perf_counter() - began)
                    game_channel = place_named(fake, table.guild, game_id, f"g{game_id}-bench-{number}")
                    france, germany = table.player("FRANCE"), table.player("GERMANY")
                    for i in range(orders):
                        text = (
                            "A Par-Bur; A Mar S A Par-Bur; F Bre-MAO"
                            if i % 2
                            else "A Par H; A Mar H; F Bre H"
                        )
                        began = time.perf_counter()
                        await (
                            await fake.slash(
                                france,
                                "order",
                                options={"text": text, "game": str(game_id)},
                                channel=table.general,
                            )
                        ).message()
                        order_waits.append(time.perf_counter() - began)
                    for _ in range(max(1, orders // 5)):
                        began = time.perf_counter()
                        await (
                            await fake.dm_bot(germany, f"game: {game_id}\nA Mun-Ruh\nA Ber-Kie\nF Kie-Den")
                        )
                        dm_waits.append(time.perf_counter() - began)
                    for user in table.players[:-1]:
                        await (
                            await fake.slash(
                                user, "ready", options={"game": str(game_id)}, channel=table.general
                            )
                        ).message()
                    posted = len(bot_messages(fake, game_channel))
                    began = time.perf_counter()
                    await (
                        await fake.slash(
                            table.players[-1], "ready", options={"game": str(game_id)}, channel=table.general
                        )
                    ).message()
                    await fake.wait_for(
                        lambda ch=game_channel, n=posted: (
                            True
                            if any(
                                "results" in (m.embeds[0]["title"] if m.embeds else "")
                                for m in bot_messages(fake, ch)[n:]
                            )
                            else None
                        ),
                        what="the results",
                        timeout=120,
                    )
                    closes.append(time.perf_counter() - began)
                    await settle(bot, fake)
                channels = [c for c in fake.guild_channels(table.guild) if not c.is_thread]
                threads = [c for c in fake.guild_channels(table.guild) if c.is_thread]
    print(
        f"{games} games, close workers={workers}; "
        f"the server now has {len(channels)} channels, {len(threads)} threads"
    )
    print(summary("/game start (channels + threads)", starts))
    print(summary("/order answered", order_waits))
    print(summary("DM of orders answered", dm_waits))
    print(summary("last /ready -> results posted", closes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--orders", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.orders, args.workers))


if __name__ == "__main__":
    main()
