"""Benchmark: moderators and the end of a game through the real bot and the loopback fake Discord.
Prints how long a moderator waits and how long the visible effects take; asserts nothing.

    .venv/bin/python bench/moderation.py [--rounds 20] [--years 3] [--workers 2]

What it measures (wall time on this machine; the fake answers at once, so Discord's own latency and
rate limits come on top), in a seven-player game with private threads:
- /mod pause and /mod resume: from the command to the moderator's answer;
- /mod replace: to the answer, and to the new player seeing the seat's channels and 6 threads;
- /mod rollback: from the click on "Roll back" to the notice in the game channel;
- a draw: from the last /draw vote to the final post (map, table, the GIF of every phase) after
  ``--years`` played years (every phase closed by the moderator with /mod close).
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
    ask,
    current_phase,
    embeds_titled,
    game_channel_of,
    make_table,
    moderator_closes,
    place_named,
    running,
    settle,
    started_game,
)
from harness.fakediscord import fake_discord


async def run(rounds: int, years: int, workers: int) -> None:
    waits: dict[str, list[float]] = {}

    def note(name: str, began: float) -> None:
        waits.setdefault(name, []).append(time.perf_counter() - began)

    async with fake_discord(reply_timeout=120) as fake:
        table = await make_table(fake)
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, Path(tmp), close_workers=workers) as bot:
                game_id = await started_game(fake, bot, table, "Bench")
                game = str(game_id)
                channel = await game_channel_of(bot, fake, game_id)
                for _ in range(rounds):
                    for action in ("pause", "resume"):
                        began = time.perf_counter()
                        await ask(fake, table.mod, "mod", action, channel=table.general, game=game)
                        note(f"/mod {action} answered", began)
                await settle(bot, fake)

                newcomer = table.onlooker
                italy = place_named(fake, table.guild, game_id, f"g{game_id}-italy")
                began = time.perf_counter()
                await ask(
                    fake,
                    table.mod,
                    "mod",
                    "replace",
                    channel=table.general,
                    game=game,
                    power="ITALY",
                    player=newcomer,
                )
                note("/mod replace answered", began)
                threads = [c for c in fake.guild_channels(table.guild) if c.is_thread and "Italy" in c.name]
                await fake.wait_for(
                    lambda: (
                        True
                        if fake.can_view(newcomer, italy) and all(fake.can_view(newcomer, t) for t in threads)
                        else None
                    ),
                    what="the new player's access",
                    timeout=60,
                )
                note("/mod replace -> channel + threads open", began)

                for _ in range(years * 2):
                    await moderator_closes(fake, table.mod, table.general, int(game))
                    await settle(bot, fake)
                asked = await ask(fake, table.mod, "mod", "rollback", channel=table.general, game=game)
                began = time.perf_counter()
                await (await fake.click(table.mod, asked, asked.custom_ids()[0])).message()
                await fake.wait_for(
                    lambda: True if embeds_titled(fake, channel, "is rolled back") else None,
                    what="the rollback notice",
                    timeout=60,
                )
                note("rollback click -> notice posted", began)
                await settle(bot, fake)

                voters = [u for u in table.players if u.id != table.player("ITALY").id] + [newcomer]
                await ask(fake, voters[0], "draw", "propose", channel=table.general, game=game)
                for voter in voters[1:-1]:
                    await ask(fake, voter, "draw", "vote", channel=table.general, game=game, choice="yes")
                phases = (await current_phase(bot, game_id)).ordinal + 1
                began = time.perf_counter()
                await ask(fake, voters[-1], "draw", "vote", channel=table.general, game=game, choice="yes")
                note("last /draw vote answered", began)
                await fake.wait_for(
                    lambda: True if embeds_titled(fake, channel, "is over") else None,
                    what="the final post",
                    timeout=300,
                )
                note(f"last vote -> final post ({phases} phases)", began)
                [final] = embeds_titled(fake, channel, "is over")
                sizes = ", ".join(f"{a.filename} {len(a.data) / 1e6:.2f} MB" for a in final.attachments)
    print(f"seven players, private threads, close workers={workers}; final post: {sizes}")
    for name, seconds in waits.items():
        print(summary(name, seconds, width=38))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.years, args.workers))


if __name__ == "__main__":
    main()
