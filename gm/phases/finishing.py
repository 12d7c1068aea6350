"""Step 3 of a close (gm.phases.closer): the worker's answer written in one transaction, as named
steps.

:func:`write` starts with the compare-and-set that marks the phase closed (another finisher that won
it leaves this one nothing to write), then: the next phase opens (:func:`_open_next_phase`), the maps
are stored (:func:`_store_maps`), the results and the calls to order are queued
(gm.phases.announcing), an absence may move the new deadline (gm.phases.absent), missed orders are
counted and eliminations found (gm.phases.disorder), open votes lapse (gm.endings.votes), a coin
flip may give a seat away (gm.phases.coin), the results are stored (:func:`_store_results`), the
players fallen into civil disorder are announced (gm.phases.disorder), the game may end
(gm.endings.ending), and the new phase may close at once (:func:`_can_close_early`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import col

from db.database import SessionFactory
from db.models import GameStatus, PhaseMap, PhaseRecord, PhaseStatus, Player
from engine import Phase
from engine.variants import get_variant
from gm.endings import ending, votes
from gm.game_log import log_event
from gm.messages.maps import FINAL_MAP, POSITION_MAP, fog_view
from gm.ordering.progress import opening_state, phase_state
from gm.phases import absent, coin, disorder
from gm.phases import results as outcome
from gm.phases.announcing import announce
from gm.phases.contract import CloseAnswer
from gm.phases.disorder import Bookkeeping
from gm.phases.results import ClosedPhase
from gm.reading.info import PhaseInfo
from gm.reading.lookup import lock_game
from gm.settings import GameSettings

log = logging.getLogger(__name__)

Hook = Callable[[int], Awaitable[None]]


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


async def write(
    sessions: SessionFactory,
    phase_id: int,
    answer: CloseAnswer,
    *,
    now: datetime,
    before_commit: Hook | None = None,
) -> CloseOutcome:
    """Step 3 in one transaction, committed here: all of it, or (another finisher won its
    compare-and-set) nothing."""
    async with sessions() as session:
        written = await write_results(session, phase_id, answer, now)
        if written is not None:
            await session.flush()
            if before_commit:
                await before_commit(phase_id)
            await session.commit()
    return written if written is not None else await unclaimed(sessions, phase_id)


async def unclaimed(sessions: SessionFactory, phase_id: int) -> CloseOutcome:
    """The outcome of a close that had nothing to do: the phase as it stands."""
    async with sessions.read() as session:
        phase = await session.get(PhaseRecord, phase_id)
    if phase is None:
        return CloseOutcome(phase_id, 0, "", closed=False, status="missing")
    return CloseOutcome(phase_id, phase.game_id, phase.name, closed=False, status=str(phase.status))


async def reopen(sessions: SessionFactory, phase_id: int) -> None:
    """Give a claimed phase back (its work failed): open again, orders taken."""
    async with sessions() as session:
        await session.exec(
            update(PhaseRecord)
            .where(col(PhaseRecord.id) == phase_id, col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
            .values(status=PhaseStatus.OPEN, adjudication_started_at=None, close_reason=None)
        )
        await session.commit()


async def write_results(
    session: Any, phase_id: int, answer: CloseAnswer, now: datetime
) -> CloseOutcome | None:
    """Step 3's writes, starting with its compare-and-set; None when another finisher won: then
    nothing is written, and :func:`write` ends the transaction without a commit."""
    closed = await _read_closing(session, phase_id, answer, now)
    if not await _mark_closed(session, phase_id, now):  # somebody else finished it first
        return None
    closed = replace(closed, next_phase=await _open_next_phase(session, closed))
    game, next_phase, book = closed.game, closed.next_phase, Bookkeeping()
    moved = await absent.absence_move(session, game, next_phase, now=now) if next_phase else None
    _store_maps(session, closed)
    # The results go out first; what they set off (lapsed votes, a coin flip, civil disorder)
    # follows them in the outbox, which sends each target's messages in the order written.
    announce(session, closed)
    if moved is not None and next_phase is not None:
        absent.announce_move(session, game, next_phase, moved, now=now)
    after = closed.settings.civil_disorder_after
    fallen = await disorder.count_missed(
        session, game.row_id, closed.state, closed.missed, civil_disorder_after=after, book=book
    )
    gone = await disorder.eliminate(session, game.row_id, answer.next_board, book)
    await votes.lapse_open_proposals(session, game, closed.phase, now)
    flip = get_variant(game.variant).coin_flip
    if next_phase is not None and flip is not None:
        await coin.apply(session, game, flip, closed.phase, next_phase.name, now, book)
    await _store_results(session, closed, book)
    if next_phase is not None:
        await disorder.announce_missed_runs(session, game, fallen, after=after, phase_id=phase_id, now=now)
    _log_eliminations(session, closed, gone)
    if closed.game_over is not None:
        final_map = ending.final_map_of(closed.phase, at_close=True)
        await ending.finish_game(session, game, closed.phase, closed.game_over, now=now, final_map=final_map)
    return CloseOutcome(
        phase_id=phase_id,
        game_id=game.row_id,
        phase=closed.phase.name,
        closed=True,
        status=str(PhaseStatus.CLOSED),
        next_phase=PhaseInfo.of(next_phase) if next_phase else None,
        game_over=closed.game_over is not None,
        winner=closed.result.get("winner") or (closed.game_over or {}).get("winner"),
        next_close_now=await _can_close_early(session, closed, coin_flipped=flip is not None),
        seconds=answer.seconds.as_dict(),
        deadline=closed.phase.deadline,
    )


async def _read_closing(session: Any, phase_id: int, answer: CloseAnswer, now: datetime) -> ClosedPhase:
    """The phase, its game locked, its seats and orders, and what the answer means for them."""
    phase = await session.get(PhaseRecord, phase_id)
    assert phase is not None
    for power, why in sorted(answer.built_in.failed.items()):
        log.warning(
            "built-in player failed for %s in game %s %s; it holds in civil disorder this phase: %s",
            power,
            phase.game_id,
            phase.name,
            why,
        )
    # Lock the game row first, as every use case that changes a running game does (gm.moderation.actions,
    # gm.endings.votes, gm.moderation.rollback): the same lock order and strength everywhere
    # (gm.reading.lookup), so PostgreSQL never deadlocks.
    game = await lock_game(session, phase.game_id)
    assert game is not None
    powers = get_variant(game.variant).game_map().powers
    settings = GameSettings.from_json(game.settings)
    state = await phase_state(session, phase, game.variant)
    result, next_board = answer.result, answer.next_board
    winner = result.get("winner")
    end_kind = "solo" if winner else _short_game_over(result.get("next_phase"), settings)
    return ClosedPhase(
        game=game,
        settings=settings,
        phase=phase,
        state=state,
        answer=answer,
        change=outcome.changes(phase.board, result, next_board),
        counts=ending.center_counts(next_board, powers),
        missed=outcome.who_missed(state),
        game_over=(
            ending.make_result(end_kind, next_board, powers, phase_name=phase.name, winner=winner)
            if end_kind
            else None
        ),
        now=now,
    )


async def _mark_closed(session: Any, phase_id: int, now: datetime) -> bool:
    """The compare-and-set: ``adjudicating`` -> ``closed``; False when another finisher won it."""
    claimed = await session.exec(
        update(PhaseRecord)
        .where(col(PhaseRecord.id) == phase_id, col(PhaseRecord.status) == PhaseStatus.ADJUDICATING)
        .values(status=PhaseStatus.CLOSED, closed_at=now)
    )
    return bool(claimed.rowcount == 1)


async def _open_next_phase(session: Any, closed: ClosedPhase) -> PhaseRecord | None:
    """The phase that follows, with its deadline (none while the game is paused: it keeps its whole
    length for when the clock starts again); None when the game is over."""
    next_name: str | None = closed.result.get("next_phase")
    if closed.game_over is not None or next_name is None:
        return None
    settings, now = closed.settings, closed.now
    kind = Phase.parse(next_name).kind
    paused = closed.game.status == GameStatus.PAUSED
    next_phase = PhaseRecord(
        game_id=closed.game.row_id,
        ordinal=closed.phase.ordinal + 1,
        name=next_name,
        board=closed.answer.next_board,
        adjustments=(closed.result.get("adjustments") or None) if kind == "A" else None,
        deadline=None if paused else settings.deadline_for(kind, now),
        # paused: the phase's whole length when the clock starts again (None: a fresh
        # fixed-time deadline then, gm.moderation.actions.resume_game)
        remaining_seconds=_full_length(settings, kind) if paused else None,
        opened_at=now,
    )
    session.add(next_phase)
    await session.flush()
    return next_phase


def _store_maps(session: Any, closed: ClosedPhase) -> None:
    """The phase's maps: the orders maps with the phase, the position map (and each power's view of
    it) with the next phase, or as the final position when the game is over."""
    phase_id, next_phase = closed.phase.row_id, closed.next_phase
    for kind, png in closed.answer.maps.items():
        if kind == POSITION_MAP:  # the map the next phase opens with (or the final position)
            owner, kind = (next_phase.row_id, kind) if next_phase else (phase_id, FINAL_MAP)
        elif (view := fog_view(kind)) is not None and view[0] == POSITION_MAP:  # a power's view of it
            if next_phase is None:
                continue
            owner = next_phase.row_id
        else:
            owner = phase_id
        session.add(PhaseMap(phase_id=owner, kind=kind, png=png, created_at=closed.now))


async def _store_results(session: Any, closed: ClosedPhase, book: Bookkeeping) -> None:
    """The phase's results as stored: the engine's, the board after, what changed, who missed, the
    end, what the close changed on players (for a rollback) and the powers the built-in player played."""
    await session.exec(
        update(PhaseRecord)
        .where(col(PhaseRecord.id) == closed.phase.row_id)
        .values(
            results={
                **closed.result,
                "board_after": closed.answer.next_board,
                "changes": closed.change,
                "missed": closed.missed.to_json(),
                "game_over": closed.game_over,
                "bookkeeping": book.to_json(),
                "built_in": list(closed.answer.built_in.played),
            }
        )
    )


def _log_eliminations(session: Any, closed: ClosedPhase, gone: list[tuple[Player, list[str]]]) -> None:
    for player, mine in gone:
        log_event(
            session,
            closed.game.row_id,
            "eliminated",
            at=closed.now,
            detail={"powers": mine, "user_id": player.user_id, "phase": closed.phase.name},
        )


async def _can_close_early(session: Any, closed: ClosedPhase, *, coin_flipped: bool) -> bool:
    """The next phase can close at once: only absent powers must act in it."""
    next_phase = closed.next_phase
    if next_phase is None:
        return False
    game = closed.game
    next_state = (  # the seats are the ones read above, unless a coin flip gave one away
        await phase_state(session, next_phase, game.variant)
        if coin_flipped
        else opening_state(next_phase, game.variant, closed.state.player_of)
    )
    return next_phase.deadline is not None and next_state.can_close_early()


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
