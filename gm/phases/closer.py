"""Closing a phase, exactly once.

1. **Claim** (a short transaction): ``UPDATE phase SET status='adjudicating' WHERE id=? AND
   status='open'``. Whoever does not change the row lost the race (another close, an early close, a
   double-fired job) and does nothing. From that commit on no order is accepted for the phase
   (submissions lock the phase row and check it is open), so the orders are frozen.
2. **Work**, off the event loop (a process pool, or a thread): adjudicate and render (gm.phases.worker); a
   worker process that dies is replaced and the work run again (gm.delivery.pool).
3. **Finish** (one transaction): ``UPDATE phase SET status='closed' ... WHERE id=? AND
   status='adjudicating'``, then the results, the maps, the next phase with its deadline, the
   missed-orders counters and the outbox messages, all committed together or not at all.

A crash after the claim leaves the phase ``adjudicating``; at start-up the scheduler calls
:meth:`PhaseCloser.finish` for such phases, which redoes steps 2 and 3 (adjudication is deterministic,
and step 3's compare-and-set makes a second finisher harmless). Among several processes a claim is
leased: its holder renews ``adjudication_started_at`` every few seconds (:meth:`PhaseCloser.heartbeat`),
and the owner of the game finishes a claim left unrenewed (its holder died; gm.delivery.scheduler).
A crash inside step 3 rolls it back entirely, with the same effect. The claim is its own
transaction, rather than the first statement of step 3's, so that no write lock is held while the
work runs (SQLite has one writer at a time) and so that a phase stops taking orders the moment its
deadline fires.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import GameStatus, PhaseRecord, PhaseStatus
from gm.clock import Clock, utcnow
from gm.delivery.pool import run_off_loop
from gm.phases import extensions, finishing
from gm.phases.contract import CloseAnswer, CloseRequest
from gm.phases.finishing import CloseOutcome, Hook
from gm.phases.requesting import read_request
from gm.phases.worker import close_work
from gm.reading.info import PhaseInfo
from gm.reading.lookup import lock_games
from gm.settings import GameSettings

__all__ = ["CloseFailed", "CloseHooks", "CloseOutcome", "PhaseCloser"]

log = logging.getLogger(__name__)

Work = Callable[[CloseRequest], CloseAnswer]
CLAIM_BATCH = 500  # phases claimed in one transaction at most
RUNNING = (GameStatus.ACTIVE, GameStatus.PAUSED)
DEADLINE = "deadline"  # the close reason of a deadline (where grace may extend it instead)
DUE_SLACK = timedelta(seconds=1)  # a deadline job closes a phase whose deadline is at most this much later


class CloseFailed(RuntimeError):
    """The adjudication or rendering raised; the phase was reopened and nothing was written."""


@dataclass(frozen=True, slots=True)
class CloseHooks:
    """Test seams: called with the phase id after the claim commits / just before the finish commits."""

    after_claim: Hook | None = None
    before_commit: Hook | None = None


class PhaseCloser:
    """Closes phases. One per process; safe to call concurrently for the same or different phases."""

    def __init__(
        self,
        session_factory: SessionFactory,
        *,
        executor: Executor | None = None,
        work: Work = close_work,
        render_maps: bool = True,
        clock: Clock = utcnow,
        max_concurrent: int = 4,
        hooks: CloseHooks | None = None,
    ) -> None:
        self._sessions = session_factory
        self._executor = executor
        self._work = work
        self._render = render_maps
        self._clock = clock
        self._slots = asyncio.Semaphore(max_concurrent)
        self._hooks = hooks or CloseHooks()
        self.active: set[int] = set()  # phases this process is closing or finishing right now
        # waiting to be claimed
        self._claims: list[tuple[int, str, datetime | None, asyncio.Future[int | PhaseInfo | None]]] = []
        self._claimer: asyncio.Task[None] | None = None

    async def close(
        self, phase_id: int, *, reason: str = "deadline", due: datetime | None = None
    ) -> CloseOutcome:
        """Claim the phase if it is open, then finish it. A no-op when it is not open, and, with
        ``due`` (the deadline a deadline job was scheduled for), when its deadline has moved later
        or gone since: another process extended or paused the game, and this job is stale."""
        self.active.add(phase_id)
        try:
            return await self._close(phase_id, reason, due)
        finally:
            self.active.discard(phase_id)

    async def _close(self, phase_id: int, reason: str, due: datetime | None = None) -> CloseOutcome:
        claimed = await self._claim(phase_id, reason, due)
        if isinstance(claimed, PhaseInfo):  # its deadline was extended by grace: not closed now
            return CloseOutcome(
                phase_id, claimed.game_id, claimed.name, closed=False, status=claimed.status, extended=claimed
            )
        if claimed is not None:
            if self._hooks.after_claim:
                await self._hooks.after_claim(phase_id)
            return await self._finish(phase_id)
        return await finishing.unclaimed(self._sessions, phase_id)

    async def finish(self, phase_id: int) -> CloseOutcome:
        """Adjudicate and write a phase that is ``adjudicating`` (claimed, or left so by a crash)."""
        self.active.add(phase_id)
        try:
            return await self._finish(phase_id)
        finally:
            self.active.discard(phase_id)

    async def _finish(self, phase_id: int) -> CloseOutcome:
        """The pipeline after the claim: the request read (gm.phases.requesting), the work run off
        the event loop (gm.phases.worker), the answer written (gm.phases.finishing)."""
        async with self._slots:
            request = await read_request(self._sessions, phase_id, render=self._render)
            if request is None:
                return await finishing.unclaimed(self._sessions, phase_id)
            try:
                answer = await run_off_loop(self._executor, self._work, request)
            except Exception as exc:
                log.exception("adjudicating phase %s failed; reopening it", phase_id)
                await finishing.reopen(self._sessions, phase_id)
                raise CloseFailed(f"phase {phase_id} could not be adjudicated: {exc!r}") from exc
            return await finishing.write(
                self._sessions, phase_id, answer, now=self._clock(), before_commit=self._hooks.before_commit
            )

    async def heartbeat(self) -> int:
        """Renew the lease of every claim this process holds (the phases it is closing or finishing
        that read ``adjudicating``): their ``adjudication_started_at`` becomes now, so that a sibling
        process takes over only the claims of a process that stopped renewing them (it died)
        (gm.delivery.scheduler.LEASE). Returns the phases renewed."""
        ids = sorted(self.active)
        if not ids:
            return 0
        async with self._sessions() as session:
            result = await session.exec(
                update(PhaseRecord)
                .where(col(PhaseRecord.id).in_(ids), col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
                .values(adjudication_started_at=self._clock())
                .execution_options(synchronize_session=False)
            )
            await session.commit()
        return int(result.rowcount or 0)

    # --- steps ------------------------------------------------------------------------------------

    async def _claim(self, phase_id: int, reason: str, due: datetime | None = None) -> int | PhaseInfo | None:
        """Step 1 for ``phase_id``: the phase id when this call claimed it, None when it was not open,
        the phase with its new deadline when, at a deadline, grace extended it instead
        (gm.phases.extensions).

        Claims asked for while one is being written wait for it and go together in the next
        transaction (:meth:`_claim_waiting`): at a deadline shared by a thousand games the claims
        take a few transactions instead of a thousand, and the first results are not queued behind
        all of them. Each phase is claimed by one caller at most, as with a claim of its own."""
        future: asyncio.Future[int | PhaseInfo | None] = asyncio.get_running_loop().create_future()
        self._claims.append((phase_id, reason, due, future))
        if self._claimer is None or self._claimer.done():
            self._claimer = asyncio.create_task(self._claim_waiting(), name="claiming phases")
        return await future

    async def _claim_waiting(self) -> None:
        while self._claims:
            batch, self._claims = self._claims[:CLAIM_BATCH], self._claims[CLAIM_BATCH:]
            asked = sorted({(pid, reason, due) for pid, reason, due, _ in batch}, key=lambda a: a[:2])
            try:
                claimed, stale = await self._claim_batch(asked)
            except Exception as exc:
                for _, _, _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for phase_id, _, due, future in batch:
                if future.done():  # its caller is gone (cancelled)
                    continue
                if due is not None and (phase_id, due) in stale:
                    future.set_result(None)  # a stale deadline job: not its to close
                    continue
                outcome = claimed.get(phase_id)
                future.set_result(phase_id if outcome is True else outcome or None)
                claimed.pop(phase_id, None)  # a second request for the same phase lost the race

    async def _claim_batch(
        self, asked: list[tuple[int, str, datetime | None]]
    ) -> tuple[dict[int, bool | PhaseInfo], set[tuple[int, datetime]]]:
        """Claim every open phase of ``asked`` (phase id, reason, due) in one transaction: True for
        each phase claimed, its :class:`PhaseInfo` for each deadline that grace extended instead; and
        the (phase id, due) of the stale deadline jobs (the phase's deadline is no longer ``due``)."""
        ids = sorted({phase_id for phase_id, _, _ in asked})
        async with self._sessions() as session:
            phases = (await session.exec(select(PhaseRecord).where(col(PhaseRecord.id).in_(ids)))).all()
            # The game rows are locked before their phases are claimed (in id order, as one use case
            # at a time locks them, so PostgreSQL never deadlocks), so that a vote or a moderator
            # ending a game (which lock it too) cannot end it between this check and the claim.
            games = await lock_games(session, sorted({p.game_id for p in phases}))
            running = {
                p.id for p in phases if (g := games.get(p.game_id)) is not None and g.status in RUNNING
            }
            now = self._clock()
            claimed: dict[int, bool | PhaseInfo] = {}
            by_id = {p.id: p for p in phases}
            reasons: dict[str, list[int]] = {}
            stale: set[tuple[int, datetime]] = set()
            refreshed: set[int] = set()
            for phase_id, reason, due in asked:
                if phase_id not in running or phase_id in claimed:
                    continue
                game = games[by_id[phase_id].game_id]
                if due is not None:
                    phase = by_id[phase_id]
                    if phase_id not in refreshed:
                        await session.refresh(phase)  # as it is now that the game is locked
                        refreshed.add(phase_id)
                    if phase.deadline is None or phase.deadline > due + DUE_SLACK:
                        stale.add((phase_id, due))
                        continue
                if reason == DEADLINE and GameSettings.from_json(game.settings).grace.on:
                    phase = by_id[phase_id]
                    await session.refresh(phase)  # as it is now that the game is locked
                    if await extensions.grant_grace(session, game, phase, now=now) is not None:
                        claimed[phase_id] = PhaseInfo.of(phase)
                        continue
                claimed[phase_id] = False  # asked for: claimed below if still open
                reasons.setdefault(reason, []).append(phase_id)
            for reason, phase_ids in reasons.items():
                result = await session.exec(
                    update(PhaseRecord)
                    .where(col(PhaseRecord.id).in_(phase_ids), col(PhaseRecord.status) == PhaseStatus.OPEN)
                    .values(
                        status=PhaseStatus.ADJUDICATING,
                        adjudication_started_at=now,
                        # a moderator's request recorded on the open phase keeps its name
                        close_reason=func.coalesce(col(PhaseRecord.close_reason), reason),
                    )
                    .returning(col(PhaseRecord.id))
                    .execution_options(synchronize_session=False)
                )
                claimed.update((int(i), True) for i in result.scalars())
            await session.commit()
        return claimed, stale
