"""Benchmark: one member floods the bot (the real bot against the loopback fake Discord) with
interactions while another member uses it; prints how long the other waits for their answers, with the
per-member rate limit (ops.limits, the production settings) and without it. Asserts nothing.

    .venv/bin/python bench/flood.py [--flood 1000] [--probes 20]

The flooder sends ``--flood`` /game list commands as fast as the fake lets a client send them; meanwhile
the other member runs /game list every half second (until the flood is sent, ``--probes`` times at least) and
each answer's wait is timed. The
figures are wall time on this machine (compare the two rows, not across machines).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.bot_helpers import create_game, make_table, running, settle
from harness.fakediscord import InteractionHandle, fake_discord


async def one_row(flood: int, probes: int, burst: int, rate: float) -> tuple[float, list[float], int]:
    async with fake_discord(reply_timeout=120) as fake:
        table = await make_table(fake, players=3)
        flooder, other = table.players[0], table.players[1]
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, Path(tmp), member_burst=burst, member_rate=rate) as bot:
                for number in range(3):
                    await create_game(fake, table, f"Flooded {number}")
                waits: list[float] = []
                done = asyncio.Event()

                async def flooding() -> tuple[float, list[InteractionHandle]]:
                    began = time.perf_counter()
                    handles = [
                        await fake.slash(flooder, "game", "list", channel=table.general) for _ in range(flood)
                    ]
                    done.set()
                    return time.perf_counter() - began, handles

                async def probing() -> None:
                    while len(waits) < probes or not done.is_set():
                        began = time.perf_counter()
                        await (await fake.slash(other, "game", "list", channel=table.general)).message()
                        waits.append(time.perf_counter() - began)
                        await asyncio.sleep(0.5)  # a player tapping fast: 2 a second

                (sent_in, handles), _ = await asyncio.gather(flooding(), probing())
                await settle(bot, fake)
                served = sum(1 for h in handles if h.interaction.acknowledged)
                return sent_in, waits, served


async def run(flood: int, probes: int) -> None:
    print(f"{flood} /game list from one member, /game list by another every half second meanwhile:")
    for label, burst, rate in (("rate limit 20 + 4/s", 20, 4.0), ("no rate limit", 10_000, 1000.0)):
        sent_in, waits, served = await one_row(flood, probes, burst, rate)
        waits.sort()
        print(
            f"  {label:<20} flood sent in {sent_in:5.2f} s, {served:4d} answered; the other's "
            f"{len(waits)} waits: median {statistics.median(waits) * 1000:6.1f} ms, "
            f"p90 {waits[int(len(waits) * 0.9)] * 1000:6.1f} ms, max {waits[-1] * 1000:7.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--probes", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.flood, args.probes))


if __name__ == "__main__":
    main()
