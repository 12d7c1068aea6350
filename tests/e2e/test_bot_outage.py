"""A close cut by a database outage goes on within seconds of the database's return (issue 38).

The bot runs on PostgreSQL. At the deadline its close claims the phase, and right then the database
goes away: its connections are cut and it takes no new ones (``ALLOW_CONNECTIONS false``, as a
PostgreSQL restart looks to the bot) for :data:`OUTAGE` seconds, longer than the first retry's 5 s.
The fixed schedule would try again 30 s after that failed retry; the bot probes the database every
2 s meanwhile and retries the close as soon as it answers: the results are in the game's channel
within :data:`AFTER_RETURN` seconds of its return, posted once.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from db.models import PhaseRecord
from gm.clock import utcnow
from gm.messages.words import long_name
from gm.phases.closer import CloseHooks, PhaseCloser
from harness.bot_helpers import (
    current_phase,
    embeds_titled,
    game_channel_of,
    make_table,
    running,
    started_game,
)
from harness.fakediscord import FakeDiscord
from tests.pg import PostgresServer

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

OUTAGE = 8.0  # seconds the database is away
AFTER_RETURN = 10.0  # seconds from its return to the results posted


def database_name(url: str) -> str:
    return url.split("@/", 1)[1].split("?", 1)[0]


async def test_a_close_cut_by_an_outage_finishes_soon_after_the_database_returns(
    fake: FakeDiscord, tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    name = database_name(postgres_url)

    def away() -> None:
        postgres_server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        postgres_server.execute(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )

    def back() -> None:
        postgres_server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')

    table = await make_table(fake, 3)
    async with running(fake, tmp_path, database_url=postgres_url) as bot:
        game_id = await started_game(fake, bot, table, "Outage", players=3, press="public")
        channel = await game_channel_of(bot, fake, game_id)
        title = f"Outage: {long_name('S1901M')} results"
        gone = asyncio.Event()

        async def cut(_phase_id: int) -> None:  # the claim is committed: the database goes away now
            if not gone.is_set():
                gone.set()
                await asyncio.to_thread(away)

        closer = bot.runtime.closer
        assert isinstance(closer, PhaseCloser)
        closer._hooks = CloseHooks(after_claim=cut)
        try:
            phase = await current_phase(bot, game_id)
            async with bot.runtime.sessions() as session:  # the deadline is now: its job closes it
                record = await session.get(PhaseRecord, phase.id)
                assert record is not None
                record.deadline = utcnow() - timedelta(seconds=1)
                await session.commit()
            await bot.runtime.scheduler.rebuild_from_db()
            await asyncio.wait_for(gone.wait(), 30)
            await asyncio.sleep(OUTAGE)
            assert embeds_titled(fake, channel, title) == [], "nothing could be closed meanwhile"
        finally:
            await asyncio.to_thread(back)
        returned = utcnow()
        await fake.wait_for(
            lambda: embeds_titled(fake, channel, title) or None,
            what="the results after the database's return",
            timeout=AFTER_RETURN,
        )
        print(f"results posted {(utcnow() - returned).total_seconds():.1f} s after the database's return")
        await asyncio.sleep(0.5)  # a second post would show now
        assert len(embeds_titled(fake, channel, title)) == 1
        assert (await current_phase(bot, game_id)).name == "F1901M"
    assert fake.unknown_calls == [] and fake.internal_errors == []
