"""Absent players at a deadline (gm.rules.absences): a deadline that falls inside the declared absence
of a player who must act in the phase moves to after their return, once per absence, and the game
channel is told where it went without naming who is away.

:func:`absence_move` is called wherever a phase gets its deadline (the start, each close, a rollback
reopening a phase, a moderator's resume) and when an absence is declared for the phase under way;
it changes the phase's deadline in the caller's transaction and marks the absences it used.
:func:`announce_move` queues the announcement (after the caller's own messages about the phase).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import AbsenceRecord, Game, PhaseRecord, PhaseStatus
from engine import Phase
from gm.delivery.outbox import Target, enqueue
from gm.game_log import log_event
from gm.messages import payloads as say
from gm.messages.kinds import DeadlineMoved
from gm.ordering.progress import phase_state
from gm.rules.absences import Absence, AbsenceMove, announcement_text, move_for_absences
from gm.settings import GameSettings, deadline_zone


def absence_of(row: AbsenceRecord) -> Absence:
    return Absence(user_id=row.user_id, first_day=row.first_day, last_day=row.last_day, id=row.id)


async def standing_absences(session: AsyncSession, game_id: int) -> list[AbsenceRecord]:
    """The game's absences that were not cancelled, oldest first."""
    rows = await session.exec(
        select(AbsenceRecord)
        .where(AbsenceRecord.game_id == game_id, col(AbsenceRecord.cancelled_at).is_(None))
        .order_by(col(AbsenceRecord.id))
    )
    return list(rows.all())


async def acting_users(session: AsyncSession, game: Game, phase: PhaseRecord) -> set[int]:
    """The users who must act in ``phase``: an active player of a power with something to order."""
    state = await phase_state(session, phase, game.variant)
    acting = set()
    for power, duty in state.duties.items():
        player = state.player_of.get(power)
        if duty.has_work and state.active(power) and player is not None:
            acting.add(player.user_id)
    return acting


async def absence_move(
    session: AsyncSession, game: Game, phase: PhaseRecord, *, now: datetime
) -> AbsenceMove | None:
    """Move the open ``phase``'s deadline past the unused absences of the players who must act in it
    (and mark those absences used, and log it); None when no absence covers the deadline."""
    if phase.deadline is None or phase.status != PhaseStatus.OPEN:
        return None
    rows = await standing_absences(session, game.row_id)
    if not rows:
        return None
    settings = GameSettings.from_json(game.settings)
    move = move_for_absences(
        phase.deadline,
        [absence_of(r) for r in rows],
        acting=await acting_users(session, game, phase),
        used=[absence_of(r) for r in rows if r.used_phase_id is not None],
        kind=Phase.parse(phase.name).kind,
        lengths=settings,
        schedule=settings.deadlines,
        zone=settings.zone,
    )
    if move is None:
        return None
    before = phase.deadline
    phase.deadline = move.deadline
    used = {a.id for a in move.absences}
    for row in rows:
        if row.id in used:
            row.used_phase_id, row.used_at = phase.id, now
    log_event(
        session,
        game.row_id,
        "absence_move",
        at=now,
        detail={
            "phase": phase.name,
            "before": before.isoformat(),
            "after": move.deadline.isoformat(),
            "absences": sorted(i for i in used if i is not None),
        },
    )
    return move


def announce_move(
    session: AsyncSession, game: Game, phase: PhaseRecord, move: AbsenceMove, *, now: datetime
) -> None:
    """Tell the game channel that the deadline moved for an absence (its dates, not its player)."""
    zone = deadline_zone(game)
    announce_deadline(
        session,
        game,
        phase,
        what="moves",
        line=announcement_text(move, zone or "UTC"),
        deadline=move.deadline,
        reason="absence",
        key=f"absence_move:{phase.id}:{','.join(str(a.id) for a in move.absences)}",
        now=now,
    )


def announce_deadline(
    session: AsyncSession,
    game: Game,
    phase: PhaseRecord,
    *,
    what: str,
    line: str,
    deadline: datetime | None,
    reason: str,
    key: str,
    now: datetime,
) -> None:
    """Queue the game channel's notice that ``phase``'s deadline ``what`` (moves, is extended) to
    ``deadline`` for ``reason`` (absence, grace), naming nobody."""
    enqueue(
        session,
        DeadlineMoved(
            game_id=game.row_id,
            game_name=game.name,
            title=f"{game.name}: the {say.long_name(phase.name)} deadline {what}",
            lines=[line],
            phase=phase.name,
            deadline=deadline,
            deadline_zone=deadline_zone(game),
            reason=reason,
        ),
        phase_id=phase.id,
        target=Target.game_channel(),
        key=key,
        now=now,
    )
