"""Deadlines and reminders as APScheduler jobs, rebuilt from the database at start-up.

The database is the source of truth; the jobs live in memory (APScheduler 3's AsyncIOScheduler with its
memory job store) and are rebuilt by :meth:`GameScheduler.rebuild_from_db`:
- phases left ``adjudicating`` by a crash are finished (job ``finish:{game}:{phase}``, at once);
- open phases whose deadline has passed are closed (their deadline job, at once);
- the others get a deadline job ``deadline:{game}:{phase}`` and reminder jobs
  ``reminder:{game}:{phase}:{hours}`` for the reminder times still ahead.

The rebuild runs while the bot answers (at start-up, in the background): it reads the phases a page
at a time (:data:`REBUILD_PAGE`) and schedules them in slices of at most :data:`REBUILD_SLICE_SECONDS`
of the event loop, letting the interactions waiting meanwhile go first after each (20,000 games:
seconds of work, never a stall of more than a few milliseconds). Jobs fall due and run as soon as
they are scheduled, during the rebuild. A phase that a use case scheduled or unscheduled after the
rebuild began (a close, an extend, a pause) keeps what the use case did: the rebuild's row of it is
older.

Jobs use ``misfire_grace_time=None`` (run however late: a deadline is never skipped) and
``coalesce=True`` (a backlog runs once); ids are stable, so scheduling a phase again replaces its jobs.
Firing twice is harmless: closing is a compare-and-set, and reminders are keyed in the outbox.

A close or finish that fails (the adjudication raised, the database was unreachable) is tried again
under the same job id after :data:`RETRY_DELAYS` (5 s, 30 s, 2 min, 10 min, 30 min, then hourly), closing
the phase if it is open again or finishing it if it was left adjudicating; otherwise the phase would
stay open past its deadline until the next restart. A moderator's extend or pause replaces or removes
the retry like any deadline job. Meanwhile the database is probed every :data:`PROBE_EVERY` seconds
(job ``database_probe``, from the failure on): when a probe found it away and a later one finds it
back, every retry waiting is run at once, so a close cut by an outage goes on within seconds of the
database's return instead of at its next step of the schedule.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_JOB_SUBMITTED,
    JobExecutionEvent,
    JobSubmissionEvent,
)
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.schedulers.base import STATE_RUNNING
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import SessionFactory
from db.models import Game, GameStatus, PhaseRecord, PhaseStatus
from gm.clock import Clock, utcnow
from gm.delivery.outbox import pending_count
from gm.delivery.shards import EVERYTHING, Ownership
from gm.settings import REMINDER_MARGIN_MINUTES, GameSettings, effective_reminders

log = logging.getLogger(__name__)

PhaseCallback = Callable[[int], Awaitable[Any]]
DeadlineCallback = Callable[[int, datetime], Awaitable[Any]]
"""Closes a phase at the deadline it was scheduled for (and not if its deadline has moved since)."""
Callback = Callable[[], Awaitable[Any]]


class RemindCallback(Protocol):
    """Queues the ``hours``-before-deadline reminders of an open phase in the session's transaction
    (gm.ordering.reminders.queue_reminders, handed in by the facade: ordering sits above delivery)."""

    async def __call__(self, session: AsyncSession, phase_id: int, hours: float, *, now: datetime) -> Any: ...


OUTBOX_JOB = "outbox"
OUTBOX_SOON_JOB = "outbox:soon"
SWEEP_JOB = "sweep"
# A claim (a phase ``adjudicating``) whose holder has not renewed it for this long is finished by the
# game's owner: among several processes the holder renews it every HEARTBEAT_EVERY seconds
# (gm.phases.closer.PhaseCloser.heartbeat), and the owner looks every HEARTBEAT_EVERY seconds too, so a
# dead holder's claim is taken over within LEASE + HEARTBEAT_EVERY of its last renewal.
LEASE = timedelta(seconds=15)
HEARTBEAT_EVERY = 3.0  # seconds
PROBE_JOB = "database_probe"
PROBE_EVERY = 2.0  # seconds between probes of the database while a close waits for its return
PROBE_TIMEOUT = 5.0  # seconds a probe may take before the database counts as away
OVERDUE_GRACE = timedelta(seconds=30)  # an open phase this long past its deadline lost its close
REMINDER_MARGIN = timedelta(minutes=REMINDER_MARGIN_MINUTES)  # one this close to the opening is skipped
RETRY_DELAYS: tuple[float, ...] = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0)  # seconds; the last repeats
REBUILD_PAGE = 200  # phases read at a time by the rebuild (one read: a few milliseconds)
REBUILD_SLICE_SECONDS = 0.004  # event-loop time the rebuild keeps before letting other work run


@dataclass(slots=True)
class RebuildReport:
    finishing: list[int] = field(default_factory=list)  # phase ids stuck in adjudicating
    overdue: list[int] = field(default_factory=list)  # open phases past their deadline, closing now
    scheduled: list[int] = field(default_factory=list)  # open phases with a deadline ahead
    reminders: int = 0


def deadline_job_id(game_id: int, phase_name: str) -> str:
    return f"deadline:{game_id}:{phase_name}"


def reminder_job_id(game_id: int, phase_name: str, hours: float) -> str:
    return f"reminder:{game_id}:{phase_name}:{hours:g}"


def finish_job_id(game_id: int, phase_name: str) -> str:
    return f"finish:{game_id}:{phase_name}"


def retry_job_id(phase_id: int) -> str:
    return f"retry:{phase_id}"


class GameScheduler:
    """Wraps an AsyncIOScheduler. ``on_close(phase_id)`` closes an open phase (it must be idempotent);
    ``on_finish(phase_id)`` finishes one stuck in adjudicating; ``on_outbox()`` sends queued messages;
    ``on_deadline(phase_id, deadline)``, when given, is what a deadline job calls instead of
    ``on_close``: a close that does nothing if the phase's deadline is no longer the one scheduled."""

    def __init__(
        self,
        session_factory: SessionFactory,
        on_close: PhaseCallback,
        *,
        on_finish: PhaseCallback | None = None,
        on_outbox: Callback | None = None,
        on_deadline: DeadlineCallback | None = None,
        on_remind: RemindCallback | None = None,
        clock: Clock = utcnow,
        scheduler: AsyncIOScheduler | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        ownership: Ownership = EVERYTHING,
        rebuild_slice: int = 1000,
    ) -> None:
        """``on_remind``: queues a phase's reminders when their job falls due (None: the reminder
        jobs do nothing). ``ownership``: the shards whose games this process looks after
        (gm.delivery.shards); the rebuild and the sweep consider only their games.
        ``rebuild_slice``: phases the rebuild schedules at most between two turns of the other work
        (and never longer than :data:`REBUILD_SLICE_SECONDS`)."""
        self._sessions = session_factory
        self.ownership = ownership
        self.retry_delays = tuple(retry_delays)
        self.on_close_failed: Callable[[], None] | None = None
        """Told of every close that failed and is tried again later (the metrics: ops.metrics)."""
        self._on_close = on_close
        self._on_deadline = on_deadline
        self._on_finish = on_finish or on_close
        self._on_outbox = on_outbox
        self._on_remind = on_remind
        self._clock = clock
        self._scheduler = scheduler or _new_scheduler()
        self._running: set[asyncio.Task[Any]] = set()
        # Jobs handed to APScheduler's executor and not finished: a job leaves the job store before
        # its task starts (and joins _running), so idle() counts them too.
        self._submitted = 0
        self.busy: Callable[[], Iterable[int]] = lambda: ()  # phases being closed in this process
        self.outbox_skipped = 0  # runs of the outbox job skipped because the previous one still ran
        self._outbox_since: datetime | None = None  # when the running outbox job began
        self._notes: set[asyncio.Task[None]] = set()
        # (game, phase name) -> the ids of its deadline and reminder jobs, so that unscheduling a
        # phase removes them by id instead of looking through every job of every game
        self._phase_jobs: dict[tuple[int, str], set[str]] = {}
        self.rebuild_slice = max(1, rebuild_slice)
        # (game, phase name) of the phases scheduled or unscheduled by a use case while a rebuild runs:
        # one set per rebuild under way, which leaves those phases as the use case left them
        self._rebuilds: list[set[tuple[int, str]]] = []
        # The retries of failed closes, by job id (phase, attempt), waiting for the probe's verdict: run
        # at once when the database, seen away, answers again (see the module docstring).
        self._awaiting_database: dict[str, tuple[int, int]] = {}
        self._database_seen_away = False
        self._listen_to_jobs()

    def _listen_to_jobs(self) -> None:
        """Count the jobs handed to APScheduler's executor (:meth:`_job_event`), note the outbox runs
        skipped (:meth:`_on_max_instances`), and keep the executor's log quiet about the jobs a stop
        cancels."""
        self._scheduler.add_listener(
            self._job_event, EVENT_JOB_SUBMITTED | EVENT_JOB_EXECUTED | EVENT_JOB_ERROR
        )
        self._scheduler.add_listener(self._on_max_instances, EVENT_JOB_MAX_INSTANCES)
        # A stop that cannot wait cancels the jobs running (abandon): on purpose, not an error
        # worth APScheduler's traceback.
        executor_log = logging.getLogger("apscheduler.executors.default")
        if _not_cancelled not in executor_log.filters:
            executor_log.addFilter(_not_cancelled)

    # --- lifecycle ----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether jobs fire (started, not paused or shut down): /healthz asks."""
        return bool(self._scheduler.state == STATE_RUNNING)

    def start(self) -> None:
        """Start the scheduler (call from inside the running event loop, e.g. setup_hook)."""
        if not self._scheduler.running:
            self._scheduler.start()

    async def shutdown(self, *, wait: bool = True) -> None:
        """Stop firing jobs; with ``wait``, let the jobs already running (a deadline's close, its
        results being posted) finish first: APScheduler's own shutdown cancels them."""
        if wait and self._scheduler.running:
            self._scheduler.pause()
            await self._jobs_finished()
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)
        if wait:
            await self.idle()

    async def _jobs_finished(self) -> None:
        """Wait for the jobs running or handed to the executor (the scheduler paused: no new ones)."""
        while True:
            await asyncio.sleep(0)
            running = [t for t in self._running if not t.done()]
            if running:
                await asyncio.wait(running)
            elif self._submitted:
                await asyncio.sleep(0.01)
            else:
                return

    async def abandon(self, timeout: float = 5.0) -> None:
        """Stop firing jobs and cancel the ones running (a stop that cannot wait for them)."""
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)
        running = [t for t in self._running if not t.done() and t is not asyncio.current_task()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=timeout)

    async def idle(self, timeout: float | None = None) -> None:
        """Wait until no job is due now and none is running (tests, graceful shutdown)."""
        loop = asyncio.get_running_loop()
        until = None if timeout is None else loop.time() + timeout
        while True:
            await asyncio.sleep(0)
            running = [t for t in self._running if not t.done()]
            if running:
                await asyncio.wait(running, timeout=None if until is None else max(0.0, until - loop.time()))
            elif not self._submitted and not self._due_now():
                return
            else:
                await asyncio.sleep(0.01)
            if until is not None and loop.time() >= until:
                raise TimeoutError("scheduler jobs still running")

    def _due_now(self) -> bool:
        if not self._scheduler.running:
            return False
        now = self._clock()
        return any(
            job.next_run_time is not None and job.next_run_time <= now for job in self._scheduler.get_jobs()
        )

    def _job_event(self, event: JobExecutionEvent | JobSubmissionEvent) -> None:
        if event.code == EVENT_JOB_SUBMITTED:
            self._submitted += 1
        else:
            self._submitted = max(0, self._submitted - 1)

    def _pending(self, job_id: str) -> bool:
        job = self._scheduler.get_job(job_id)
        return job is not None and job.next_run_time is not None

    def job_ids(self) -> list[str]:
        return sorted(job.id for job in self._scheduler.get_jobs())

    def run_time(self, job_id: str) -> datetime | None:
        job = self._scheduler.get_job(job_id)
        return None if job is None else job.next_run_time

    # --- rebuilding ---------------------------------------------------------------------------

    async def rebuild_from_db(self, *, between_pages: Callable[[], object] | None = None) -> RebuildReport:
        """Recreate every job from the database (see the module docstring), for the games of this
        process's servers, in slices that let the event loop serve other work in between.
        ``between_pages`` runs before each page is read (the bot freezes Python's collector there, so
        that no full collection scans the jobs made so far)."""
        report = RebuildReport()
        touched: set[tuple[int, str]] = set()
        self._rebuilds.append(touched)
        try:
            after = 0
            while True:
                if between_pages is not None:
                    between_pages()
                rows = await self._phases_after(after)
                if not rows:
                    break
                after = rows[-1][0]
                await self._schedule_rows(rows, report, touched)
                if len(rows) < REBUILD_PAGE:
                    break
        finally:
            self._rebuilds.remove(touched)
        return report

    async def _phases_after(self, after: int) -> list[tuple[Any, ...]]:
        """The next page of open or adjudicating phases of running games (ids above ``after``)."""
        async with self._sessions.read() as session:
            rows = (
                await session.exec(
                    select(  # type: ignore[call-overload]  # eight columns (sqlmodel types four); not the boards
                        PhaseRecord.id,
                        PhaseRecord.name,
                        PhaseRecord.status,
                        PhaseRecord.deadline,
                        PhaseRecord.opened_at,
                        Game.id,
                        Game.status,
                        Game.settings,
                    )
                    .join(Game, col(Game.id) == col(PhaseRecord.game_id))
                    .where(
                        col(PhaseRecord.id) > after,
                        col(PhaseRecord.status).in_((PhaseStatus.OPEN, PhaseStatus.ADJUDICATING)),
                        col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
                        self.ownership.guild_clause(col(Game.guild_id)),
                    )
                    .order_by(col(PhaseRecord.id))
                    .limit(REBUILD_PAGE)
                )
            ).all()
        return list(rows)

    async def _schedule_rows(
        self, rows: Sequence[tuple[Any, ...]], report: RebuildReport, touched: set[tuple[int, str]]
    ) -> None:
        """Schedule ``rows`` a slice at a time, giving the event loop back after each slice."""
        loop = asyncio.get_running_loop()
        done = 0
        while done < len(rows):
            began = loop.time()
            with self._paused():
                end = min(len(rows), done + self.rebuild_slice)
                while done < end:
                    self._rebuild_one(rows[done], report, touched)
                    done += 1
                    if loop.time() - began >= REBUILD_SLICE_SECONDS:
                        break
            await asyncio.sleep(0)  # what waited meanwhile (an interaction, a due job) goes first

    def _rebuild_one(
        self, row: tuple[Any, ...], report: RebuildReport, touched: set[tuple[int, str]]
    ) -> None:
        phase_id, name, status, deadline, opened_at, game_id, game_status, settings = row
        if (game_id, name) in touched:
            return  # a use case scheduled or unscheduled it after this row was read
        now = self._clock()
        if status == PhaseStatus.ADJUDICATING:
            job_id = finish_job_id(game_id, name)
            self._add(job_id, now, self._finish_job, phase_id, job_id)
            report.finishing.append(phase_id)
            return
        if deadline is None or game_status == GameStatus.PAUSED:
            return
        if deadline <= now:
            report.overdue.append(phase_id)
        else:
            report.scheduled.append(phase_id)
        report.reminders += self._place_phase(
            game_id,
            phase_id,
            name,
            deadline,
            GameSettings.from_json(settings).reminder_hours,
            opened_at=opened_at,
        )

    @contextlib.contextmanager
    def _paused(self) -> Iterator[None]:
        """Add many jobs without waking the scheduler for each (it looks at the job store once, after)."""
        running = self._scheduler.running and self._scheduler.state == STATE_RUNNING
        if running:
            self._scheduler.pause()
        try:
            yield
        finally:
            if running:
                self._scheduler.resume()

    # --- scheduling ---------------------------------------------------------------------------

    def schedule_phase(
        self,
        game_id: int,
        phase_id: int,
        phase_name: str,
        deadline: datetime | None,
        reminder_hours: Iterable[float] = (),
        opened_at: datetime | None = None,
        *,
        catch_up: bool | None = None,
    ) -> int:
        """(Re)place a phase's deadline job and its reminder jobs still ahead; returns the reminders set.

        A deadline already past fires at once. ``deadline`` None (paused) removes the jobs.

        A reminder whose lead time is as long as the phase itself (the default 24-hour reminder of a
        24-hour phase) would fall due as the phase opens, when the call to order has just gone out:
        it is skipped (``opened_at``: when the phase opened, so such reminders are recognised).
        With ``catch_up`` (start-up; by default whenever ``opened_at`` is given) the latest reminder
        that fell due while the bot was away is sent at once if the deadline is still ahead: players
        would rather hear late than not at all, and the outbox key stops a reminder that did go out
        from going out twice.
        """
        for touched in self._rebuilds:
            touched.add((game_id, phase_name))
        return self._place_phase(
            game_id, phase_id, phase_name, deadline, reminder_hours, opened_at, catch_up=catch_up
        )

    def _place_phase(
        self,
        game_id: int,
        phase_id: int,
        phase_name: str,
        deadline: datetime | None,
        reminder_hours: Iterable[float] = (),
        opened_at: datetime | None = None,
        *,
        catch_up: bool | None = None,
    ) -> int:
        """:meth:`schedule_phase`, as the rebuild does it (not recorded as a use case's change)."""
        self._remove_phase_jobs(game_id, phase_name)
        if deadline is None:
            return 0
        if opened_at is not None:  # scaled to the phase's length (gm.settings.effective_reminders)
            reminder_hours = effective_reminders(
                tuple(reminder_hours), (deadline - opened_at).total_seconds() / 60
            )
        if catch_up is None:
            catch_up = opened_at is not None
        now = self._clock()
        jobs = self._phase_jobs.setdefault((game_id, phase_name), set())
        job_id = deadline_job_id(game_id, phase_name)
        self._add(job_id, max(deadline, now), self._deadline_job, phase_id, job_id, 0, deadline)
        jobs.add(job_id)
        count = 0
        missed: list[float] = []
        for hours in reminder_hours:
            at = deadline - timedelta(hours=hours)
            if opened_at is not None and at <= opened_at + REMINDER_MARGIN:
                continue  # due as the phase opens: the call to order says it all
            if at > now:
                reminder = reminder_job_id(game_id, phase_name, hours)
                self._add(reminder, at, self._reminder_job, phase_id, hours)
                jobs.add(reminder)
                count += 1
            elif catch_up and opened_at is not None and deadline > now:
                missed.append(hours)
        if missed:
            hours = min(missed)
            reminder = reminder_job_id(game_id, phase_name, hours)
            self._add(reminder, now, self._reminder_job, phase_id, hours)
            jobs.add(reminder)
            count += 1
        return count

    def unschedule_phase(self, game_id: int, phase_name: str) -> None:
        """Remove the phase's deadline and reminder jobs (by their ids: no look through every job)."""
        for touched in self._rebuilds:
            touched.add((game_id, phase_name))
        self._remove_phase_jobs(game_id, phase_name)

    def _remove_phase_jobs(self, game_id: int, phase_name: str) -> None:
        for job_id in self._phase_jobs.pop((game_id, phase_name), ()):
            with contextlib.suppress(JobLookupError):  # it ran already (a date job goes once fired)
                self._scheduler.remove_job(job_id)

    def schedule_outbox_retries(self, every_seconds: float = 30.0) -> None:
        """Retry unsent messages periodically (deliveries also run right after every change)."""
        if self._on_outbox is None:
            return
        self._scheduler.add_job(
            self._outbox_job,
            IntervalTrigger(seconds=every_seconds, timezone="UTC"),
            id=OUTBOX_JOB,
            replace_existing=True,
        )

    def schedule_every(self, job_id: str, every_seconds: float, work: Callback) -> None:
        """Run ``work`` every ``every_seconds`` (a housekeeping job: the sandboxes' sweep); a failure
        is logged and the next run comes all the same."""

        async def job() -> None:
            await self._tracked(work(), job_id)

        self._scheduler.add_job(
            job, IntervalTrigger(seconds=every_seconds, timezone="UTC"), id=job_id, replace_existing=True
        )

    def deliver_soon(self, seconds: float) -> None:
        """One more delivery in ``seconds`` (a delivery failed: the database went away), besides the
        periodic one: the messages go out within seconds of the database's return."""
        if self._on_outbox is None or not self._scheduler.running:
            return
        self._add(OUTBOX_SOON_JOB, utcnow() + timedelta(seconds=seconds), self._outbox_job)

    def _add(self, job_id: str, when: datetime, func: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self._scheduler.add_job(
            func,
            DateTrigger(run_date=when, timezone="UTC"),
            args=args,
            id=job_id,
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    # --- jobs ---------------------------------------------------------------------------------

    async def _deadline_job(
        self, phase_id: int, job_id: str, attempt: int = 0, due: datetime | None = None
    ) -> None:
        # With on_deadline the close checks that the phase's deadline is still ``due``: another
        # process may have extended or paused the game since this job was scheduled.
        if due is not None and self._on_deadline is not None:
            work = self._on_deadline(phase_id, due)
        else:
            work = self._on_close(phase_id)
        if not await self._tracked(work, f"closing phase {phase_id}"):
            self._retry(job_id, phase_id, attempt, "closing")

    async def _finish_job(self, phase_id: int, job_id: str, attempt: int = 0) -> None:
        if not await self._tracked(self._on_finish(phase_id), f"finishing phase {phase_id}"):
            self._retry(job_id, phase_id, attempt, "finishing")

    async def _retry_job(self, phase_id: int, job_id: str, attempt: int) -> None:
        if not await self._tracked(self._close_or_finish(phase_id), f"closing phase {phase_id} (retry)"):
            self._retry(job_id, phase_id, attempt, "closing")

    async def _close_or_finish(self, phase_id: int) -> None:
        """What the phase needs now: a close if a failed close reopened it, a finish if it was left
        adjudicating, nothing if it closed meanwhile (or is gone)."""
        async with self._sessions.read() as session:
            phase = await session.get(PhaseRecord, phase_id)
            status = phase.status if phase is not None else None
        if status == PhaseStatus.OPEN:
            await self._on_close(phase_id)
        elif status == PhaseStatus.ADJUDICATING:
            await self._on_finish(phase_id)

    def retry_later(self, phase_id: int) -> None:
        """A close that was asked for in this process (a moderator, the last ready, a resume) failed:
        try it again with the same backoff as a failed deadline (job ``retry:{phase}``)."""
        self._retry(retry_job_id(phase_id), phase_id, 0, "closing")

    def schedule_sweep(self, every_seconds: float = 60.0) -> None:
        """Look for phases nothing is closing every ``every_seconds``: open past their deadline with no
        job due (a close request whose task died), or adjudicating for longer than :data:`LEASE`
        while no close of this process works on them (a close that failed half way)."""
        self._scheduler.add_job(
            self._sweep_job,
            IntervalTrigger(seconds=every_seconds, timezone="UTC"),
            id=SWEEP_JOB,
            replace_existing=True,
        )

    async def sweep(self, busy: Iterable[int] = ()) -> list[int]:
        """One pass of :meth:`schedule_sweep`'s job; returns the phases it closed or finished.

        Only the games of this process's servers are looked at. Among several processes the pass also
        takes up the open phases of those games that have no job here, because another process
        opened them (a player's direct message closed the phase before, in the process owning the
        direct messages): their deadline and reminder jobs are added (:meth:`adopt`)."""
        if not self.ownership.owns_all:
            await self.adopt()
        now = self._clock()
        busy = set(busy)
        async with self._sessions.read() as session:
            rows = (
                await session.exec(
                    select(PhaseRecord, Game)
                    .join(Game, col(Game.id) == col(PhaseRecord.game_id))
                    .where(
                        col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
                        self.ownership.guild_clause(col(Game.guild_id)),
                        (
                            (col(PhaseRecord.status) == PhaseStatus.OPEN)
                            & (col(PhaseRecord.deadline) <= now - OVERDUE_GRACE)
                        )
                        | (
                            (col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
                            & (col(PhaseRecord.adjudication_started_at) <= now - LEASE)
                        ),
                    )
                )
            ).all()
        done: list[int] = []
        for phase, game in rows:
            phase_id = phase.row_id
            if phase_id in busy or self._pending(retry_job_id(phase_id)):
                continue
            if phase.status == PhaseStatus.OPEN and game.status == GameStatus.PAUSED:
                continue
            log.warning(
                "sweep: phase %s of game %s was left %s; closing it now", phase_id, game.id, phase.status
            )
            if await self._tracked(self._close_or_finish(phase_id), f"sweeping phase {phase_id}"):
                done.append(phase_id)
            else:
                self.retry_later(phase_id)
        return done

    async def adopt(self) -> list[int]:
        """Schedule the open phases of this process's games that have no deadline job here, or one
        for another deadline than theirs (another process opened or extended them); returns their
        ids. A phase scheduled in two processes is harmless: the close is a compare-and-set, the
        reminders are keyed in the outbox."""
        now = self._clock()
        async with self._sessions.read() as session:
            rows = (
                await session.exec(
                    select(  # type: ignore[call-overload]  # six columns (sqlmodel types four)
                        PhaseRecord.id,
                        PhaseRecord.name,
                        PhaseRecord.deadline,
                        PhaseRecord.opened_at,
                        Game.id,
                        Game.settings,
                    )
                    .join(Game, col(Game.id) == col(PhaseRecord.game_id))
                    .where(
                        col(PhaseRecord.status) == PhaseStatus.OPEN,
                        col(PhaseRecord.deadline).is_not(None),
                        col(Game.status) == GameStatus.ACTIVE,
                        self.ownership.guild_clause(col(Game.guild_id)),
                    )
                )
            ).all()
        adopted = []
        for phase_id, name, deadline, opened_at, game_id, settings in rows:
            known = (game_id, name) in self._phase_jobs
            if known and (deadline <= now or self.run_time(deadline_job_id(game_id, name)) == deadline):
                continue  # scheduled for this deadline, or due: its job or the sweep closes it
            self.schedule_phase(
                game_id,
                phase_id,
                name,
                deadline,
                GameSettings.from_json(settings).reminder_hours,
                opened_at=opened_at,
            )
            adopted.append(phase_id)
        if adopted:
            log.info("took up %d phases another process opened: %s", len(adopted), adopted)
        return adopted

    async def _sweep_job(self) -> None:
        await self._tracked(self.sweep(self.busy()), "sweeping for stuck phases")

    def _retry(self, job_id: str, phase_id: int, attempt: int, what: str) -> None:
        """Schedule another try of a failed close under the same job id, after a growing delay."""
        if self.on_close_failed is not None:
            self.on_close_failed()
        if not self._scheduler.running or not self.retry_delays:
            return
        delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
        # APScheduler fires on the real clock, whatever clock the use cases are given.
        when = utcnow() + timedelta(seconds=delay)
        self._add(job_id, when, self._retry_job, phase_id, job_id, attempt + 1)
        self._awaiting_database[job_id] = (phase_id, attempt + 1)
        if self._scheduler.get_job(PROBE_JOB) is None:  # the first probe at once: is the database away?
            self._scheduler.add_job(
                self._probe_job,
                IntervalTrigger(seconds=PROBE_EVERY, timezone="UTC"),
                id=PROBE_JOB,
                next_run_time=utcnow(),
                replace_existing=True,
            )
        log.error(
            "%s phase %s failed (attempt %d); it stays unclosed until the retry in %s (job %s at %s)",
            what.capitalize(),
            phase_id,
            attempt + 1,
            _seconds_text(delay),
            job_id,
            when.isoformat(timespec="seconds"),
        )

    async def probe_database(self) -> bool:
        """One probe of the database (``SELECT 1``, at most :data:`PROBE_TIMEOUT` seconds): whether it
        answered. When it answers after a probe found it away, the retries of the closes that failed
        meanwhile run at once; when it answers without having been seen away, their failure was not
        the database's and they keep their schedule."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT), self._sessions.read() as session:
                await (await session.connection()).exec_driver_sql("SELECT 1")
        except Exception as exc:
            if not self._database_seen_away:
                log.warning("the database does not answer (%r); closes wait for its return", exc)
            self._database_seen_away = True
            return False
        waiting, self._awaiting_database = self._awaiting_database, {}
        if self._database_seen_away:
            self._database_seen_away = False
            now = utcnow()
            due = [(job_id, p, a) for job_id, (p, a) in waiting.items() if self._retry_waits(job_id)]
            for job_id, phase_id, attempt in due:
                self._add(job_id, now, self._retry_job, phase_id, job_id, attempt)
            log.info("the database answers again; retrying %d closes now", len(due))
        return True

    def _retry_waits(self, job_id: str) -> bool:
        """Whether ``job_id`` is still a retry waiting (not replaced since by a moderator's extend, a
        pause or a new deadline, which keep their own time)."""
        job = self._scheduler.get_job(job_id)
        return job is not None and job.next_run_time is not None and job.func == self._retry_job

    async def _probe_job(self) -> None:
        await self.probe_database()
        if not self._awaiting_database:
            with contextlib.suppress(JobLookupError):
                self._scheduler.remove_job(PROBE_JOB)

    async def take_over(self, busy: Iterable[int] = ()) -> list[int]:
        """Finish the phases of this process's games left ``adjudicating`` under a claim nobody has
        renewed for :data:`LEASE` (its holder, maybe another process, died) and that no close of
        this process works on; returns them. Among several processes this runs every
        :data:`HEARTBEAT_EVERY` seconds, beside the holders' renewals."""
        now = self._clock()
        busy = set(busy)
        async with self._sessions.read() as session:
            lapsed = (
                await session.exec(
                    select(PhaseRecord.id)
                    .join(Game, col(Game.id) == col(PhaseRecord.game_id))
                    .where(
                        col(PhaseRecord.status) == PhaseStatus.ADJUDICATING,
                        col(PhaseRecord.adjudication_started_at) <= now - LEASE,
                        col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
                        self.ownership.guild_clause(col(Game.guild_id)),
                    )
                )
            ).all()
        done: list[int] = []
        for phase_id in lapsed:
            if phase_id is None or phase_id in busy or self._pending(retry_job_id(phase_id)):
                continue
            log.warning("phase %s: its close's claim lapsed (its holder stopped); finishing it", phase_id)
            if await self._tracked(self._close_or_finish(phase_id), f"taking over phase {phase_id}"):
                done.append(phase_id)
            else:
                self.retry_later(phase_id)
        return done

    async def _reminder_job(self, phase_id: int, hours: float) -> None:
        queue_reminders = self._on_remind
        if queue_reminders is None:
            return  # a scheduler without reminders (some tests): the job has nothing to do

        async def remind() -> None:
            try:
                async with self._sessions.begin() as session:
                    await queue_reminders(session, phase_id, hours, now=self._clock())
            except IntegrityError:
                # Another process queued the same reminders meanwhile (both had the phase's jobs):
                # the outbox's unique key kept them from going out twice.
                log.info("reminders for phase %s (%g h) were queued by another process", phase_id, hours)
                return
            if self._on_outbox is not None:
                await self._on_outbox()

        await self._tracked(remind(), f"reminding for phase {phase_id}")

    async def _outbox_job(self) -> None:
        if self._on_outbox is not None:
            self._outbox_since = utcnow()
            try:
                await self._tracked(self._on_outbox(), "delivering the outbox")
            finally:
                self._outbox_since = None

    def _on_max_instances(self, event: JobSubmissionEvent) -> None:
        """APScheduler skipped a run because the job's previous run is still going (max_instances=1).
        For the outbox job, say so in our log with the backlog: messages wait behind a slow delivery
        (a long rate limit, Discord being slow), and nobody should have to read APScheduler's log to
        learn it."""
        if event.job_id != OUTBOX_JOB:
            return
        self.outbox_skipped += 1
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not from the event loop: no backlog to count, say it anyway
            log.info("a run of the outbox delivery was skipped: the previous one is still sending")
            return
        note = loop.create_task(self._log_outbox_skipped(self._outbox_since))
        self._notes.add(note)
        note.add_done_callback(self._notes.discard)

    async def _log_outbox_skipped(self, since: datetime | None) -> None:
        try:
            async with self._sessions.read() as session:
                backlog = f"{await pending_count(session)} messages wait"
        except Exception as exc:
            backlog = f"the messages waiting could not be counted: {exc!r}"
        running = "" if since is None else f" (running for {(utcnow() - since).total_seconds():.0f} s)"
        log.info(
            "a run of the outbox delivery was skipped (%d so far): the previous one%s is still sending; %s",
            self.outbox_skipped,
            running,
            backlog,
        )

    async def _tracked(self, work: Awaitable[Any], what: str) -> bool:
        """Run a job's work; False (logged with its traceback) when it raised."""
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            await work
        except Exception:
            log.exception("scheduler job failed: %s", what)
            return False
        finally:
            if task is not None:
                self._running.discard(task)
        return True


def _new_scheduler() -> AsyncIOScheduler:
    """APScheduler's loop, in UTC: a job late by any amount still runs (once, however many runs it
    missed), and never twice at once."""
    return AsyncIOScheduler(
        timezone="UTC",
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
    )


def _not_cancelled(record: logging.LogRecord) -> bool:
    """False for APScheduler's report of a job that was cancelled (a stop out of time)."""
    exc = record.exc_info[1] if record.exc_info else None
    return not isinstance(exc, asyncio.CancelledError)


def _seconds_text(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    if seconds >= 60:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"
