"""Grace at a deadline (gm.rules.grace): when a game grants grace and a player who must act has sent
nothing and never missed a phase, the deadline is extended once, instead of closing the phase.

:func:`grant_grace` runs in the closer's claim transaction (gm.phases.closer), with the game row
locked, for a close that a deadline asked for (never an early close or a moderator's); it records one
use per qualifying player, moves the deadline (then past any absence it lands in) and tells the game
channel that the deadline was extended, without naming who or what was missing.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, GraceUse, PhaseRecord, PhaseStatus
from gm.game_log import log_event
from gm.ordering.progress import phase_state
from gm.phases import absent
from gm.rules import grace
from gm.settings import GameSettings


async def grace_seats(session: AsyncSession, game: Game, phase: PhaseRecord) -> list[grace.GraceSeat]:
    """Every player holding a power in ``phase``, as grace sees them."""
    state = await phase_state(session, phase, game.variant)
    seats: dict[int, dict[str, object]] = {}
    for power, player in state.player_of.items():
        if player is None:
            continue
        duty = state.duties[power]
        seat = seats.setdefault(
            player.row_id,
            {
                "user_id": player.user_id,
                "must_act": False,
                "playing": state.active(power),
                "sent_anything": False,
                "missed_before": player.missed_phases,
            },
        )
        if duty.has_work:
            seat["must_act"] = True
            if state.orders.get(power) or power in state.ready:
                seat["sent_anything"] = True
    # why the ignore below: each seat's values have their field's type; a dict[str, object] cannot say so
    return [grace.GraceSeat(**values) for values in seats.values()]  # type: ignore[arg-type]


async def grant_grace(
    session: AsyncSession, game: Game, phase: PhaseRecord, *, now: datetime
) -> grace.GraceExtension | None:
    """Extend ``phase``'s deadline by grace when the game's setting and a player qualify (see the
    module); None: the phase closes as usual."""
    setting = GameSettings.from_json(game.settings).grace
    if not setting.on or game.status != GameStatus.ACTIVE:
        return None
    if phase.status != PhaseStatus.OPEN or phase.deadline is None or phase.close_reason is not None:
        return None  # paused, or a close a moderator asked for
    uses = (await session.exec(select(GraceUse).where(GraceUse.game_id == game.id))).all()
    extension = grace.grace_at_deadline(
        max(phase.deadline, now),
        await grace_seats(session, game, phase),
        [grace.GraceUse(u.user_id, u.at, u.phase_id) for u in uses],
        setting,
        phase_id=phase.row_id,
    )
    if extension is None:
        return None
    for use in extension.uses():
        session.add(
            GraceUse(
                game_id=game.row_id, user_id=use.user_id, phase_id=phase.row_id, at=use.at, created_at=now
            )
        )
    before = phase.deadline
    phase.deadline = extension.deadline
    moved = await absent.absence_move(session, game, phase, now=now)
    log_event(
        session,
        game.row_id,
        "grace",
        at=now,
        detail={
            "phase": phase.name,
            "before": before.isoformat(),
            "after": phase.deadline.isoformat(),
            "user_ids": list(extension.user_ids),
        },
    )
    absent.announce_deadline(
        session,
        game,
        phase,
        what="is extended",
        line=grace.announcement_text(extension),
        deadline=phase.deadline,
        reason="grace",
        key=f"grace:{phase.id}",
        now=now,
    )
    if moved is not None:
        absent.announce_move(session, game, phase, moved, now=now)
    return extension


async def grace_uses(session: AsyncSession, game_id: int) -> list[GraceUse]:
    """The grace extensions used in a game, oldest first."""
    return list(
        (
            await session.exec(select(GraceUse).where(GraceUse.game_id == game_id).order_by(col(GraceUse.id)))
        ).all()
    )
