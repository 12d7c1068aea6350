"""The gamemaster's machinery: the closer, the scheduler, the outbox's delivery, the worker processes
and the background work that follows a use case.

:class:`Runtime` is what the composition root (bot.py), the harness and the tests drive: start and
stop (``start``, ``launch``, ``shutdown``, ``abandon``, ``wind_down``), the deliveries
(``deliver``), the closes (``close_phase``, ``finish_phase``, ``close_at_deadline``) and the wait for
the background work (``idle``). The facade (gm.facade.Gamemaster) holds one and hands it what a use
case asks for after its commit (``follow_up``); an adapter never sees it: the facade's public face
is its use cases, and ``gamemaster.runtime`` is for the composition root alone
(tests/test_adapter_imports.py)::

    gamemaster = Gamemaster(sessions, sender)
    runtime = gamemaster.runtime
    await runtime.start()                          # jobs rebuilt from the database, unsent messages
    runtime.launch()                               # the same in the background (the bot answers meanwhile)
    report = await gamemaster.submit_orders(game_id, user_id, text)   # early close when all are done
    await runtime.idle()                           # (tests, shutdown) the follow-ups have finished
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import Executor
from datetime import datetime
from typing import Any

from db.database import SessionFactory
from db.models import Game
from gm.clock import Clock, utcnow
from gm.delivery.outbox import (
    DeliveryReport,
    OutboxSender,
    deliver_pending,
    release_own_claims,
    release_stale_claims,
)
from gm.delivery.pool import WorkerPool
from gm.delivery.scheduler import HEARTBEAT_EVERY, GameScheduler, RebuildReport
from gm.delivery.shards import EVERYTHING, Ownership
from gm.endings.final_post import ArchiveReport, publish_final_post, publish_pending
from gm.follow_ups import FollowUps
from gm.ordering.reminders import queue_reminders
from gm.ordering.submission import OrdersView, early_close_due
from gm.phases.closer import CloseOutcome, PhaseCloser
from gm.phases.worker import warm_up
from gm.reading.info import PhaseInfo
from gm.sandbox.making import sweep as sandbox_sweep
from gm.settings import GameSettings
from gm.setup.games import StartResult
from gm.setup.shields import Shielder, ShieldReport, shield_running_games

log = logging.getLogger(__name__)

UNWIND = 0.5  # seconds cancelled work may take to unwind when a stop is out of time
RELEASE_WAIT = 1.0  # ... and the release of the outbox claims (the database may be away)
DELIVERY_RETRY = (2.0, 5.0, 10.0, 30.0)  # seconds before another delivery, after 1, 2, 3, more failures
OUTBOX_EVERY = 30.0  # seconds between deliveries of what waits (each change also delivers at once)
OUTBOX_EVERY_SHARDED = 5.0  # ... among several processes, where a sibling may queue our messages
START_RETRY_DELAYS = (5.0, 15.0, 60.0)  # seconds before trying a failed start-up again; the last repeats
SANDBOX_SWEEP_JOB = "sandbox_sweep"
CLAIMS_JOB = "claims"  # among several processes: renew this process's claims, take over lapsed ones
SANDBOX_SWEEP_EVERY = 3600.0  # seconds between sweeps of the sandboxes unused for 30 days


class Runtime:
    """The gamemaster's machinery (see the module's docstring)."""

    def __init__(
        self,
        session_factory: SessionFactory,
        sender: OutboxSender | None = None,
        *,
        workers: int = 2,
        render_maps: bool = True,
        clock: Clock = utcnow,
        closer: PhaseCloser | None = None,
        ownership: Ownership = EVERYTHING,
        process_name: str | None = None,
    ) -> None:
        """``workers``: processes for adjudication and rendering (0: a thread, in-process);
        ``ownership``: the shards whose games this process looks after when the bot runs as several
        processes (gm.delivery.shards; default: all of them), ``process_name`` its stable name (the
        outbox claims carry it; default: derived from the shards)."""
        self.sessions = session_factory
        self.ownership = ownership
        self.process_name = process_name or ownership.default_name()
        self.sender = sender
        self._clock = clock
        self._executor: Executor | None = None
        if closer is None and workers > 0:
            self._executor = WorkerPool(workers)  # replaces itself when a worker dies (gm.delivery.pool)
        self.closer = closer or PhaseCloser(
            session_factory,
            executor=self._executor,
            render_maps=render_maps,
            clock=clock,
            max_concurrent=2 * max(1, workers),
        )
        self.scheduler = GameScheduler(
            session_factory,
            self.close_phase,
            on_finish=self.finish_phase,
            on_outbox=self.deliver,
            on_deadline=self.close_at_deadline,
            on_remind=queue_reminders,
            clock=clock,
            ownership=ownership,
        )
        self._delivering = asyncio.Lock()
        self._claims_left = False  # a delivery failed: its claims may still be on the rows
        self._failed_deliveries = 0  # in a row
        self.last_delivery: DeliveryReport | None = None
        self.scheduler.busy = lambda: self.closer.active if isinstance(self.closer, PhaseCloser) else ()
        self._background: set[asyncio.Task[Any]] = set()
        self.on_close: Callable[[CloseOutcome], None] | None = None
        """Told of every phase this process closes (the metrics: ops.metrics)."""
        self.on_orders_changed: Callable[[int, int, str], None] | None = None
        """Told of every change of a player's own orders made in this process: (game, user, phase name).
        The adapter redraws the sheets it shows that player elsewhere (cogs.ui.sheet_live)."""
        self.phases_opened: Callable[[Sequence[int] | None], None] | None = None
        """Told of the games whose new phase this process opened (a close), and at start-up (None:
        every running game): the facade reads their players' orders into what the process holds, so
        that the first orders form of the phase opens at once (gm.ordering.current)."""
        self.menu_watch: Callable[[int, int], bool] | None = None
        """Whether a sheet shown elsewhere will be drawn again when (game, user)'s orders change: then
        a change keeps the player's order menu when it costs no read (cogs.ui.sheet_live)."""
        self._winding_down = False  # a stop has begun: long background work ends at its next step

    @property
    def winding_down(self) -> bool:
        """Whether the bot is stopping (:meth:`shutdown` or :meth:`abandon` has begun)."""
        return self._winding_down

    @property
    def executor(self) -> Executor | None:
        """Where adjudication and drawing run: the worker processes (None: a thread)."""
        return self._executor

    def wind_down(self) -> None:
        """A stop begins: long background work (gm.setup.shields) ends at its next step, before the
        stop waits for the background work."""
        self._winding_down = True

    # --- work that follows a use case -----------------------------------------------------------

    def spawn(self, work: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        """Run ``work`` in the background (after the user has been answered): kept referenced until
        done, its failure logged with ``what``."""
        task = asyncio.create_task(_logged(work, what), name=what)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def follow_up(self, follow_ups: FollowUps, what: str) -> None:
        """What a use case asked for after its commit (:meth:`apply`), in the background."""
        self.spawn(self.apply(follow_ups), what)

    async def idle(self) -> None:
        """Wait for the background work started so far (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def start(self) -> RebuildReport:
        """Start the worker processes and the scheduler, rebuild the jobs from the database, send what
        was left unsent; return once all that is done."""
        self._start_machinery()
        return await self._start_up()

    def launch(self, *, between_pages: Callable[[], object] | None = None) -> asyncio.Task[Any]:
        """:meth:`start` in the background: the worker processes and the scheduler start now, the
        rebuild of the jobs (seconds with thousands of games) and the rest follow while the caller goes
        on (the bot connects and answers meanwhile: the rebuild gives the event loop back slice by
        slice). A start-up that fails (the database went away) is tried again after
        :data:`START_RETRY_DELAYS`, so that no deadline is left unscheduled. :meth:`idle` and
        :meth:`shutdown` wait for it, :meth:`abandon` cancels it. ``between_pages``: see
        GameScheduler.rebuild_from_db."""
        self._start_machinery()
        return self.spawn(self._start_up_until_done(between_pages), "start-up: rebuilding the schedule")

    def _start_machinery(self) -> None:
        if isinstance(self._executor, WorkerPool):
            self._executor.start(warm_up)
        self.scheduler.start()

    async def _start_up_until_done(self, between_pages: Callable[[], object] | None) -> RebuildReport:
        attempt = 0
        while True:
            try:
                return await self._start_up(between_pages)
            except Exception:
                delay = START_RETRY_DELAYS[min(attempt, len(START_RETRY_DELAYS) - 1)]
                log.exception("start-up failed (attempt %d); trying again in %g s", attempt + 1, delay)
                attempt += 1
                await asyncio.sleep(delay)

    async def _start_up(self, between_pages: Callable[[], object] | None = None) -> RebuildReport:
        # One process takes back every claim left in the database; one among several only the claims
        # of its own earlier run (its siblings' are alive, or lapse with their lease).
        alone = self.ownership.owns_all
        released = await release_stale_claims(self.sessions, None if alone else self.process_name)
        if released:
            log.info("took back %d messages a stopped bot had claimed", released)
        if not alone:
            log.info(
                "process %s: looking after the games of %s",
                self.process_name,
                self.ownership.describe(),
                extra={
                    "event": "shards",
                    "process_name": self.process_name,
                    "shards": sorted(self.ownership.ids or ()),
                },
            )
        began = asyncio.get_running_loop().time()
        report = await self.scheduler.rebuild_from_db(between_pages=between_pages)
        log.info(
            "start-up: %d overdue phases to close now, %d stuck closes to finish now, %d open phases "
            "scheduled with %d reminders",
            len(report.overdue),
            len(report.finishing),
            len(report.scheduled),
            report.reminders,
            extra={
                "event": "rebuilt",
                "overdue": report.overdue,
                "finishing": report.finishing,
                "scheduled": len(report.scheduled),
                "reminders": report.reminders,
                "released_messages": released,
                "seconds": round(asyncio.get_running_loop().time() - began, 3),
            },
        )
        # Among several processes another one may queue our games' messages (a player's direct message
        # closed a phase there): this process finds them at its next periodic delivery.
        self.scheduler.schedule_outbox_retries(OUTBOX_EVERY if alone else OUTBOX_EVERY_SHARDED)
        self.scheduler.schedule_sweep()
        if not alone:  # a sibling's claim on our game lapses within seconds of its death
            self.scheduler.schedule_every(CLAIMS_JOB, HEARTBEAT_EVERY, self.keep_claims)
        self.scheduler.schedule_every(SANDBOX_SWEEP_JOB, SANDBOX_SWEEP_EVERY, self.sweep_sandboxes)
        try:
            await self.sweep_sandboxes()
        except Exception:  # housekeeping: the hourly job tries again
            log.exception("sweeping the sandboxes failed")
        await publish_pending(
            self.sessions, executor=self._executor, clock=self._clock, ownership=self.ownership
        )
        await self.deliver()
        if self.phases_opened is not None:
            self.phases_opened(None)
        return report

    async def shutdown(self) -> None:
        """Stop firing jobs, let the closes and deliveries under way finish, send what they queued,
        then stop the worker processes (a graceful stop)."""
        self._winding_down = True
        await self.idle()
        await self.scheduler.shutdown(wait=True)
        await self.deliver()
        if self._executor is not None:
            self._executor.shutdown(wait=True)

    async def abandon(self) -> int:
        """Stop at once (a graceful stop that ran out of time): cancel the follow-ups and jobs under
        way, stop the worker processes, release this process's outbox claims. A close cut short stays
        ``adjudicating`` and the next start finishes it (gm.delivery.scheduler). Returns the messages
        put back."""
        self._winding_down = True
        running = [task for task in self._background if not task.done()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=UNWIND)
        await self.scheduler.abandon(timeout=UNWIND)
        if isinstance(self._executor, WorkerPool):
            self._executor.kill()  # a render under way would hold up the process's exit
        elif self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        return await asyncio.wait_for(release_own_claims(self.sessions, self.process_name), RELEASE_WAIT)

    async def keep_claims(self) -> list[int]:
        """Among several processes, every few seconds: renew the leases of the closes this process
        holds (gm.phases.closer.PhaseCloser.heartbeat), then finish its games' phases whose claim
        lapsed, held by a process that died (gm.delivery.scheduler.GameScheduler.take_over)."""
        if isinstance(self.closer, PhaseCloser):
            await self.closer.heartbeat()
        return await self.scheduler.take_over(self.scheduler.busy())

    async def sweep_sandboxes(self) -> int:
        """Delete the sandboxes unused for 30 days (gm.sandbox.making.sweep), an hourly job; logged
        when any went. Returns how many."""
        async with self.sessions.begin() as session:
            gone = await sandbox_sweep(session, now=self._clock())
        if gone:
            log.info(
                "deleted %d sandboxes unused for 30 days",
                gone,
                extra={"event": "sandbox_sweep", "deleted": gone},
            )
        return gone

    async def shield_running_games(self, shielder: Shielder) -> ShieldReport:
        """Put the players' shields on the games set up before them (gm.setup.shields): at start-up,
        once connected to the chat server; stops between two games when the bot is stopping."""
        return await shield_running_games(
            self.sessions, shielder, ownership=self.ownership, stopping=lambda: self.winding_down
        )

    # --- after a use case ---------------------------------------------------------------------

    async def game_started(self, result: StartResult) -> None:
        self.scheduler.schedule_phase(
            result.game.id,
            result.phase.id,
            result.phase.name,
            result.phase.deadline,
            result.game.settings.reminder_hours,
            result.phase.opened_at,
            catch_up=False,
        )
        await self.deliver()

    async def orders_changed(self, view: OrdersView) -> CloseOutcome | None:
        """After a submission, clear or ready: close the phase now if everybody is done."""
        if view.close_now:
            return await self.request_close(view.phase.id, reason="all_ready")
        return None

    def menu_watched(self, game_id: int, user_id: int) -> bool:
        """Whether ``menu_watch`` says the player's menu will be drawn again after a change."""
        return self.menu_watch is not None and self.menu_watch(game_id, user_id)

    def told_orders_changed(self, game_id: int, user_id: int, phase_name: str) -> None:
        """Tell ``on_orders_changed`` (a listener's failure is logged, never the change's)."""
        if self.on_orders_changed is None:
            return
        try:
            self.on_orders_changed(game_id, user_id, phase_name)
        except Exception:
            log.exception("the listener of order changes failed (game %s, user %s)", game_id, user_id)

    async def players_changed(self, phase_id: int) -> CloseOutcome | None:
        """After someone left or was put in civil disorder: they may have been the last one awaited."""
        try:
            async with self.sessions.read() as session:
                due = await early_close_due(session, phase_id)
        except Exception:
            log.exception("could not check whether phase %s may close early; the sweep will", phase_id)
            return None
        return await self.request_close(phase_id, reason="all_ready") if due else None

    async def request_close(self, phase_id: int, *, reason: str) -> CloseOutcome | None:
        """A close asked for in this process (not by a deadline job): run it now, and when it fails
        (the database is down, the adjudication raised) retry it with backoff (gm.delivery.scheduler) instead
        of leaving the phase open or adjudicating until the next restart."""
        try:
            return await self.close_phase(phase_id, reason=reason)
        except Exception:
            log.exception(
                "closing phase %s (%s) failed; retrying with backoff, or once the database is back",
                phase_id,
                reason,
            )
            self.scheduler.retry_later(phase_id)
            return None

    async def apply(self, follow_ups: FollowUps) -> CloseOutcome | None:
        """Carry out what a use case asked for after its commit (see gm.follow_ups); returns the
        close's
        outcome when a phase was closed."""
        for name in follow_ups.unschedule:
            self.scheduler.unschedule_phase(follow_ups.game_id, name)
        if follow_ups.schedule:
            settings = await self._settings(follow_ups.game_id)
            for info in follow_ups.schedule:
                self.scheduler.schedule_phase(
                    info.game_id,
                    info.id,
                    info.name,
                    info.deadline,
                    settings.reminder_hours,
                    info.opened_at,
                    catch_up=False,
                )
        if follow_ups.close_phase is not None:  # first: "being closed now" is true at once
            closed = await self.request_close(follow_ups.close_phase, reason=follow_ups.close_reason)
            if follow_ups.deliver:
                await self.deliver()
            return closed
        if follow_ups.game_ended:
            await self.publish_final(follow_ups.game_id)
        elif follow_ups.deliver:
            await self.deliver()
        if follow_ups.check_early_close is not None:
            return await self.players_changed(follow_ups.check_early_close)
        return None

    async def publish_final(self, game_id: int) -> ArchiveReport:
        """Make the final post's pictures (map, GIF) off the event loop, then send it."""
        report = await publish_final_post(self.sessions, game_id, executor=self._executor, clock=self._clock)
        await self.deliver()
        return report

    async def deliver(self) -> DeliveryReport | None:
        """Send queued messages (one delivery at a time in this process).

        A delivery that fails (the database went away while it held its claims) leaves those claims
        on the rows, leased for minutes: the next delivery of this process releases them first (no
        other of its deliveries can hold any then), and one is tried within seconds, then less and
        less often (:data:`DELIVERY_RETRY`), so the messages go out soon after the database is back
        instead of after the lease."""
        if self.sender is None:
            return None
        async with self._delivering:
            try:
                if self._claims_left:
                    released = await release_own_claims(self.sessions, self.process_name)
                    self._claims_left = False
                    if released:
                        log.info("took back %d messages a failed delivery had claimed", released)
                report = await deliver_pending(
                    self.sessions,
                    self.sender,
                    clock=self._clock,
                    ownership=self.ownership,
                    process=self.process_name,
                )
            except Exception:
                self._claims_left = True
                delay = DELIVERY_RETRY[min(self._failed_deliveries, len(DELIVERY_RETRY) - 1)]
                self._failed_deliveries += 1
                self.scheduler.deliver_soon(delay)
                raise
            self._failed_deliveries = 0
        self.last_delivery = report
        log_delivery(report)
        return report

    # --- closing ------------------------------------------------------------------------------

    async def close_at_deadline(self, phase_id: int, due: datetime) -> CloseOutcome:
        """A deadline job's close: nothing if the phase's deadline is no longer ``due`` (another
        process extended or paused the game; its own job, or this one's sweep, closes it later)."""
        return await self.close_phase(phase_id, due=due)

    async def close_phase(
        self, phase_id: int, *, reason: str = "deadline", due: datetime | None = None
    ) -> CloseOutcome:
        """Close a phase if it is open, then schedule the next one and post the results."""
        if due is not None and isinstance(self.closer, PhaseCloser):
            outcome = await self.closer.close(phase_id, reason=reason, due=due)
        else:
            outcome = await self.closer.close(phase_id, reason=reason)
        if outcome.extended is not None:  # grace moved the deadline instead: the new one's jobs
            await self._schedule(outcome.extended)
            await self.deliver()
            return outcome
        await self._after_close(outcome)
        return outcome

    async def _schedule(self, phase: PhaseInfo) -> None:
        settings = await self._settings(phase.game_id)
        self.scheduler.schedule_phase(
            phase.game_id,
            phase.id,
            phase.name,
            phase.deadline,
            settings.reminder_hours,
            phase.opened_at,
            catch_up=False,
        )

    async def finish_phase(self, phase_id: int) -> CloseOutcome:
        outcome = await self.closer.finish(phase_id)
        await self._after_close(outcome)
        return outcome

    async def _after_close(self, outcome: CloseOutcome) -> None:
        if not outcome.closed:
            return
        log_close(outcome)
        if self.on_close is not None:
            try:
                self.on_close(outcome)
            except Exception:
                log.exception("the close observer failed")
        self.scheduler.unschedule_phase(outcome.game_id, outcome.phase)
        if outcome.game_over:
            await self.publish_final(outcome.game_id)
            return
        nxt = outcome.next_phase
        if nxt is not None:
            if self.phases_opened is not None:
                self.phases_opened([outcome.game_id])
            settings = await self._settings(outcome.game_id)
            self.scheduler.schedule_phase(
                nxt.game_id,
                nxt.id,
                nxt.name,
                nxt.deadline,
                settings.reminder_hours,
                nxt.opened_at,
                catch_up=False,
            )
        await self.deliver()
        if nxt is not None and outcome.next_close_now:
            await self.close_phase(nxt.id, reason="all_ready")

    async def _settings(self, game_id: int) -> GameSettings:
        async with self.sessions.read() as session:
            game = await session.get(Game, game_id)
        return GameSettings.from_json(game.settings if game else {})


def log_close(outcome: CloseOutcome) -> None:
    """One line per closed phase: which, how long its adjudication and maps took, what comes next."""
    seconds = outcome.seconds or {}
    adjudication_ms = round(seconds.get("adjudicate", 0.0) * 1000, 1)
    render_ms = round(seconds.get("render", 0.0) * 1000, 1)
    nxt = (
        "the game is over"
        if outcome.game_over
        else f"next {outcome.next_phase.name}"
        if outcome.next_phase
        else ""
    )
    log.info(
        "phase closed: game %s %s, adjudication %.1f ms, maps %.1f ms; %s",
        outcome.game_id,
        outcome.phase,
        adjudication_ms,
        render_ms,
        nxt,
        extra={
            "event": "phase_closed",
            "game": outcome.game_id,
            "phase": outcome.phase,
            "adjudication_ms": adjudication_ms,
            "render_ms": render_ms,
            "game_over": outcome.game_over,
        },
    )


def log_delivery(report: DeliveryReport) -> None:
    """One line per delivery that did something or left a backlog; a warning when messages failed."""
    if not (report.sent or report.retrying or report.failed):
        return
    level = logging.WARNING if report.failed or report.retrying else logging.INFO
    log.log(
        level,
        "outbox: %d sent, %d to retry, %d given up; %d waiting%s",
        report.sent,
        report.retrying,
        report.failed,
        report.pending,
        f" (first error: {report.errors[0][:200]})" if report.errors else "",
        extra={
            "event": "outbox",
            "sent": report.sent,
            "retrying": report.retrying,
            "failed": report.failed,
            "backlog": report.pending,
        },
    )


async def _logged(work: Coroutine[Any, Any, Any], what: str) -> None:
    try:
        await work
    except Exception:
        log.exception("background work failed: %s", what)
