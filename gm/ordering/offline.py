"""Direct messages a player sent while the bot was offline, read when it comes back
(cogs.commands.direct's catch-up).

Orders among them are recorded if the phase they were written for is still the one taking orders, as
if they had arrived then; otherwise refused, and the player is asked to send their orders again (the
game moved on, or the deadline passed, while the bot was away).

Which messages are new: the bot records, per player, the latest direct message of theirs it handled
(``direct_message_read``). The catch-up reads what came after it, whatever the bot itself posted to
the player meanwhile (a call to order sent at start-up answers nothing). A message is marked handled
by a compare-and-set on that row, in the transaction that records its orders: one that was handled
already (before a crash, or by the other path of a message read both live and in the catch-up) is
refused with :class:`AlreadyRead` and nothing is recorded twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from sqlalchemy import Insert, bindparam
from sqlalchemy.dialects import sqlite
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import flushed_connection
from db.models import DirectMessageRead, PhaseStatus
from db.prepared import Prepared
from gm.clock import require_aware, utcnow
from gm.errors import OrdersClosed
from gm.meant_for import MeantFor
from gm.ordering.submission import SubmissionReport, submit_orders
from gm.reading.lookup import latest_phase

RECORDS_BEGAN = 0
"""The user id (no Discord user has it) of the row whose ``read_at`` says when the records began."""


class PhaseMovedOn(OrdersClosed):
    """The phase open when the message was sent is closed, or its deadline had passed by then."""


class AlreadyRead(Exception):
    """The direct message was handled already: nothing was done with it this time."""


@dataclass(frozen=True, slots=True)
class DirectReads:
    """What the bot has handled of some players' direct messages: the latest message id per player
    (players without one had none handled since ``began``, when the records began)."""

    began: datetime
    last: dict[int, int]


async def direct_reads(session: AsyncSession, user_ids: Iterable[int]) -> DirectReads:
    wanted = sorted(set(user_ids) | {RECORDS_BEGAN})
    rows = (
        await session.exec(select(DirectMessageRead).where(col(DirectMessageRead.user_id).in_(wanted)))
    ).all()
    last = {row.user_id: row.message_id for row in rows}
    began = next((row.read_at for row in rows if row.user_id == RECORDS_BEGAN), None)
    last.pop(RECORDS_BEGAN, None)
    return DirectReads(began=began or utcnow(), last=last)


async def mark_read(
    session: AsyncSession, user_id: int, message_id: int, *, now: datetime | None = None
) -> None:
    """Record ``message_id`` as the latest direct message of ``user_id`` handled; :class:`AlreadyRead`
    when it, or a later one, was handled already. One statement (an insert that, on the player's row,
    moves it forward only), so that a direct message's transaction stays short."""
    if user_id == RECORDS_BEGAN:
        raise ValueError("user 0 is no Discord user")
    now = require_aware(now or utcnow())
    connection = await flushed_connection(session)
    moved = await _marking(connection.dialect.name).run(
        connection, {"user_id": user_id, "message_id": message_id, "read_at": now}
    )
    if moved == 1:
        return
    known = (
        await session.exec(select(DirectMessageRead.message_id).where(DirectMessageRead.user_id == user_id))
    ).first()
    raise AlreadyRead(f"direct message {message_id} of {user_id} was handled (latest: {known})")


@cache
def _marking(dialect: str) -> Prepared:
    """:func:`_upsert`, run by SQLite's driver itself (db.prepared)."""
    return Prepared(_upsert(dialect))


@cache
def _upsert(dialect: str) -> Insert:
    """``INSERT ... ON CONFLICT (user_id) DO UPDATE ... WHERE message_id < the new one``: SQLite and
    PostgreSQL both say it so, and count the row as changed only when it was inserted or moved."""
    insert = sqlite.insert
    if dialect == "postgresql":
        # imported here: PostgreSQL's dialect (about 3 MiB of code) stays out of a bot on SQLite
        from sqlalchemy.dialects import postgresql

        insert = postgresql.insert  # type: ignore[assignment]  # the same on_conflict_do_update
    table = SQLModel.metadata.tables[DirectMessageRead.__tablename__]
    statement = insert(table).values(
        user_id=bindparam("user_id"), message_id=bindparam("message_id"), read_at=bindparam("read_at")
    )
    return statement.on_conflict_do_update(
        index_elements=[table.c.user_id],
        set_={"message_id": statement.excluded.message_id, "read_at": statement.excluded.read_at},
        where=table.c.message_id < statement.excluded.message_id,
    )


async def submit_sent_while_offline(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    text: str,
    *,
    sent_at: datetime,
    message_id: int | None = None,
) -> SubmissionReport:
    """Judge and store ``text`` (see gm.ordering.submission.submit_orders) if the game's open phase
    was already open at ``sent_at`` and its deadline had not passed then; else :class:`PhaseMovedOn`,
    and nothing is recorded. ``message_id``: the direct message it came in, marked handled in this
    transaction (:class:`AlreadyRead` if it was already)."""
    sent_at = require_aware(sent_at)
    if message_id is not None:
        await mark_read(session, user_id, message_id)
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
    return await submit_orders(session, game_id, user_id, text, meant_for=MeantFor(phase.name))
