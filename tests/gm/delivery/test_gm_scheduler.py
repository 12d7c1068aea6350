"""Deadline and reminder jobs (real APScheduler, real time, deadlines a moment away), and reminders."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import OutboxEntry, PhaseRecord
from gm.clock import utcnow
from gm.delivery.outbox import Target
from gm.delivery.scheduler import GameScheduler
from gm.facade import Gamemaster
from gm.ordering import submission as orders
from gm.ordering.reminders import queue_reminders
from gm.phases.closer import CloseHooks, PhaseCloser
from gm.phases.contract import CloseAnswer, CloseRequest
from gm.phases.worker import close_work
from gm.settings import GameSettings
from tests.gm.conftest import T0, current_phase, make_started_game, player_of, submit
from tests.helpers.deadlines import set_deadline
from tests.helpers.gm import RecordingSender, gamemaster, queue, start_now

pytestmark = [
    pytest.mark.waits,  # processes or real time: spread through the run (tests/conftest.py)
    pytest.mark.both_backends,  # on PostgreSQL too: deadline queries on dates
]


async def test_jobs_are_rebuilt_with_stable_ids_and_never_skipped(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow(), GameSettings(movement_minutes=2 * 24 * 60))
    gm = gamemaster(sessions)
    report = await gm.runtime.start()
    try:
        game = started.game.id
        assert report.scheduled == [started.phase.id] and report.reminders == 2
        assert gm.runtime.scheduler.job_ids() == [
            f"deadline:{game}:S1901M",
            "outbox",
            f"reminder:{game}:S1901M:1",
            f"reminder:{game}:S1901M:24",
            "sandbox_sweep",  # the sandboxes unused for 30 days (gm.sandbox.making.sweep)
            "sweep",
        ]
        assert gm.runtime.scheduler.run_time(f"deadline:{game}:S1901M") == started.phase.deadline
        job = gm.runtime.scheduler._scheduler.get_job(f"deadline:{game}:S1901M")
        assert job.misfire_grace_time is None and job.coalesce is True
        await gm.runtime.scheduler.rebuild_from_db()  # again: replaced, not doubled
        assert len(gm.runtime.scheduler.job_ids()) == 6
    finally:
        await gm.runtime.shutdown()


async def test_the_deadline_job_closes_the_phase_and_schedules_the_next(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    await set_deadline(sessions, started.phase.id, utcnow() + timedelta(seconds=0.3))
    await submit(sessions, started, "FRANCE", "A Par-Bur")
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        await asyncio.sleep(0.5)
        await gm.runtime.scheduler.idle(timeout=30)
        async with sessions() as s:
            phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.ordinal)))).all()
        assert [(p.name, p.status, p.close_reason) for p in phases] == [
            ("S1901M", "closed", "deadline"),
            ("F1901M", "open", None),
        ]
        assert f"deadline:{started.game.id}:F1901M" in gm.runtime.scheduler.job_ids()
        assert f"deadline:{started.game.id}:S1901M" not in gm.runtime.scheduler.job_ids()
        assert isinstance(gm.runtime.sender, RecordingSender)
        sent = gm.runtime.sender.sent
        assert [m.kind for m in sent if m.kind not in ("welcome", "game_full")] == []  # no channel: they wait
    finally:
        await gm.runtime.shutdown()


async def test_a_double_fire_and_an_early_close_together_close_once(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        deadline = utcnow() + timedelta(seconds=0.2)
        for _ in range(2):  # scheduled twice: the id is stable, so one job
            gm.runtime.scheduler.schedule_phase(started.game.id, started.phase.id, "S1901M", deadline, ())
        await asyncio.sleep(0.2)
        outcomes = await asyncio.gather(
            gm.runtime.close_phase(started.phase.id, reason="all_ready"),
            gm.runtime.close_phase(started.phase.id),
        )
        await gm.runtime.scheduler.idle(timeout=30)
        assert sum(o.closed for o in outcomes) <= 1
        async with sessions() as s:
            phases = (await s.exec(select(PhaseRecord))).all()
            results = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "phase_results"))).all()
        assert len(phases) == 2 and len(results) == 1
    finally:
        await gm.runtime.shutdown()


async def test_everybody_ready_closes_the_phase_through_the_gamemaster(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        outcome = None
        for power in sorted(started.assignments):
            async with sessions.begin() as s:
                view = await orders.set_ready(s, started.game.id, player_of(started, power))
            outcome = await gm.runtime.orders_changed(view)
        assert outcome is not None and outcome.closed and outcome.next_phase is not None
        async with sessions() as s:
            first = await s.get(PhaseRecord, started.phase.id)
        assert first is not None and first.close_reason == "all_ready"
        assert f"deadline:{started.game.id}:F1901M" in gm.runtime.scheduler.job_ids()
    finally:
        await gm.runtime.shutdown()


async def test_a_reminder_job_messages_the_players_still_missing_orders(sessions: SessionFactory) -> None:
    settings = GameSettings(reminder_hours=(1.0,))
    started = await start_now(sessions, utcnow() - timedelta(hours=2), settings)  # opened 2 hours ago
    await set_deadline(sessions, started.phase.id, utcnow() + timedelta(hours=1, seconds=0.3))
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        async with sessions.begin() as s:
            await orders.set_ready(s, started.game.id, player_of(started, power))
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        await asyncio.sleep(0.5)
        await gm.runtime.scheduler.idle(timeout=30)
        assert isinstance(gm.runtime.sender, RecordingSender)
        reminders = [m for m in gm.runtime.sender.sent if m.kind == "reminder"]
        assert [m.user_id for m in reminders] == [player_of(started, "TURKEY")]
        assert reminders[0].payload["missing"] == {"TURKEY": ["F ANK", "A CON", "A SMY"]}
    finally:
        await gm.runtime.shutdown()


async def test_reminders_skip_players_with_complete_orders_and_never_repeat(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions)
    await submit(sessions, started, "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid")  # complete
    await submit(sessions, started, "GERMANY", "A Mun-Ruh")  # partial
    async with sessions.begin() as s:
        await orders.set_ready(s, started.game.id, player_of(started, "ENGLAND"), now=T0)  # ready, no orders
    async with sessions.begin() as s:
        reminded = await queue_reminders(s, started.phase.id, 24, now=T0)
    expected = {player_of(started, p) for p in ("AUSTRIA", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    assert set(reminded) == expected
    async with sessions.begin() as s:
        assert await queue_reminders(s, started.phase.id, 24, now=T0) == []
        germany = (
            await s.exec(
                select(OutboxEntry).where(
                    OutboxEntry.target_user_id == player_of(started, "GERMANY"),
                    OutboxEntry.kind == "reminder",
                )
            )
        ).one()
    assert germany.payload["missing"] == {"GERMANY": ["F KIE", "A BER"]}
    assert "Germany has no orders for F KIE, A BER." in germany.payload["lines"]


async def test_a_reminder_due_while_the_bot_was_away_goes_out_once_at_start_up(
    sessions: SessionFactory,
) -> None:
    started_at = utcnow() - timedelta(hours=3)
    started = await start_now(sessions, started_at, GameSettings(reminder_hours=(24.0, 2.0, 1.0)))
    # The 2-hour reminder fell due an hour ago while the bot was offline; the 24-hour one fell due
    # before the phase even opened; the 1-hour one is still ahead.
    await set_deadline(sessions, started.phase.id, utcnow() + timedelta(hours=1, minutes=30))
    for _ in range(2):  # a second restart must not repeat it
        gm = gamemaster(sessions)
        await gm.runtime.start()
        try:
            await asyncio.sleep(0.2)
            await gm.runtime.scheduler.idle(timeout=30)
            assert f"reminder:{started.game.id}:S1901M:1" in gm.runtime.scheduler.job_ids()
        finally:
            await gm.runtime.shutdown()
    async with sessions() as s:
        queued = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "reminder"))).all()
    assert len(queued) == 7  # one per player, once, for the 2-hour mark
    assert {entry.payload["hours_before"] for entry in queued} == {2.0}


class FailingOnce:
    """The real adjudication, raising the first time (a bug, a worker that fell over)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, request: CloseRequest) -> CloseAnswer:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the adjudication fell over")
        return close_work(request)


RETRY = 60.0
"""The retry delay of the tests below: the retry never fires on its own while the test looks at the
state between the failed close and it (a busy machine stalled a test past a 2-s retry); the test then
makes it due (:func:`due_now`)."""


async def due_now(gm: Gamemaster, job_id: str) -> None:
    """The scheduler's job ``job_id`` (a retry) falls due now, and has run."""
    gm.runtime.scheduler._scheduler.modify_job(job_id, next_run_time=utcnow())
    await gm.runtime.scheduler.idle(timeout=30)


async def test_a_failed_close_is_tried_again_later_instead_of_dropping_the_deadline(
    sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    started = await start_now(sessions, utcnow())
    await set_deadline(sessions, started.phase.id, utcnow() + timedelta(seconds=0.2))
    work = FailingOnce()
    closer = PhaseCloser(sessions, work=work, render_maps=False)
    gm = Gamemaster(sessions, RecordingSender(), closer=closer)
    gm.runtime.scheduler.retry_delays = (RETRY, 60.0)
    failed: list[int] = []
    gm.runtime.scheduler.on_close_failed = lambda: failed.append(1)  # the metrics' counter (ops.metrics)
    await gm.runtime.start()
    try:
        await asyncio.sleep(0.4)
        await gm.runtime.scheduler.idle(timeout=30)
        job = f"deadline:{started.game.id}:S1901M"
        assert work.calls == 1 and failed == [1], "the failed close is counted"
        assert (await current_phase(sessions, started.game.id)).status == "open"  # reopened, not lost
        retry_at = gm.runtime.scheduler.run_time(job)
        assert retry_at is not None and retry_at > utcnow()  # still scheduled: a retry
        assert "stays unclosed until the retry in 1 min" in caplog.text
        await due_now(gm, job)
        async with sessions() as s:
            phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.ordinal)))).all()
        assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
        assert work.calls == 2 and failed == [1], "the retry that succeeded is not counted"
        assert job not in gm.runtime.scheduler.job_ids()
        assert f"deadline:{started.game.id}:F1901M" in gm.runtime.scheduler.job_ids()
    finally:
        await gm.runtime.shutdown()


async def test_a_close_that_failed_while_writing_is_finished_by_the_retry(sessions: SessionFactory) -> None:
    started = await start_now(sessions, utcnow())
    await set_deadline(sessions, started.phase.id, utcnow() + timedelta(seconds=0.2))
    failures = [RuntimeError("the database went away")]

    async def before_commit(_phase_id: int) -> None:
        if failures:
            raise failures.pop()

    closer = PhaseCloser(sessions, render_maps=False, hooks=CloseHooks(before_commit=before_commit))
    gm = Gamemaster(sessions, RecordingSender(), closer=closer)
    gm.runtime.scheduler.retry_delays = (RETRY,)
    await gm.runtime.start()
    try:
        await asyncio.sleep(0.4)
        await gm.runtime.scheduler.idle(timeout=30)
        assert (await current_phase(sessions, started.game.id)).status == "adjudicating"
        job = f"deadline:{started.game.id}:S1901M"
        retry_at = gm.runtime.scheduler.run_time(job)
        assert retry_at is not None and retry_at > utcnow()  # a retry, not run yet
        await due_now(gm, job)
        async with sessions() as s:
            phases = (await s.exec(select(PhaseRecord).order_by(col(PhaseRecord.ordinal)))).all()
            results = (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "phase_results"))).all()
        assert [(p.name, p.status) for p in phases] == [("S1901M", "closed"), ("F1901M", "open")]
        assert len(results) == 1
    finally:
        await gm.runtime.shutdown()


async def test_a_reminder_as_long_as_the_phase_is_never_sent_not_even_after_a_restart(
    sessions: SessionFactory,
) -> None:
    """The defaults: 24-hour movement phases and a 24-hour reminder, which falls due as the phase
    opens. A restart must not take it for a reminder missed while the bot was away."""
    started = await start_now(sessions, utcnow() - timedelta(hours=2))  # deadline in 22 hours
    for _ in range(2):
        gm = gamemaster(sessions)
        report = await gm.runtime.start()
        try:
            await asyncio.sleep(0.2)
            await gm.runtime.scheduler.idle(timeout=30)
            assert report.reminders == 1
            assert f"reminder:{started.game.id}:S1901M:1" in gm.runtime.scheduler.job_ids()
            assert f"reminder:{started.game.id}:S1901M:24" not in gm.runtime.scheduler.job_ids()
        finally:
            await gm.runtime.shutdown()
    async with sessions() as s:
        assert (await s.exec(select(OutboxEntry).where(OutboxEntry.kind == "reminder"))).all() == []


async def test_reminders_due_within_a_minute_of_the_opening_are_not_scheduled(
    sessions: SessionFactory,
) -> None:
    started = await start_now(sessions, utcnow())
    gm = gamemaster(sessions)
    gm.runtime.scheduler.start()
    try:
        now = utcnow()
        count = gm.runtime.scheduler.schedule_phase(
            started.game.id, started.phase.id, "S1901M", now + timedelta(hours=24), (24, 23.995, 1), now
        )
        assert count == 1
        assert [j for j in gm.runtime.scheduler.job_ids() if j.startswith("reminder:")] == [
            f"reminder:{started.game.id}:S1901M:1"
        ]
    finally:
        await gm.runtime.shutdown()


def test_reminders_are_scaled_to_the_phase_length() -> None:
    from gm.settings import effective_reminders

    assert effective_reminders((24.0, 1.0), 24 * 60) == (1.0,), "a day's phase: the 24 h one could never come"
    assert effective_reminders((24.0, 1.0), 48 * 60) == (24.0, 1.0)
    assert effective_reminders((24.0, 1.0), 30) == (0.1,), "half an hour: one reminder 6 minutes before"
    assert effective_reminders((24.0, 1.0), 10) == (0.05,), "ten minutes: the shortest reminder, 3 minutes"
    assert effective_reminders((), 10) == (), "no reminders asked, none given"
    assert effective_reminders((0.99,), 60) == (0.2,), "59 minutes of an hour: due as it opens, not sent"
    assert effective_reminders((1.0,), 61) == (0.2033,), "an hour before a 61-minute phase: the same"
    assert effective_reminders((1.0,), 62) == (1.0,), "two minutes after the opening: sent"


async def test_a_ten_minute_phase_gets_a_reminder_that_can_fire(sessions: SessionFactory) -> None:
    now = utcnow()
    started = await start_now(sessions, now, GameSettings(movement_minutes=10))
    gm = gamemaster(sessions)
    await gm.runtime.start()
    try:
        game = started.game.id
        job = f"reminder:{game}:S1901M:0.05"
        assert job in gm.runtime.scheduler.job_ids()
        assert started.phase.deadline is not None
        assert gm.runtime.scheduler.run_time(job) == started.phase.deadline - timedelta(minutes=3)
    finally:
        await gm.runtime.shutdown()


async def test_a_skipped_run_of_the_outbox_job_is_logged_with_the_backlog(
    sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A delivery that outlasts the job's interval (a long rate limit) makes APScheduler skip the next
    runs; our own log says so, with how many messages wait."""
    caplog.set_level(logging.INFO, logger="gm.delivery.scheduler")
    await queue(sessions, None, Target.user(77), 3, "waiting")
    stuck = asyncio.Event()
    runs = 0

    async def slow_delivery() -> None:
        nonlocal runs
        runs += 1
        await stuck.wait()

    async def no_close(_phase_id: int) -> None:
        return None

    scheduler = GameScheduler(sessions, no_close, on_outbox=slow_delivery)
    scheduler.start()
    scheduler.schedule_outbox_retries(every_seconds=0.05)
    try:
        loop = asyncio.get_running_loop()
        until = loop.time() + 20
        while "outbox delivery was skipped" not in caplog.text and loop.time() < until:
            await asyncio.sleep(0.02)
    finally:
        stuck.set()
        await scheduler.shutdown()
    skipped = [r for r in caplog.records if "outbox delivery was skipped" in r.getMessage()]
    assert skipped, "no word of the skipped run in our log"
    assert skipped[0].levelno == logging.INFO and skipped[0].name == "gm.delivery.scheduler"
    assert "is still sending; 3 messages wait" in skipped[0].getMessage()
    assert "running for" in skipped[0].getMessage()
    assert runs == 1 and scheduler.outbox_skipped >= 1


async def test_unscheduling_a_phase_removes_its_jobs_and_no_other_game_s(sessions: SessionFactory) -> None:
    """Jobs are found by their ids (no look through every game's jobs): a phase's deadline and
    reminders go, those of another game's phase of the same name stay, and unscheduling again (or
    after the deadline job ran) is harmless."""

    async def nothing(_phase_id: int) -> None:
        return None

    scheduler = GameScheduler(sessions, nothing)
    scheduler.start()
    try:
        now = utcnow()
        for game in (1, 11):
            scheduler.schedule_phase(game, game * 10, "S1901M", now + timedelta(hours=48), (24.0, 1.0), now)
        assert set(scheduler.job_ids()) == {
            f"{kind}:{game}:S1901M{hours}"
            for game in (1, 11)
            for kind, hours in (("deadline", ""), ("reminder", ":1"), ("reminder", ":24"))
        }
        scheduler.unschedule_phase(1, "S1901M")
        left = {"deadline:11:S1901M", "reminder:11:S1901M:1", "reminder:11:S1901M:24"}
        assert set(scheduler.job_ids()) == left
        scheduler.unschedule_phase(1, "S1901M")
        scheduler.schedule_phase(11, 110, "S1901M", now + timedelta(hours=5), (24.0, 1.0), now)  # an extend
        assert set(scheduler.job_ids()) == {"deadline:11:S1901M", "reminder:11:S1901M:1"}
    finally:
        await scheduler.shutdown(wait=False)
