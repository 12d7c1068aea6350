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
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, update
from sqlmodel import col, select

from db.database import SessionFactory
from db.models import (
    Game,
    GameStatus,
    PhaseMap,
    PhaseRecord,
    PhaseStatus,
)
from engine import Board, Phase
from engine.variants import game_map, get_variant
from gm.builtin import orders as builtin_orders
from gm.builtin import seats as builtin_seats
from gm.builtin import talks as builtin_talks
from gm.clock import Clock, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.delivery.pool import run_off_loop
from gm.endings import ending, votes
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.maps import FINAL_MAP, POSITION_MAP, fog_view
from gm.ordering.progress import PhaseState, opening_state, phase_state
from gm.phases import absent, coin, disorder, extensions
from gm.phases import fogged as fog
from gm.phases import results as outcome
from gm.phases.disorder import Bookkeeping
from gm.phases.worker import close_work
from gm.reading.info import PhaseInfo
from gm.reading.lookup import lock_game, lock_games
from gm.settings import NOTIFY_CHANNEL, NOTIFY_DM, NOTIFY_NONE, GameSettings, deadline_zone, notify_choice

log = logging.getLogger(__name__)

Work = Callable[[dict[str, Any]], dict[str, Any]]
Hook = Callable[[int], Awaitable[None]]
CLAIM_BATCH = 500  # phases claimed in one transaction at most
RUNNING = (GameStatus.ACTIVE, GameStatus.PAUSED)
DEADLINE = "deadline"  # the close reason of a deadline (where grace may extend it instead)
DUE_SLACK = timedelta(seconds=1)  # a deadline job closes a phase whose deadline is at most this much later
MEMORY_PHASES = (
    8  # the latest phases whose bounces the built-in player remembers (about three movement phases)
)


class CloseFailed(RuntimeError):
    """The adjudication or rendering raised; the phase was reopened and nothing was written."""


@dataclass(frozen=True, slots=True)
class CloseOutcome:
    phase_id: int
    game_id: int
    phase: str
    closed: bool  # True when this call closed the phase; False when it was not ours to close
    status: str  # the phase's status after the call
    next_phase: PhaseInfo | None = None
    game_over: bool = False
    winner: str | None = None
    next_close_now: bool = False  # the new phase can close at once (only absent powers must act)
    seconds: dict[str, float] | None = None
    # Not closed: its deadline was extended by grace instead (gm.phases.extensions), to this phase
    extended: PhaseInfo | None = None
    deadline: datetime | None = None  # the closed phase's deadline (how late the close ran: metrics)


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
        if claimed is None:
            return await self._unclaimed(phase_id)
        if self._hooks.after_claim:
            await self._hooks.after_claim(phase_id)
        return await self._finish(phase_id)

    async def finish(self, phase_id: int) -> CloseOutcome:
        """Adjudicate and write a phase that is ``adjudicating`` (claimed, or left so by a crash)."""
        self.active.add(phase_id)
        try:
            return await self._finish(phase_id)
        finally:
            self.active.discard(phase_id)

    async def _finish(self, phase_id: int) -> CloseOutcome:
        async with self._slots:
            request = await self._request(phase_id)
            if request is None:
                return await self._unclaimed(phase_id)
            try:
                answer = await run_off_loop(self._executor, self._work, request)
            except Exception as exc:
                log.exception("adjudicating phase %s failed; reopening it", phase_id)
                await self._reopen(phase_id)
                raise CloseFailed(f"phase {phase_id} could not be adjudicated: {exc!r}") from exc
            return await self._write(phase_id, answer)

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

    async def _request(self, phase_id: int) -> dict[str, Any] | None:
        async with self._sessions.read() as session:
            phase = await session.get(PhaseRecord, phase_id)
            if phase is None or phase.status != PhaseStatus.ADJUDICATING:
                return None
            game = await session.get(Game, phase.game_id)
            assert game is not None
            state = await phase_state(session, phase, game.variant)
            built_in = await builtin_seats.built_in_powers(session, game)
            history: list[tuple[dict[str, Any], dict[str, Any]]] = []
            if built_in and phase.name.endswith("M"):
                earlier = await session.exec(
                    select(PhaseRecord)
                    .where(col(PhaseRecord.game_id) == game.id, col(PhaseRecord.ordinal) < phase.ordinal)
                    .order_by(col(PhaseRecord.ordinal).desc())
                    .limit(MEMORY_PHASES)
                )
                history = [
                    (p.board, p.results)
                    for p in reversed(earlier.all())
                    if p.results and p.name.endswith("M")
                ]
        played = get_variant(game.variant)
        settings = GameSettings.from_json(game.settings)
        disorder = state.civil_disorder()
        fogged = GameSettings.from_json(game.settings).fogged
        return {
            "variant": game.variant,
            "map": played.map_name,
            "board": phase.board,
            "orders": {p: list(texts.values()) for p, texts in state.orders.items() if texts},
            "civil_disorder": sorted(disorder),
            # the built-in player's powers (inactive, so among those above until it gives their orders)
            "built_in": sorted(built_in & disorder),
            "seed": game.row_id,
            "builtin_level": settings.builtin_level,
            # what the built-in player remembers: its moves that bounced into empty provinces lately
            "bounced": builtin_orders.bounce_memory(history, game.variant) if history else {},
            "victory_centers": played.victory_centers,
            "last_year": settings.last_year,
            "render": self._render,
            "fog": fog.fog_powers(state) if fogged else [],  # each one's own view, drawn too
            "fogged": fogged,  # the built-in player sees what its powers see
        }

    async def _reopen(self, phase_id: int) -> None:
        async with self._sessions() as session:
            await session.exec(
                update(PhaseRecord)
                .where(col(PhaseRecord.id) == phase_id, col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
                .values(status=PhaseStatus.OPEN, adjudication_started_at=None, close_reason=None)
            )
            await session.commit()

    async def _unclaimed(self, phase_id: int) -> CloseOutcome:
        async with self._sessions.read() as session:
            phase = await session.get(PhaseRecord, phase_id)
        if phase is None:
            return CloseOutcome(phase_id, 0, "", closed=False, status="missing")
        return CloseOutcome(phase_id, phase.game_id, phase.name, closed=False, status=str(phase.status))

    async def _write(self, phase_id: int, answer: dict[str, Any]) -> CloseOutcome:
        """Step 3 in one transaction, committed here: all of it, or (another finisher won its
        compare-and-set) nothing."""
        async with self._sessions() as session:
            written = await self._write_results(session, phase_id, answer)
            if written is not None:
                await session.flush()
                if self._hooks.before_commit:
                    await self._hooks.before_commit(phase_id)
                await session.commit()
        return written if written is not None else await self._unclaimed(phase_id)

    async def _write_results(
        self, session: Any, phase_id: int, answer: dict[str, Any]
    ) -> CloseOutcome | None:
        """Step 3's writes, starting with its compare-and-set; None when another finisher won: then
        nothing is written, and :meth:`_write` ends the transaction without a commit."""
        now = self._clock()
        result, next_board_json = answer["result"], answer["next_board"]
        phase = await session.get(PhaseRecord, phase_id)
        assert phase is not None
        built_in = answer.get("built_in") or {}
        for power, why in sorted((built_in.get("failed") or {}).items()):
            log.warning(
                "built-in player failed for %s in game %s %s; it holds in civil disorder this phase: %s",
                power,
                phase.game_id,
                phase.name,
                why,
            )
        # Lock the game row first, as every use case that changes a running game does (gm.moderation.actions,
        # gm.endings.votes, gm.moderation.rollback): the same lock order and strength everywhere
        # (gm.reading.lookup), so
        # PostgreSQL never deadlocks.
        game = await lock_game(session, phase.game_id)
        assert game is not None
        game_id = game.row_id
        played = get_variant(game.variant)
        powers = played.game_map().powers
        settings = GameSettings.from_json(game.settings)
        state = await phase_state(session, phase, game.variant)
        missed = outcome.who_missed(state)
        change = outcome.changes(phase.board, result, next_board_json)
        counts = ending.center_counts(next_board_json, powers)
        next_name: str | None = result.get("next_phase")
        winner = result.get("winner")
        end_kind = "solo" if winner else _short_game_over(next_name, settings)
        game_over = (
            ending.make_result(end_kind, next_board_json, powers, phase_name=phase.name, winner=winner)
            if end_kind
            else None
        )
        book = Bookkeeping()

        claimed = await session.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id) == phase_id, col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
            .values(status=PhaseStatus.CLOSED, closed_at=now)
        )
        if claimed.rowcount != 1:  # somebody else finished it first
            return None

        next_phase: PhaseRecord | None = None
        if game_over is None and next_name is not None:
            kind = Phase.parse(next_name).kind
            paused = game.status == GameStatus.PAUSED
            deadline = settings.deadline_for(kind, now)
            next_phase = PhaseRecord(
                game_id=game_id,
                ordinal=phase.ordinal + 1,
                name=next_name,
                board=next_board_json,
                adjustments=(result.get("adjustments") or None) if kind == "A" else None,
                deadline=None if paused else deadline,
                # paused: the phase's whole length when the clock starts again (None: a fresh
                # fixed-time deadline then, gm.moderation.actions.resume_game)
                remaining_seconds=_full_length(settings, kind) if paused else None,
                opened_at=now,
            )
            session.add(next_phase)
            await session.flush()
        moved = await absent.absence_move(session, game, next_phase, now=now) if next_phase else None
        for kind, png in answer.get("maps", {}).items():
            if kind == POSITION_MAP:  # the map the next phase opens with (or the final position)
                owner, kind = (next_phase.row_id, kind) if next_phase else (phase_id, FINAL_MAP)
            elif (view := fog_view(kind)) is not None and view[0] == POSITION_MAP:  # a power's view of it
                if next_phase is None:
                    continue
                owner = next_phase.row_id
            else:
                owner = phase_id
            session.add(PhaseMap(phase_id=owner, kind=kind, png=png, created_at=now))
        # The results go out first; what they set off (lapsed votes, a coin flip, civil disorder)
        # follows them in the outbox, which sends each target's messages in the order written.
        _announce(session, game, phase, next_phase, state, answer, change, counts, missed, game_over, now)
        if moved is not None and next_phase is not None:
            absent.announce_move(session, game, next_phase, moved, now=now)
        fallen = await disorder.count_missed(
            session, game_id, state, missed, civil_disorder_after=settings.civil_disorder_after, book=book
        )
        gone = await disorder.eliminate(session, game_id, next_board_json, book)
        await votes.lapse_open_proposals(session, game, phase, now)
        if next_phase is not None and played.coin_flip is not None:
            await coin.apply(session, game, played.coin_flip, phase, next_phase.name, now, book)

        await session.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id) == phase_id)
            .values(
                results={
                    **result,
                    "board_after": next_board_json,
                    "changes": change,
                    "missed": missed.to_json(),
                    "game_over": game_over,
                    "bookkeeping": book.to_json(),
                    "built_in": built_in.get("played") or [],  # the powers the built-in player played
                }
            )
        )
        if next_phase is not None:  # one announcement (one moderator alert) for everyone fallen now
            after = settings.civil_disorder_after
            robot = await builtin_seats.built_in_powers(session, game) if fallen else frozenset()
            disorder.announce_civil_disorder(
                session,
                game,
                [
                    disorder.Fallen(
                        user_id=player.user_id,
                        powers=mine,
                        why=f"[[user:{player.user_id}]] sent no orders for {say.powers_text(mine)} "
                        f"{missed_runs(after)}.",
                        why_you=f"You sent no orders for {say.powers_text(mine)} {missed_runs(after)}.",
                    )
                    for player, mine in sorted(fallen, key=lambda fell: powers.index(fell[1][0]))
                ],
                key=f"civil_disorder:{phase_id}",
                now=now,
                phase_id=phase_id,
                built_in=bool(fallen) and all(p in robot for _, mine in fallen for p in mine),
            )
            for player, mine in fallen:  # their rivals learn it where they talk to them
                if set(mine) <= robot:
                    await builtin_talks.tell_seat_talks(
                        session,
                        game,
                        mine,
                        builtin_talks.taken_by_it(mine, absent=player.user_id),
                        user_id=None,
                        key=f"civil_disorder:{phase_id}:{player.id}:talks",
                        now=now,
                        phase_id=phase_id,
                    )
        for player, mine in gone:
            log_event(
                session,
                game_id,
                "eliminated",
                at=now,
                detail={"powers": mine, "user_id": player.user_id, "phase": phase.name},
            )
        if game_over is not None:
            await ending.finish_game(
                session, game, phase, game_over, now=now, final_map=ending.final_map_of(phase, at_close=True)
            )
        next_close_now = False
        if next_phase is not None:
            next_state = (  # the seats are the ones read above, unless a coin flip gave one away
                opening_state(next_phase, game.variant, state.player_of)
                if played.coin_flip is None
                else await phase_state(session, next_phase, game.variant)
            )
            next_close_now = next_phase.deadline is not None and next_state.can_close_early()
        return CloseOutcome(
            phase_id=phase_id,
            game_id=game_id,
            phase=phase.name,
            closed=True,
            status=str(PhaseStatus.CLOSED),
            next_phase=PhaseInfo.of(next_phase) if next_phase else None,
            game_over=game_over is not None,
            winner=winner or (game_over or {}).get("winner"),
            next_close_now=next_close_now,
            seconds=answer.get("seconds"),
            deadline=phase.deadline,
        )


def _announce(
    session: Any,
    game: Game,
    phase: PhaseRecord,
    next_phase: PhaseRecord | None,
    state: PhaseState,
    answer: dict[str, Any],
    change: dict[str, Any],
    counts: dict[str, int],
    missed: outcome.Missed,
    game_over: dict[str, Any] | None,
    now: datetime,
) -> None:
    """Queue the results for the game channel, then the call to order for every power that must act
    in the next phase (in its private channel), or the end of the game."""
    if GameSettings.from_json(game.settings).fogged:  # each player's own results (gm.phases.fogged)
        fog.announce(session, game, phase, next_phase, state, answer, change, counts, missed, game_over, now)
        if next_phase is not None:
            queue_calls_to_order(session, game, next_phase, state, now)
        return
    game_id = game.row_id
    phase_id = phase.row_id
    result = answer["result"]
    next_ref = (next_phase.row_id, next_phase.name, next_phase.deadline) if next_phase else None
    results = outcome.results_payload(
        game_id=game_id,
        game_name=game.name,
        phase_id=phase_id,
        phase_name=phase.name,
        result=result,
        change=change,
        counts=counts,
        missed=missed,
        next_phase=next_ref,
        maps=list(answer.get("maps", {})),
        game_over=game_over,
    )
    played = (answer.get("built_in") or {}).get("played") or []
    enqueue(
        session,
        replace(results, deadline_zone=deadline_zone(game), built_in=played),
        phase_id=phase_id,
        target=Target.game_channel(),
        key=f"phase_results:{phase_id}",
        now=now,
    )
    if next_phase is None:
        return  # the final post comes from gm.endings.ending
    queue_calls_to_order(session, game, next_phase, state, now)


def queue_calls_to_order(
    session: Any,
    game: Game,
    phase: PhaseRecord,
    state: PhaseState,
    now: datetime,
    *,
    reopened: bool = False,
    key_suffix: str = "",
) -> None:
    """Queue the phase's call to order in the private channel of every power that must act in it and
    whose player is active in ``state``; ``reopened`` marks the calls of a phase a rollback reopened."""
    board = Board.from_json(phase.board, game_map(game.variant))
    calls = outcome.opened_payloads(
        game_id=game.row_id,
        game_name=game.name,
        board=board,
        adjustments=phase.adjustments,
        deadline=phase.deadline,
        before=None if reopened else state.board,
    )
    notified: set[int] = set()  # a player of several powers is mentioned once, on the first call
    anonymous = GameSettings.from_json(game.settings).anonymous
    for power, call in calls.items():
        if state.active(power):
            player = state.player_of.get(power)
            choice = notify_choice(player.notify if player is not None else None)
            if choice == NOTIFY_CHANNEL and anonymous:  # a mention in the channel would stay there for
                choice = NOTIFY_DM  # whoever takes the seat later to read (gm.anonymity): by DM instead
            user_id = player.user_id if player is not None else None
            target = Target.power_channel(power)
            if choice == NOTIFY_DM and user_id is not None:
                target = Target.user(user_id)
            ping = user_id if choice != NOTIFY_NONE and user_id not in notified else None
            if ping is not None:
                notified.add(ping)
            enqueue(
                session,
                replace(call, reopened=reopened, ping_user_id=ping, deadline_zone=deadline_zone(game)),
                phase_id=phase.id,
                target=target,
                key=f"phase_opened:{phase.id}:{power}{key_suffix}",
                now=now,
            )


def _full_length(settings: GameSettings, kind: str) -> int | None:
    """The seconds a phase that opens while the game is paused has once it resumes; None with a
    deadline schedule (the phase then closes at the schedule's time, counted from the resume)."""
    return None if settings.deadlines is not None else settings.phase_minutes(kind) * 60


def _short_game_over(next_name: str | None, settings: GameSettings) -> str | None:
    """'last_year' when a short game has played its last Fall, else None."""
    if settings.last_year is None or next_name is None:
        return None
    nxt = Phase.parse(next_name)
    if nxt.year > settings.last_year or (nxt.year == settings.last_year and nxt.kind == "A"):
        return "last_year"
    return None


def missed_runs(after: int) -> str:
    """``in the last movement phase``, ``for 3 movement phases in a row``: the run that puts a player
    in civil disorder."""
    return "in the last movement phase" if after == 1 else f"for {after} movement phases in a row"
