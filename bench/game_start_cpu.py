"""Benchmark: the CPU (process time, not wall: the machine is shared) of one Standard game created,
joined by its seven players and started, through the real bot against the loopback fake Discord
(harness/fakediscord, in the same process: its share is in the figures too), and the SQL statements
it runs. Asserts nothing.

    .venv/bin/python bench/game_start_cpu.py [--games 8] [--profile FILE]

The first game is left out of the figures (imports, caches warming up); ``--profile`` writes a
cProfile (process CPU) of the measured games to FILE (``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event
from sqlalchemy.engine import Engine

from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import fake_discord

statements = [0]  # SQL statements the bot's engines ran (a figure the machine's load does not move)


@event.listens_for(Engine, "before_cursor_execute")
def _counted(*_args: object) -> None:
    statements[0] += 1


async def run(games: int, profile: str | None) -> None:
    costs = []
    profiler = cProfile.Profile(time.process_time)
    async with fake_discord(reply_timeout=60) as fake:
        table = await make_table(fake)
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, Path(tmp)) as bot:
                await started_game(fake, bot, table, "Warm-up")
                statements[0] = 0
                for number in range(games):
                    if profile:
                        profiler.enable()
                    began = time.process_time()
                    await started_game(fake, bot, table, f"Bench {number}")
                    costs.append(time.process_time() - began)
                    if profile:
                        profiler.disable()
    if profile:
        profiler.dump_stats(profile)
    print(f"a started game (create, 6 joins, start): {statements[0] / games:.0f} SQL statements")
    print(f"a started game (create, 6 joins, start), CPU s over {games} games:")
    print(
        f"  median {statistics.median(costs):.3f}  min {min(costs):.3f}  max {max(costs):.3f}"
        f"  mean {statistics.fmean(costs):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--profile", help="write a cProfile of the measured games to this file")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.profile))


if __name__ == "__main__":
    main()
