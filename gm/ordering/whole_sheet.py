"""The order sheet: replace all of a player's orders with a new text in one step (the /orders modal).

The modal shows the player's current orders; what they submit is the whole sheet, so a line they
deleted is an order they withdrew. Dropping the old orders and judging the new text happen in one
transaction: a deadline cannot fall in between (the phase row is locked), and a refused submission
(no lines at all, the phase moved on) leaves the old orders untouched.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import OrderRecord, PhaseStatus
from gm.clock import require_aware, utcnow
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering.submission import SubmissionReport, submit_orders, withdrawal
from gm.reading.lookup import latest_phase, load_game, load_player, powers_of, require_started


async def replace_orders(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    text: str,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
    now: datetime | None = None,
) -> SubmissionReport:
    """Withdraw the caller's orders in the open phase and submit ``text`` instead, atomically."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id)
    require_started(game)
    player = await load_player(session, game, user_id)
    powers = await powers_of(session, game.row_id, player.row_id)
    phase = await latest_phase(session, game.row_id, for_update=True)
    still_open = phase is not None and phase.status == PhaseStatus.OPEN
    if (
        phase is not None
        and still_open
        and (meant_for.phase is None or phase.name == meant_for.phase.strip().upper())
    ):
        await session.exec(
            delete(OrderRecord).where(
                col(OrderRecord.phase_id) == phase.id,
                col(OrderRecord.power).in_(powers),
            )
        )
        cleared = {"cleared": powers, "replaced_by": "the submission that follows"}
        session.add(withdrawal(game.row_id, phase.row_id, user_id, cleared, now))
    # submit_orders re-checks everything (phase open, expected phase, lines): the withdrawal is
    # committed with the new orders by the caller's unit of work, or it raises and both roll back.
    return await submit_orders(session, game_id, user_id, text, meant_for=meant_for, now=now)
