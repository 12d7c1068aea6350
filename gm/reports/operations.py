"""The figures an operator looks at (``/admin status``, the metrics): games by state, the messages
waiting and how long the oldest has waited, the last phase closed and the last delivery error."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, OutboxEntry, PhaseRecord, PhaseStatus
from gm.delivery.outbox import pending_backlog
from gm.delivery.shards import EVERYTHING, Ownership


@dataclass(frozen=True, slots=True)
class LastClose:
    game_id: int
    phase: str
    closed_at: datetime


@dataclass(frozen=True, slots=True)
class OperationsStatus:
    games: dict[str, int]
    """Every state (forming, active, paused, finished, cancelled) with its number of games."""
    phases_closed: int
    outbox_waiting: int
    """Messages neither sent nor given up, of this process's games."""
    outbox_oldest: datetime | None
    """When the oldest of them was queued."""
    outbox_given_up: int
    last_close: LastClose | None
    last_delivery_error: str | None
    """The error of the latest message that had one (sent since, or not), first line only."""


@dataclass(frozen=True, slots=True)
class OutboxBacklog:
    """The messages waiting (of this process's games) and when the oldest was queued: what /healthz
    asks every time it is read, in one statement (:func:`operations_status` runs six)."""

    outbox_waiting: int
    outbox_oldest: datetime | None


async def outbox_backlog(session: AsyncSession, ownership: Ownership = EVERYTHING) -> OutboxBacklog:
    waiting, oldest = await pending_backlog(session, ownership)
    return OutboxBacklog(outbox_waiting=waiting, outbox_oldest=oldest)


async def operations_status(session: AsyncSession, ownership: Ownership = EVERYTHING) -> OperationsStatus:
    counted = await session.exec(select(Game.status, func.count()).group_by(Game.status))
    games = {state.value: 0 for state in GameStatus}
    games.update({str(state): int(n) for state, n in counted.all()})
    closed = await session.exec(
        select(func.count()).select_from(PhaseRecord).where(PhaseRecord.status == PhaseStatus.CLOSED)
    )
    last = (
        await session.exec(
            select(PhaseRecord.game_id, PhaseRecord.name, PhaseRecord.closed_at)
            .where(col(PhaseRecord.closed_at).is_not(None))
            .order_by(col(PhaseRecord.closed_at).desc())
            .limit(1)
        )
    ).first()
    given_up = await session.exec(
        select(func.count()).select_from(OutboxEntry).where(col(OutboxEntry.failed_at).is_not(None))
    )
    error = (
        await session.exec(
            select(OutboxEntry.last_error)
            .where(col(OutboxEntry.last_error).is_not(None))
            .order_by(col(OutboxEntry.id).desc())
            .limit(1)
        )
    ).first()
    waiting, oldest = await pending_backlog(session, ownership)
    return OperationsStatus(
        games=games,
        phases_closed=int(closed.one()),
        outbox_waiting=waiting,
        outbox_oldest=oldest,
        outbox_given_up=int(given_up.one()),
        last_close=LastClose(int(last[0]), str(last[1]), last[2]) if last and last[2] else None,
        last_delivery_error=in_words_stored(error) if error and error.strip() else None,
    )


REPR = re.compile(r"""^(?:gave up after \d+ attempts: )?([A-Z]\w*(?:Error|Exception))\((['"])(.*)\2\)$""")


def in_words_stored(error: str) -> str:
    """A stored delivery error's first line, in words: rows written by older versions hold Python's
    repr (``RetriableSendError('forbidden: 403 ...')``), shown as its message."""
    line = error.strip().splitlines()[0]
    prefix = line.split(": ", 1)[0] + ": " if line.startswith("gave up after ") else ""
    found = REPR.match(line)
    if found is not None:
        line = prefix + found[3]
    return line[:300]
