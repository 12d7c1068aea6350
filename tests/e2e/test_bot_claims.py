"""A close whose claimer dies is taken over by whichever process notices (issue 38 C).

Two bot processes on one PostgreSQL, as in tests/e2e/test_bot_shards.py: ``alpha`` runs shard 0 (and
so the direct messages), ``beta`` shard 1, where the game's server is. The last player says "ready" by
direct message: alpha claims the close of beta's game (HOLD_CLOSES keeps it in the middle of the
close) and is killed there (SIGKILL) holding the claim. Alpha is not started again. Beta, which owns
the game, finishes the close once the claim stops being renewed: the phase closes once, by beta, its
results are posted once, and the players can order in the next phase. Both run with a 5-s lease
(harness.bot_process's CLAIM_LEASE) instead of 15 s: the same take-over, 10 s sooner.

Before this, the claim lapsed after 5 minutes and only a restart of alpha's shards was looked at: the
phase read "adjudicating" for about 6 minutes. The wait below gives beta 30 s from the kill.

Needs PostgreSQL (skipped with the command that installs it otherwise); about 25 s.
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections import Counter
from pathlib import Path

import pytest

from db.models import PhaseStatus
from gm.clock import utcnow
from gm.delivery.shards import shard_of
from gm.messages.words import long_name
from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import fake_discord
from harness.processes import bot_process
from tests.e2e.test_bot_shards import SHARDS, Database, bot_env, until

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

TAKE_OVER = 30.0  # seconds from the claimer's death to the close finished elsewhere
LEASE = {"CLAIM_LEASE": "5"}  # seconds a claim lasts without renewal (15 in production)


async def test_a_close_whose_claimer_died_is_finished_by_the_games_owner(
    tmp_path: Path, postgres_url: str
) -> None:
    async with fake_discord(ack_deadline=None, reply_timeout=60.0) as fake:
        table = await make_table(fake, 3, name="Club 1", shard=(1, SHARDS))
        assert shard_of(table.guild.id, SHARDS) == 1
        async with running(fake, tmp_path, database_url=postgres_url) as bot:  # one process sets up
            game_id = await started_game(fake, bot, table, "Far", players=3, press="public")
            first, *others = table.players[:3]
            for user in others:  # all but the last are ready (answered by this process)
                await (await fake.dm_bot(user, "ready")).reply()
        db = Database(postgres_url)
        try:
            cwd = tmp_path / "run"
            cwd.mkdir()
            async with (
                bot_process(
                    cwd, fake_url=fake.base_url, HOLD_CLOSES="600", **LEASE, **bot_env(fake, postgres_url, 0)
                ) as alpha,
                bot_process(cwd, fake_url=fake.base_url, **LEASE, **bot_env(fake, postgres_url, 1)) as beta,
            ):
                await asyncio.gather(alpha.line_with("ready: connected"), beta.line_with("ready: connected"))
                await fake.dm_bot(first, "ready")  # the last one: alpha (the DMs' shard) claims the close

                async def claimed() -> bool:
                    return any(p.status == PhaseStatus.ADJUDICATING for p in await db.phases())

                await until("alpha claims the close", claimed)
                alpha.process.kill()
                await alpha.process.wait()
                died = utcnow()

                async def closed() -> bool:
                    return any(p.status == PhaseStatus.CLOSED for p in await db.phases())

                await until("the close is finished by beta", closed, timeout=TAKE_OVER)
                print(f"taken over and closed {(utcnow() - died).total_seconds():.1f} s after the kill")
                await until("every message sent", db.all_done)
                await fake.flush()
                code, _ = await beta.stopped_by(signal.SIGTERM)
                assert code == 0, beta.output[-3000:]
            phases = await db.phases()
            games = await db.games()
        finally:
            await db.engine.dispose()
        assert [(p.ordinal, p.name, p.status) for p in phases] == [
            (0, "S1901M", PhaseStatus.CLOSED),
            (1, "F1901M", PhaseStatus.OPEN),
        ]
        assert phases[0].close_reason == "all_ready"
        closes = Counter(
            (name, int(m[1]))
            for name, process in (("alpha", alpha), ("beta", beta))
            for line in process.lines
            if (m := re.search(r"phase closed: game (\d+) (\w+)", line))
        )
        assert closes == Counter({("beta", game_id): 1}), closes
        assert any("claim lapsed" in line for line in beta.lines), beta.output[-3000:]
        channel_id = games[game_id].game_channel_id
        assert channel_id is not None
        title = f"Far: {long_name('S1901M')} results"
        posted = [
            m
            for m in fake.world.channel_messages(channel_id)
            if m.author_id == fake.world.bot.id and m.embeds and m.embeds[0].get("title") == title
        ]
        assert len(posted) == 1, f"{title!r} posted {len(posted)} times"
        assert fake.unknown_calls == [] and fake.internal_errors == []
