"""Several bot processes on one database, each owning a set of shards (gm.delivery.shards): each
claims the messages of its own servers' games (and shard 0's process the direct messages about no
game), schedules and sweeps only its own games, takes back only its own predecessor's claims, and
takes up the phases a sibling opened for one of its games."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from datetime import datetime, timedelta

import pytest
from sqlalchemy import update
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from db.models import Game, OutboxEntry, PhaseRecord
from gm.clock import utcnow
from gm.delivery import outbox
from gm.delivery.outbox import Target, claim_prefix, deliver_pending, release_stale_claims
from gm.delivery.scheduler import GameScheduler, deadline_job_id
from gm.delivery.shards import EVERYTHING, Ownership, shard_of
from gm.facade import Gamemaster
from gm.ordering import reminders
from gm.setup import games
from tests.gm.conftest import CREATOR, T0, make_game
from tests.helpers.gm import RecordingSender, queue

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: the shard filter's arithmetic in SQL, claims
]

SHARD0, SHARD1 = Ownership(2, frozenset({0})), Ownership(2, frozenset({1}))
# Real-looking server ids (snowflakes above 2**53, so a float anywhere would break them)
GUILD_A = (1_234_567_890_122 << 22) | 4242  # shard 0 of 2
GUILD_B = (1_234_567_890_123 << 22) | 777  # shard 1 of 2


def test_a_server_s_shard_is_its_timestamp_modulo_the_count() -> None:
    assert shard_of(GUILD_A, 2) == 0 and shard_of(GUILD_B, 2) == 1
    assert shard_of(GUILD_B, 1) == 0 and shard_of(GUILD_B, 3) == 1_234_567_890_123 % 3
    assert SHARD0.owns_guild(GUILD_A) and not SHARD0.owns_guild(GUILD_B)
    assert SHARD1.owns_guild(GUILD_B) and not SHARD1.owns_guild(GUILD_A)
    assert SHARD0.owns_direct_messages and not SHARD1.owns_direct_messages
    assert EVERYTHING.owns_all and EVERYTHING.owns_guild(GUILD_B) and EVERYTHING.owns_direct_messages
    assert Ownership(2, frozenset({0, 1})).owns_all, "one process running every shard is alone"


def test_a_process_gets_a_stable_name_from_its_shards() -> None:
    assert EVERYTHING.default_name() == "main"
    assert Ownership(2, frozenset({0, 1})).default_name() == "main"
    assert SHARD1.default_name() == "shard-1"
    assert Ownership(8, frozenset({4, 5, 6, 7})).default_name() == "shards-4-7"
    assert Ownership(8, frozenset({1, 5})).default_name() == "shards-1.5"
    many = Ownership(100, frozenset(range(0, 100, 3)))
    assert many.default_name() == Ownership(100, frozenset(range(0, 100, 3))).default_name()
    assert len(many.default_name()) <= 20


@pytest.mark.parametrize(
    ("count", "ids", "error"),
    [
        (2, {2}, "shard ids [2] are outside 0..1"),
        (0, None, "a shard count is 1 or more"),
        (2, set(), "at least one shard"),
    ],
)
def test_impossible_shards_are_refused(count: int, ids: set[int] | None, error: str) -> None:
    with pytest.raises(ValueError, match=error.replace("[", r"\[").replace("]", r"\]")):
        Ownership(count, None if ids is None else frozenset(ids))
    with pytest.raises(ValueError, match="SHARD_IDS needs SHARD_COUNT"):
        Ownership.of(None, [0])


async def on_guild(sessions: SessionFactory, guild_id: int, name: str) -> int:
    game = await make_game(sessions, name=name)
    async with sessions() as s:
        await s.exec(update(Game).where(col(Game.id) == game.id).values(guild_id=guild_id))
        await s.commit()
    return game.id


async def started_on(sessions: SessionFactory, guild_id: int, name: str, now: datetime) -> games.StartResult:
    game_id = await on_guild(sessions, guild_id, name)
    async with sessions.begin() as s:
        return await games.start_game(s, game_id, CREATOR, now=now, rng=random.Random(1))


async def test_the_shard_filter_in_sql_agrees_with_shard_of(sessions: SessionFactory) -> None:
    """The shift and modulo run in the database (SQLite and PostgreSQL), on ids above 2**53."""
    rng = random.Random(5)
    ids = [(rng.randrange(1 << 40) << 22) | rng.randrange(1 << 22) for _ in range(12)]
    for number, guild_id in enumerate(ids):
        await on_guild(sessions, guild_id, f"G{number}")
    for ownership in (SHARD0, SHARD1, Ownership(3, frozenset({1, 2})), EVERYTHING):
        async with sessions.read() as s:
            found = set(
                (await s.exec(select(Game.guild_id).where(ownership.guild_clause(col(Game.guild_id))))).all()
            )
            await s.commit()
        assert found == {g for g in ids if ownership.owns_guild(g)}, ownership


async def test_each_process_claims_the_messages_of_its_own_servers_games(sessions: SessionFactory) -> None:
    game_a = await on_guild(sessions, GUILD_A, "A")
    game_b = await on_guild(sessions, GUILD_B, "B")
    await queue(sessions, game_a, Target.user(70), 2, "a")
    await queue(sessions, game_b, Target.user(71), 2, "b")
    await queue(sessions, None, Target.user(72), 1, "dm")  # about no game: shard 0's
    later = lambda: T0 + timedelta(days=1)  # noqa: E731
    second = RecordingSender()
    report = await deliver_pending(sessions, second, clock=later, ownership=SHARD1, process="shard-1")
    assert [m.payload["title"] for m in second.sent] == ["B is full", "b0", "b1"]
    assert report.pending == 0, "only its own messages count as waiting"
    first = RecordingSender()
    await deliver_pending(sessions, first, clock=later, ownership=SHARD0, process="shard-0")
    assert sorted(m.payload["title"] for m in first.sent) == ["A is full", "a0", "a1", "dm0"]
    async with sessions.read() as s:
        unsent = (await s.exec(select(func.count()).where(col(OutboxEntry.sent_at).is_(None)))).one()
        await s.commit()
    assert unsent == 0


async def claim_all(sessions: SessionFactory, tokens: list[str]) -> None:
    async with sessions() as s:
        rows = (
            await s.exec(
                select(OutboxEntry).where(col(OutboxEntry.kind) != "game_full").order_by(col(OutboxEntry.id))
            )
        ).all()
        assert len(rows) == len(tokens)
        for row, token in zip(rows, tokens, strict=True):
            row.claim_token, row.claimed_until = token, utcnow() + timedelta(minutes=2)
        await s.commit()


async def claims(sessions: SessionFactory) -> list[str | None]:
    async with sessions.read() as s:
        query = select(OutboxEntry.claim_token).where(col(OutboxEntry.kind) != "game_full")
        found = list((await s.exec(query.order_by(col(OutboxEntry.id)))).all())
        await s.commit()
    return found


async def test_a_restarted_process_takes_back_only_its_own_predecessor_s_claims(
    sessions: SessionFactory,
) -> None:
    await queue(sessions, None, Target.user(77), 5, "claimed")
    ours_now = claim_prefix("shards-0") + "aaaa"
    tokens = [
        "shards-0:dead0000:bbbb",  # our predecessor (the same name, another run): dead
        "shards-0-1:cafe0000:cccc",  # a live sibling whose name starts like ours
        "shard-1:cafe0000:dddd",  # a live sibling
        ours_now,  # this very run
        "0ld00000-eeee",  # a single process of an older version
    ]
    await claim_all(sessions, tokens)
    assert await release_stale_claims(sessions, "shards-0") == 1
    assert await claims(sessions) == [None, *tokens[1:]]
    alone = claim_prefix() + "ffff"  # a process owning every shard
    await claim_all(sessions, [*tokens[:3], alone, tokens[4]])
    assert await release_stale_claims(sessions) == 4, "alone, a process takes back every other claim"
    assert await claims(sessions) == [None, None, None, alone, None]


async def test_a_process_among_several_starts_without_stealing_a_sibling_s_claims(
    sessions: SessionFactory,
) -> None:
    game_b = await on_guild(sessions, GUILD_B, "B")
    await queue(sessions, game_b, Target.user(71), 1, "sibling's")
    await queue(sessions, game_b, Target.user(72), 1, "predecessor's")
    await claim_all(sessions, ["shard-0:cafe0000:aaaa", "shard-1:dead0000:bbbb"])
    sender = RecordingSender()
    gm = Gamemaster(sessions, sender, workers=0, render_maps=False, ownership=SHARD1)
    assert gm.runtime.process_name == "shard-1"
    await gm.runtime.start()
    try:
        assert [m.payload["title"] for m in sender.sent] == ["B is full", "predecessor's0"]
        assert (await claims(sessions))[0] == "shard-0:cafe0000:aaaa", "the sibling's lease stands"
        assert gm.runtime.scheduler.run_time("outbox") is not None
    finally:
        await gm.runtime.shutdown()


class Recorder:
    def __init__(self) -> None:
        self.closed: list[int] = []

    async def __call__(self, phase_id: int) -> None:
        self.closed.append(phase_id)


async def test_rebuild_and_sweep_look_only_at_the_process_s_own_games(sessions: SessionFactory) -> None:
    now = utcnow()
    game_a = await started_on(sessions, GUILD_A, "A", now - timedelta(days=2))
    game_b = await started_on(sessions, GUILD_B, "B", now - timedelta(days=2))
    later_a = await started_on(sessions, GUILD_A, "A2", now)
    later_b = await started_on(sessions, GUILD_B, "B2", now)
    recorder = Recorder()
    scheduler = GameScheduler(sessions, recorder, ownership=SHARD1)
    scheduler.start()
    try:
        report = await scheduler.rebuild_from_db()
        assert report.overdue == [game_b.phase.id] and report.scheduled == [later_b.phase.id]
        assert deadline_job_id(later_a.game.id, "S1901M") not in scheduler.job_ids()
        await scheduler.idle(timeout=10)
        assert recorder.closed == [game_b.phase.id]
        recorder.closed.clear()
        assert await scheduler.sweep() == [game_b.phase.id], (
            "overdue and still open (the recorder closes nothing)"
        )
        assert game_a.phase.id not in recorder.closed
    finally:
        await scheduler.shutdown()


SOON = timedelta(seconds=4)
"""A deadline the scheduler must not have reached before the test has looked at its job, even while
the machine is busy (starting a gamemaster on PostgreSQL took longer than 1.5 s under load 7)."""


async def test_the_owner_closes_in_time_a_phase_whose_deadline_job_lived_in_another_process(
    sessions: SessionFactory,
) -> None:
    """The sibling owning the direct messages opened the phase (a player's DM closed the one before)
    and died with its jobs: the owner's sweep takes the phase up and its deadline job closes it at the
    deadline, not a sweep interval and a grace period later."""
    owner = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, ownership=SHARD1)
    await owner.runtime.start()
    try:
        started = await started_on(sessions, GUILD_B, "B", utcnow())  # in the other process
        other = await started_on(sessions, GUILD_A, "A", utcnow())
        deadline = utcnow() + SOON
        async with sessions() as s:
            await s.exec(
                update(PhaseRecord)
                .where(col(PhaseRecord.id).in_([started.phase.id, other.phase.id]))
                .values(deadline=deadline)
            )
            await s.commit()
        assert deadline_job_id(started.game.id, "S1901M") not in owner.runtime.scheduler.job_ids()
        assert await owner.runtime.scheduler.sweep() == [], "nothing overdue yet"
        assert owner.runtime.scheduler.run_time(deadline_job_id(started.game.id, "S1901M")) == deadline
        assert deadline_job_id(other.game.id, "S1901M") not in owner.runtime.scheduler.job_ids(), (
            "not its game"
        )
        assert await owner.runtime.scheduler.adopt() == [], "taken up once"
        await asyncio.sleep(max(0.0, (deadline - utcnow()).total_seconds()) + 0.3)
        await owner.runtime.scheduler.idle(timeout=30)
        await owner.runtime.idle()
        async with sessions.read() as s:
            phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.id)))).all()
            await s.commit()
        status = {(p.game_id, p.name): (p.status, p.close_reason) for p in phases}
        assert status[(started.game.id, "S1901M")] == ("closed", "deadline")
        # closed by its deadline job, at its deadline: the sweep (every 60 s) has not run yet, and a
        # deadline close never comes before the deadline
        assert closed_at(phases, started.game.id) >= deadline
        assert status[(started.game.id, "F1901M")][0] == "open"
        assert status[(other.game.id, "S1901M")] == ("open", None), "the sibling's game is the sibling's"
    finally:
        await owner.runtime.shutdown()


def closed_at(phases: Sequence[PhaseRecord], game_id: int) -> datetime:
    closed = next(p.closed_at for p in phases if p.game_id == game_id and p.name == "S1901M")
    assert closed is not None
    return closed


async def test_the_same_reminders_queued_by_two_processes_go_out_once(
    sessions: SessionFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Both processes had the phase's reminder job. Queued one after the other, the second finds the
    keys; queued at once (neither sees the other's rows), the outbox's unique key refuses the second,
    and its job ends quietly instead of failing."""
    started = await started_on(sessions, GUILD_B, "B", utcnow())
    scheduler = GameScheduler(sessions, Recorder(), on_remind=reminders.queue_reminders, ownership=SHARD1)
    await scheduler._reminder_job(started.phase.id, 24)
    count = await reminder_rows(sessions)
    assert count == 7
    async with sessions.begin() as s:  # one after the other: the keys are found
        assert await reminders.queue_reminders(s, started.phase.id, 24, now=utcnow()) == []
    real = reminders.existing_keys

    async def blind(session: AsyncSession, keys: Sequence[str]) -> set[str]:
        await real(session, keys)
        return set()  # at once: the other's rows are not committed yet

    monkeypatch.setattr(reminders, "existing_keys", blind)
    with caplog.at_level(logging.INFO, logger="gm.delivery.scheduler"):
        await scheduler._reminder_job(started.phase.id, 24)
    assert await reminder_rows(sessions) == count
    assert "queued by another process" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def reminder_rows(sessions: SessionFactory) -> int:
    async with sessions.read() as s:
        n = (await s.exec(select(func.count()).where(OutboxEntry.kind == "reminder"))).one()
        await s.commit()
    return int(n)


def test_claim_tokens_fit_their_column() -> None:
    assert len(claim_prefix("a" * 20) + "0123456789") <= 40
    assert outbox.INSTANCE in claim_prefix("shard-1")


async def test_a_deadline_job_does_not_close_a_phase_another_process_extended_or_paused(
    sessions: SessionFactory,
) -> None:
    """The owner scheduled the deadline; a moderator's extend (or pause) handled by another process
    moved it (or removed it) there. The owner's stale job fires at the old time and closes nothing;
    its sweep takes the new deadline up."""
    gm = Gamemaster(sessions, RecordingSender(), workers=0, render_maps=False, ownership=SHARD1)
    extended = await started_on(sessions, GUILD_B, "Extended", utcnow())
    paused = await started_on(sessions, GUILD_B, "Paused", utcnow())
    kept = await started_on(sessions, GUILD_B, "Kept", utcnow())
    await gm.runtime.start()
    try:
        # The deadlines come SOON after the start, however long the start took on a busy machine: the
        # owner's sweep schedules them as it would a phase another process opened.
        deadline = utcnow() + SOON
        for started in (extended, paused, kept):
            await set_deadline(sessions, started.phase.id, deadline)
        assert sorted(await gm.runtime.scheduler.adopt()) == sorted(
            s.phase.id for s in (extended, paused, kept)
        )
        assert gm.runtime.scheduler.run_time(deadline_job_id(extended.game.id, "S1901M")) == deadline
        later = utcnow() + timedelta(hours=2)
        await set_deadline(sessions, extended.phase.id, later)  # in the other process
        await set_deadline(sessions, paused.phase.id, None)
        await asyncio.sleep(max(0.0, (deadline - utcnow()).total_seconds()) + 0.3)
        await gm.runtime.scheduler.idle(timeout=30)
        await gm.runtime.idle()
        status = {p.game_id: p.status for p in await first_phases(sessions)}
        assert status == {extended.game.id: "open", paused.game.id: "open", kept.game.id: "closed"}
        assert await gm.runtime.scheduler.adopt() == [extended.phase.id]
        assert gm.runtime.scheduler.run_time(deadline_job_id(extended.game.id, "S1901M")) == later
    finally:
        await gm.runtime.shutdown()


async def set_deadline(sessions: SessionFactory, phase_id: int | None, deadline: datetime | None) -> None:
    async with sessions() as s:
        await s.exec(update(PhaseRecord).where(col(PhaseRecord.id) == phase_id).values(deadline=deadline))
        await s.commit()


async def first_phases(sessions: SessionFactory) -> list[PhaseRecord]:
    async with sessions.read() as s:
        found = list((await s.exec(select(PhaseRecord).where(PhaseRecord.ordinal == 0))).all())
        await s.commit()
    return found
