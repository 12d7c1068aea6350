"""A server's own settings (/server settings), kept by gm so that every adapter and process reads the
same: today one, whether members from whom the chat server can hide nothing may play.

Some members pass every permission overwrite (on Discord: the server's owner and members with
Administrator): the bot cannot hide a rival's channel or private talks from them. By default they may
play and everyone is told (the join answer, a notice in the game channel at the start); a server's
admins may refuse them instead (``admins_may_play``), and then their joins, take-overs and
replacements are refused, saying why.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import ServerSettingsRecord
from gm.clock import require_aware, utcnow
from gm.errors import InvalidSettings, NotAllowed


@dataclass(frozen=True, slots=True)
class ServerSettings:
    admins_may_play: bool = True  # members who can read every channel may join games (everyone is told)

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> ServerSettings:
        raw = raw or {}
        return cls(admins_may_play=bool(raw.get("admins_may_play", True)))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


async def server_settings(session: AsyncSession, guild_id: int) -> ServerSettings:
    row = await _row(session, guild_id)
    return ServerSettings.from_json(row.settings if row is not None else None)


async def change_server_settings(
    session: AsyncSession,
    guild_id: int,
    user_id: int,
    changes: dict[str, Any],
    *,
    is_admin: bool,
    now: datetime | None = None,
) -> ServerSettings:
    """Change the server's settings; only its admins (the adapter says who: on Discord, Manage Server)."""
    now = require_aware(now or utcnow())
    if not is_admin:
        raise NotAllowed(
            "Only the server's admins (Manage Server) can change its settings.", "Nothing was changed."
        )
    unknown = sorted(set(changes) - set(ServerSettings.__dataclass_fields__))
    if unknown:
        raise InvalidSettings([f"There is no server setting {', '.join(unknown)}."], "Nothing was changed.")
    row = await _row(session, guild_id)
    current = ServerSettings.from_json(row.settings if row is not None else None)
    changed = replace(current, **changes)
    if row is None:
        session.add(
            ServerSettingsRecord(
                guild_id=guild_id, settings=changed.to_json(), changed_at=now, changed_by=user_id
            )
        )
    else:
        row.settings, row.changed_at, row.changed_by = changed.to_json(), now, user_id
    return changed


async def check_may_play(session: AsyncSession, guild_id: int, user_id: int, *, sees_all: bool) -> None:
    """Refuse a seat to a member who can read every channel (``sees_all``) when the server says so."""
    if sees_all and not (await server_settings(session, guild_id)).admins_may_play:
        raise NotAllowed(
            f"[[user:{user_id}]] can read every channel of this server (its owner, or Administrator), "
            "so no channel of a game could be hidden from them, and this server's admins do not let "
            "such members play.",
            "A server admin can change that with [[cmd:server settings]]; nothing was changed.",
        )


async def _row(session: AsyncSession, guild_id: int) -> ServerSettingsRecord | None:
    return (
        await session.exec(select(ServerSettingsRecord).where(ServerSettingsRecord.guild_id == guild_id))
    ).first()
