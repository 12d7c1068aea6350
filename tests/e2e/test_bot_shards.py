"""The bot as two processes on one PostgreSQL, each running one of two shards (issue 14 item 6).

Two servers, one on each shard (``(guild_id >> 22) % 2``), with two games each, are set up by one bot
in this process. Then two bot processes (harness.bot_process: the production start-up) run against
the same loopback fake Discord and the same database: ``alpha`` with SHARD_IDS=0 (its server, and
the direct messages) and ``beta`` with SHARD_IDS=1. Every game's first phase has one deadline, a few
seconds after both are up. While beta is still posting (Discord is slow on one of its channels),
alpha is killed (SIGKILL) and started again: it must take back its own dead run's claims only,
never beta's.

At the end: every phase closed exactly once (one close logged over both processes, by the owner of
its server; a contiguous chain; one results post per phase in each game channel), every outbox row
sent, every part posted exactly once (by nonce), each process posted only to its own servers
(alpha's direct messages included), beta's messages each sent at the first attempt (no claim of
its was taken back), and the fake saw no call it does not know and no error of its own.

Needs PostgreSQL (skipped with the command that installs it otherwise); about 25 s. Run it alone:

    .venv/bin/python -m pytest -q tests/e2e/test_bot_shards.py
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlmodel import col, select

from db.database import SessionFactory, make_engine, make_session_factory
from db.models import Game, OutboxEntry, PhaseRecord, PhaseStatus
from gm.clock import utcnow
from gm.delivery.shards import shard_of
from gm.messages.words import long_name
from harness.bot_helpers import make_table, running, started_game
from harness.fakediscord import FakeDiscord, fake_discord
from harness.processes import BotProcess, bot_process

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

SHARDS = 2
NAMES = {0: "alpha", 1: "beta"}
START_MARGIN = 10.0  # seconds from starting both processes to the deadline
STALL = 6.0  # seconds Discord takes over beta's first post in one game channel
TIMEOUT = 60.0


def bot_env(fake: FakeDiscord, url: str, shard: int) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "PROCESS_NAME": NAMES[shard],
        "CLOSE_WORKERS": "0",
        "FAKE_DISCORD_CLIENT": NAMES[shard],
    }


async def until(what: str, probe: Callable[[], Awaitable[bool]], timeout: float = TIMEOUT) -> None:
    """Poll the coroutine function ``probe`` until it returns True."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await probe():
        if loop.time() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.1)


class Database:
    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.sessions: SessionFactory = make_session_factory(self.engine)

    async def phases(self) -> list[PhaseRecord]:
        async with self.sessions.read() as s:
            found = list(
                (
                    await s.exec(
                        select(PhaseRecord).order_by(col(PhaseRecord.game_id), col(PhaseRecord.ordinal))
                    )
                ).all()
            )
            await s.commit()
        return found

    async def rows(self) -> list[OutboxEntry]:
        async with self.sessions.read() as s:
            found = list((await s.exec(select(OutboxEntry).order_by(col(OutboxEntry.id)))).all())
            await s.commit()
        return found

    async def games(self) -> dict[int, Game]:
        async with self.sessions.read() as s:
            found = {g.row_id: g for g in (await s.exec(select(Game))).all()}
            await s.commit()
        return found

    async def set_deadline(self, deadline: object) -> None:
        async with self.sessions() as s:
            await s.exec(
                update(PhaseRecord)
                .where(col(PhaseRecord.status) == PhaseStatus.OPEN)
                .values(deadline=deadline)
            )
            await s.commit()

    async def all_done(self) -> bool:
        phases = await self.phases()
        rows = await self.rows()
        first_closed = all(p.status == PhaseStatus.CLOSED for p in phases if p.ordinal == 0)
        return first_closed and all(r.sent_at is not None or r.failed_at is not None for r in rows)


def closes_logged(process: BotProcess) -> list[tuple[int, str]]:
    return [
        (int(m[1]), m[2])
        for line in process.lines
        if (m := re.search(r"phase closed: game (\d+) (\w+)", line))
    ]


async def test_two_processes_close_each_phase_once_and_post_each_message_once(
    tmp_path: Path,
    postgres_url: str,
) -> None:
    async with fake_discord(ack_deadline=None, reply_timeout=TIMEOUT) as fake:
        tables = [await make_table(fake, 3, name=f"Club {s}", shard=(s, SHARDS)) for s in range(SHARDS)]
        assert [shard_of(t.guild.id, SHARDS) for t in tables] == [0, 1]
        shard_of_game: dict[int, int] = {}
        async with running(fake, tmp_path, database_url=postgres_url) as bot:  # one process sets up
            for shard, table in enumerate(tables):
                for name in ("North", "South"):
                    game_id = await started_game(
                        fake, bot, table, f"{name} {shard}", players=3, press="public"
                    )
                    shard_of_game[game_id] = shard
        db = Database(postgres_url)
        try:
            games = await db.games()
            # One deadline for every game, a moment after both processes are up: set before they
            # start, as their jobs come from the database at start-up.
            deadline = utcnow() + timedelta(seconds=START_MARGIN)
            await db.set_deadline(deadline)
            beta_game = next(g for g, s in shard_of_game.items() if s == 1)
            stalled = games[beta_game].game_channel_id
            posted_before = len(fake.rest_log)
            cwd = tmp_path / "run"
            cwd.mkdir()
            async with (
                bot_process(cwd, fake_url=fake.base_url, **bot_env(fake, postgres_url, 0)) as alpha,
                bot_process(cwd, fake_url=fake.base_url, **bot_env(fake, postgres_url, 1)) as beta,
            ):
                fake.slow_down(f"POST /channels/{stalled}/messages", STALL, times=1)
                await asyncio.gather(alpha.line_with("ready: connected"), beta.line_with("ready: connected"))
                up = utcnow()
                assert "looking after the games of shards 0 of 2" in alpha.output
                assert "looking after the games of shards 1 of 2" in beta.output
                scheduled = [line for p in (alpha, beta) for line in p.lines if "start-up:" in line]
                print(f"both up {(deadline - up).total_seconds():.1f} s before the deadline: {scheduled}")
                await until("beta claims its messages", lambda: beta_claims(db))
                held = {
                    r.id: r.claim_token for r in await db.rows() if (r.claim_token or "").startswith("beta:")
                }
                # alpha dies and comes back while beta holds its claims: once alpha logged its own
                # closes (a kill between a close's commit and its line would leave it unlogged)
                await asyncio.gather(
                    *(
                        alpha.line_with(f"phase closed: game {g} S1901M")
                        for g, s in shard_of_game.items()
                        if s == 0
                    )
                )
                alpha.process.kill()
                await alpha.process.wait()
                async with bot_process(
                    cwd, fake_url=fake.base_url, **bot_env(fake, postgres_url, 0)
                ) as again:
                    await again.line_with("start-up:")
                    rows = {r.id: r for r in await db.rows()}
                    for row_id, token in held.items():
                        row = rows[row_id]
                        assert row.claim_token == token or row.sent_at is not None, (
                            f"outbox {row_id}: beta's claim {token} was taken: {row.claim_token}, "
                            f"attempts {row.attempts}"
                        )
                    await again.line_with("ready: connected")
                    await until("every first phase closed and every message sent", db.all_done)
                    await fake.flush()
                    await asyncio.sleep(0.5)  # anything late would show now
                    for process in (again, beta):
                        code, _ = await process.stopped_by(signal.SIGTERM)
                        assert code == 0, process.output[-3000:]
                    logs = {"alpha": alpha.lines + again.lines, "beta": beta.lines}
            await check(fake, db, shard_of_game, logs, posted_before)
        finally:
            await db.engine.dispose()
        assert fake.unknown_calls == [] and fake.internal_errors == []


async def beta_claims(db: Database) -> bool:
    return any((r.claim_token or "").startswith("beta:") for r in await db.rows())


async def check(
    fake: FakeDiscord,
    db: Database,
    shard_of_game: dict[int, int],
    logs: dict[str, list[str]],
    posted_before: int,
) -> None:
    phases = await db.phases()
    rows = await db.rows()
    games = await db.games()
    world = fake.world
    # every phase closed once, by the process owning its server
    closes: Counter[tuple[int, str]] = Counter()
    for name, lines in logs.items():
        for line in lines:
            if m := re.search(r"phase closed: game (\d+) (\w+)", line):
                closes[(int(m[1]), m[2])] += 1
                assert NAMES[shard_of_game[int(m[1])]] == name, f"{name} closed a phase of game {m[1]}"
    assert closes == Counter({(g, "S1901M"): 1 for g in shard_of_game}), closes
    by_game: dict[int, list[PhaseRecord]] = {}
    for phase in phases:
        by_game.setdefault(phase.game_id, []).append(phase)
    for game_id, chain in by_game.items():
        assert [(p.ordinal, p.name, p.status) for p in chain] == [
            (0, "S1901M", PhaseStatus.CLOSED),
            (1, "F1901M", PhaseStatus.OPEN),
        ]
        assert chain[0].close_reason == "deadline" and (chain[0].results or {}).get("next_phase") == "F1901M"
        channel_id = games[game_id].game_channel_id
        assert channel_id is not None
        titles = Counter(
            m.embeds[0].get("title", "")
            for m in world.channel_messages(channel_id)
            if m.author_id == world.bot.id and m.embeds
        )
        title = f"{games[game_id].name}: {long_name('S1901M')} results"
        assert titles[title] == 1, f"{title!r} posted {titles[title]} times"
    # every row sent, every part once
    assert [(r.id, r.kind) for r in rows if r.sent_at is None] == []
    counts = Counter(
        (m.channel_id, m.nonce) for m in world.messages.values() if m.author_id == world.bot.id and m.nonce
    )
    assert {k: n for k, n in counts.items() if n > 1} == {}
    for row in rows:
        parts = [m for m in world.messages.values() if (m.nonce or "").startswith(f"{row.nonce}.")]
        assert len(parts) == len(row.sent_messages or []), f"outbox {row.id} ({row.kind})"
        if row.game_id is not None and shard_of_game.get(row.game_id) == 1:
            assert row.attempts == 1, f"beta's outbox {row.id} was taken from it ({row.attempts} attempts)"
    # each process posted to its own servers only (alpha: shard 0 and the direct messages)
    posts = [
        c
        for c in fake.rest_log[posted_before:]
        if c.method == "POST" and c.route == "/channels/{channel_id}/messages"
    ]
    by_client: Counter[str | None] = Counter()
    for call in posts:
        channel = world.channels[int(call.path.split("/")[2])]
        expected = "alpha" if channel.guild_id is None else NAMES[shard_of(channel.guild_id, SHARDS)]
        assert call.client == expected, f"{call.client} posted in {channel.name} of server {channel.guild_id}"
        by_client[call.client] += 1
    assert by_client["alpha"] > 0 and by_client["beta"] > 0, by_client


async def test_one_process_runs_every_shard_discord_recommends(tmp_path: Path) -> None:
    """No SHARD_COUNT: Discord says how many shards (2 here), and the one process runs them all and
    answers on the servers of both."""
    async with fake_discord() as fake:
        fake.recommended_shards = SHARDS
        tables = [await make_table(fake, 3, name=f"Club {s}", shard=(s, SHARDS)) for s in range(SHARDS)]
        async with running(fake, tmp_path) as bot:
            assert bot.shard_count == SHARDS and bot.shard_ids_run == [0, 1]
            assert bot.runtime.ownership.owns_all
            assert sorted(s.shard[0] for s in fake.gateway.sessions.values()) == [0, 1]
            for table in tables:
                game_id = await started_game(fake, bot, table, "Here", players=3, press="public")
                async with bot.runtime.sessions.read() as s:
                    game = await s.get(Game, game_id)
                    await s.commit()
                assert game is not None and game.guild_id == table.guild.id
        assert fake.unknown_calls == [] and fake.internal_errors == []
