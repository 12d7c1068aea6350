"""Benchmark: how long the bot takes to stop on SIGTERM, as its own process against the loopback fake
Discord (harness/processes.py): idle, and while closing a phase (the signal sent the moment the phase
is claimed, as the adjudication and maps start). Prints its figures; asserts nothing.

    .venv/bin/python bench/shutdown.py [--runs 5] [--workers 2]

From the signal to the end of the process; the fake answers at once, so Discord's latency comes on top
for the results still to post.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import summary
from harness.bot_helpers import make_table, moderator_closes
from harness.fakediscord import fake_discord
from harness.processes import bot_process
from harness.remote import env_for, phase_status_becomes, started_remote_game


async def once(workers: int, during_close: bool) -> float:
    with tempfile.TemporaryDirectory(prefix="gm-bench-stop-") as tmp:
        path = Path(tmp)
        async with fake_discord(reply_timeout=60) as fake:
            table = await make_table(fake, players=3)
            env = env_for(fake, path, CLOSE_WORKERS=str(workers))
            async with bot_process(path, fake_url=fake.base_url, **env) as bot:
                await bot.line_with("ready: connected to Discord")
                if during_close:
                    game_id = await started_remote_game(fake, table, bot)
                    await moderator_closes(fake, table.mod, table.general, game_id)
                    await phase_status_becomes(bot, game_id, "S1901M", "adjudicating", timeout=30)
                code, seconds = await bot.stopped_by(signal.SIGTERM)
                if code != 0:
                    raise SystemExit(f"exit code {code}:\n{bot.output}")
                return seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    idle = [await once(args.workers, False) for _ in range(args.runs)]
    print(summary("SIGTERM, idle", idle))
    closing = [await once(args.workers, True) for _ in range(args.runs)]
    print(summary("SIGTERM during a close (first)", closing))


if __name__ == "__main__":
    asyncio.run(main())
