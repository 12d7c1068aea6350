"""Spectators recorded by earlier versions' /game watch (the command is gone: every member of the
server reads a game's channel). Their rows stay, so that a spectator who takes a seat is known as one
(gm.moderation.replacement) and their read-only overwrite on the game channel is taken back."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Spectator


async def spectators_of(session: AsyncSession, game_id: int) -> list[int]:
    """The members watching a game now."""
    rows = await session.exec(
        select(Spectator.user_id)
        .where(Spectator.game_id == game_id, col(Spectator.stopped_at).is_(None))
        .order_by(col(Spectator.id))
    )
    users = list(rows.all())
    return users
