"""What operators rely on: after the database comes back, messages a failed delivery had claimed go
out at once (not after their lease), and a close that failed meanwhile is tried again at once (not at
its next step of the schedule); the figures of /admin status and the metrics."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseRecord, PhaseStatus
from gm.clock import utcnow
from gm.delivery.outbox import OutboxMessage
from gm.delivery.scheduler import OUTBOX_SOON_JOB, retry_job_id
from gm.facade import Gamemaster
from tests.gm.conftest import make_started_game
from tests.helpers.gm import start_now

pytestmark = pytest.mark.both_backends  # on PostgreSQL too: a database that goes away and comes back


class Outage:
    """The sessions of a database that can go away (a PostgreSQL restart) and come back."""

    def __init__(self, sessions: SessionFactory) -> None:
        self._sessions = sessions
        self.down = False

    def _check(self) -> None:
        if self.down:
            raise OperationalError("BEGIN", {}, ConnectionRefusedError("the database restarts"))

    def __call__(self) -> Any:
        self._check()
        return self._sessions()

    def read(self) -> Any:
        self._check()
        return self._sessions.read()


class Sender:
    """Discord takes every message; the first one as the database goes away."""

    def __init__(self, outage: Outage) -> None:
        self.outage = outage
        self.sent: list[int] = []

    async def send(self, message: OutboxMessage) -> None:
        self.sent.append(message.id)
        if len(self.sent) == 1:
            self.outage.down = True


async def test_after_the_database_comes_back_claimed_messages_go_out_at_once(
    sessions: SessionFactory,
) -> None:
    await make_started_game(sessions)
    async with sessions.read() as s:
        queued = len((await s.exec(select(OutboxEntry.id))).all())
    assert queued > 1
    outage = Outage(sessions)
    sender = Sender(outage)
    gm = Gamemaster(outage, sender, workers=0)  # type: ignore[arg-type]  # a stand-in for the sessions
    gm.runtime.scheduler.start()
    try:
        try:
            await gm.runtime.deliver()
        except OperationalError:
            pass
        else:
            raise AssertionError("the delivery should have failed with the database")
        run_at = gm.runtime.scheduler.run_time(OUTBOX_SOON_JOB)
        assert run_at is not None, "another delivery is due within seconds"
        async with sessions.read() as s:
            held = set(
                (await s.exec(select(OutboxEntry.id).where(col(OutboxEntry.claim_token).is_not(None)))).all()
            )
        assert held, "the failed delivery left its claims (leased for 2 minutes)"
        outage.down = False  # the database is back, long before the lease ends
        await gm.runtime.deliver()
        async with sessions.read() as s:
            unsent = set(
                (await s.exec(select(OutboxEntry.id).where(col(OutboxEntry.sent_at).is_(None)))).all()
            )
            claimed = (
                await s.exec(select(OutboxEntry.id).where(col(OutboxEntry.claim_token).is_not(None)))
            ).all()
        assert claimed == [] and not held & unsent, "every message it held went out at the next delivery"
    finally:
        await gm.runtime.scheduler.shutdown()  # the jobs under way finish first, as in a stop


async def test_a_close_that_failed_in_an_outage_is_retried_once_the_database_answers(
    sessions: SessionFactory,
) -> None:
    started = await start_now(sessions, utcnow())
    outage = Outage(sessions)
    gm = Gamemaster(outage, None, workers=0, render_maps=False)  # type: ignore[arg-type]  # a stand-in
    scheduler = gm.runtime.scheduler
    scheduler.start()
    try:
        outage.down = True
        assert await gm.runtime.request_close(started.phase.id, reason="moderator") is None
        job = retry_job_id(started.phase.id)
        later = scheduler.run_time(job)
        assert later is not None and (later - utcnow()).total_seconds() > 2, "on the schedule: 5 s"
        assert not await scheduler.probe_database(), "the database is away"
        assert scheduler.run_time(job) == later, "nothing to retry while it is away"
        outage.down = False
        assert await scheduler.probe_database()
        now = scheduler.run_time(job)  # brought forward to now: it may have run (and gone) already
        assert now is None or now < later, "retried at once now that it answers"
        for _ in range(100):  # the retry closes the phase within moments, not at its 5-s step
            async with sessions.read() as s:
                phase = await s.get(PhaseRecord, started.phase.id)
                assert phase is not None
                if phase.status == PhaseStatus.CLOSED:
                    break
            await asyncio.sleep(0.05)
        assert phase is not None and phase.status == PhaseStatus.CLOSED, "the retry closed the phase"
        # A failure that is not the database's keeps its schedule: the probe finds it answering.
        scheduler.retry_later(started.phase.id)
        again = scheduler.run_time(job)
        assert await scheduler.probe_database()
        assert scheduler.run_time(job) == again
    finally:
        await scheduler.shutdown()  # the retry under way finishes first, as in a stop


async def test_the_operations_status_counts_games_messages_and_the_last_close(
    sessions: SessionFactory,
) -> None:
    await make_started_game(sessions)
    gm = Gamemaster(sessions, None, workers=0)
    status = await gm.operations_status()
    assert status.games["active"] == 1 and status.games["forming"] == 0 and status.games["finished"] == 0
    assert status.outbox_waiting > 0 and status.outbox_oldest is not None
    assert status.last_close is None and status.phases_closed == 0
    backlog = await gm.outbox_backlog()  # what /healthz reads every time: the same figures
    assert (backlog.outbox_waiting, backlog.outbox_oldest) == (status.outbox_waiting, status.outbox_oldest)
