"""Orders a player sent by direct message while the bot was offline, read when it comes back
(cogs.commands.direct's catch-up): recorded if the phase they were written for is still the one
taking orders, as if they had arrived then; otherwise refused, and the player is asked to send their
orders again (the game moved on, or the deadline passed, while the bot was away)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import PhaseStatus
from gm.clock import require_aware
from gm.errors import OrdersClosed
from gm.ordering.submission import SubmissionReport, submit_orders
from gm.reading.lookup import latest_phase


class PhaseMovedOn(OrdersClosed):
    """The phase open when the message was sent is closed, or its deadline had passed by then."""


async def submit_sent_while_offline(
    session: AsyncSession, game_id: int, user_id: int, text: str, *, sent_at: datetime
) -> SubmissionReport:
    """Judge and store ``text`` (see gm.ordering.submission.submit_orders) if the game's open phase
    was already open at ``sent_at`` and its deadline had not passed then; else :class:`PhaseMovedOn`,
    and nothing is recorded."""
    sent_at = require_aware(sent_at)
    phase = await latest_phase(session, game_id)
    if (
        phase is None
        or phase.status != PhaseStatus.OPEN
        or phase.opened_at > sent_at
        or (phase.deadline is not None and phase.deadline <= sent_at)
    ):
        raise PhaseMovedOn(
            "These orders came while I was offline, and the phase they were for has closed since.",
            "Send your orders for the current phase again; `/orders show` lists what I have.",
        )
    return await submit_orders(session, game_id, user_id, text, expected_phase=phase.name)
