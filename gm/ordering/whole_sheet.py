"""The order sheet: replace all of a player's orders with a new text in one step (the /orders modal).

The modal shows the player's current orders; what they submit is the whole sheet, so a line they
deleted is an order they withdrew. Dropping the old orders and judging the new text happen in one
transaction: a deadline cannot fall in between (the phase row is locked), and a refused submission
(no lines at all, the phase moved on) leaves the old orders untouched.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import OrderRecord
from db.prepared import Prepared
from gm.clock import require_aware, utcnow
from gm.meant_for import ANY_PHASE, MeantFor
from gm.ordering.submission import SubmissionReport, open_for_submission, submit_opened

# one power's orders, run by SQLite's driver itself (db.prepared), for each of the player's powers
_DROP_ORDERS = Prepared(
    delete(OrderRecord).where(
        col(OrderRecord.phase_id) == bindparam("phase_id"), col(OrderRecord.power) == bindparam("power")
    )
)


async def replace_orders(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    text: str,
    *,
    meant_for: MeantFor[str] = ANY_PHASE,
    now: datetime | None = None,
) -> SubmissionReport:
    """Withdraw the caller's orders in the open phase and submit ``text`` instead, atomically: the game
    opened (and its phase locked) once, as for a submission (the same refusals), the caller's orders
    dropped, then ``text`` judged and stored with the withdrawal logged before it."""
    now = require_aware(now or utcnow())
    opened = await open_for_submission(session, game_id, user_id, None, meant_for)
    game, _player, powers, phase, _seats = opened
    connection = await flushed_connection(session)
    await _DROP_ORDERS.run(connection, [{"phase_id": phase.row_id, "power": p} for p in powers])
    cleared = {
        "game_id": game.row_id,
        "phase_id": phase.row_id,
        "user_id": user_id,
        "action": "clear",
        "text": "",
        "outcome": [{"cleared": powers, "replaced_by": "the submission that follows"}],
        "submitted_at": now,
    }
    # committed with the new orders by the caller's unit of work, or it raises and both roll back
    return await submit_opened(session, opened, user_id, text, meant_for=meant_for, now=now, before=[cleared])
