"""A server's own settings (/server settings), kept by gm so that every adapter and process reads the
same: today one, whether members from whom the chat server can hide nothing may play.

Some members pass every permission overwrite (on Discord: the server's owner and members with
Administrator): the bot cannot hide a rival's channel or private talks from them. By default they may
play and everyone is told (the join answer, a notice in the game channel at the start); a server's
admins may refuse them instead (``admins_may_play``), and then every way into a seat is refused,
saying why: a join, a take-over, a replacement, the start of a game they joined before (they were
given Administrator since), and a game they create is made without them in it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, Player, PlayerStatus, PowerAssignment, ServerSettingsRecord
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import InvalidSettings, NotAllowed
from gm.messages.kinds import RoleGained


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


async def may_play(session: AsyncSession, guild_id: int, *, sees_all: bool) -> bool:
    """Whether a member who can (``sees_all``) or cannot read every channel may take a seat here."""
    return not sees_all or (await server_settings(session, guild_id)).admins_may_play


async def check_seated_may_play(session: AsyncSession, guild_id: int, seated: list[int]) -> None:
    """Refuse a start while some of its players (``seated``: those the chat server can hide no
    channel from) may not play by the server's settings: they became such members after joining."""
    if not seated or (await server_settings(session, guild_id)).admins_may_play:
        return
    who = " and ".join(f"[[user:{u}]]" for u in seated)
    raise NotAllowed(
        f"{who} can read every channel of this server (its owner, or Administrator), so no channel of "
        "the game could be hidden from them, and this server's admins do not let such members play.",
        "They can leave the game with [[cmd:game leave]] (or lose Administrator), then start it again; "
        "a server admin can change the rule with [[cmd:server settings]]. Nothing was changed.",
    )


async def announce_role_gained(
    session: AsyncSession,
    guild_id: int,
    user_id: int,
    *,
    sees_all: bool,
    moderator: bool,
    now: datetime | None = None,
) -> list[int]:
    """A member was given a role while holding a seat: Administrator (``sees_all``: the chat server
    can hide no channel from them any more), or the moderators' role (``moderator``: their own
    overwrites keep the rivals' places hidden, as for any playing moderator; the adapter puts them
    on again). Each running game of the server where they hold a power says so in its channel.
    Returns those games' ids."""
    now = require_aware(now or utcnow())
    if not (sees_all or moderator):
        return []
    rows = (
        await session.exec(
            select(Game)
            .join(Player, col(Player.game_id) == col(Game.id))
            .join(PowerAssignment, col(PowerAssignment.player_id) == col(Player.id))
            .where(
                Game.guild_id == guild_id,
                Player.user_id == user_id,
                col(Player.status).in_((PlayerStatus.ACTIVE, PlayerStatus.CIVIL_DISORDER)),
                col(Game.status).in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
            )
            .distinct()
            .order_by(col(Game.id))
        )
    ).all()
    refused = sees_all and not (await server_settings(session, guild_id)).admins_may_play
    lines = _role_lines(user_id, sees_all=sees_all, moderator=moderator, refused=refused)
    for game in rows:
        enqueue(
            session,
            RoleGained(
                game_id=game.row_id,
                game_name=game.name,
                title=f"{game.name}: a note on privacy",
                lines=list(lines),
                user_id=user_id,
                sees_all=sees_all,
                moderator=moderator,
            ),
            target=Target.game_channel(),
            key=f"role_gained:{game.id}:{user_id}:{int(sees_all)}{int(moderator)}:{now.isoformat()}",
            now=now,
        )
    return [game.row_id for game in rows]


def _role_lines(user_id: int, *, sees_all: bool, moderator: bool, refused: bool) -> list[str]:
    """What the game channel is told of a player's new role (``refused``: the server's admins may
    not play)."""
    lines = []
    if sees_all:
        lines.append(
            f"[[user:{user_id}]], who plays in this game, can now read every channel of this server "
            "(its owner, or Administrator): the other powers' channels and private talks included. "
            "I cannot hide a channel from them."
        )
        if refused:
            lines.append(
                "This server's admins do not let such members play: a moderator may give their seat "
                "to someone else with [[cmd:mod replace]]."
            )
    if moderator:
        lines.append(
            f"[[user:{user_id}]], who plays in this game, was given the moderators' role. As a player "
            "they still read only their own places: the rivals' places stay hidden from them, as from "
            "any moderator who plays."
        )
    return lines


async def _row(session: AsyncSession, guild_id: int) -> ServerSettingsRecord | None:
    return (
        await session.exec(select(ServerSettingsRecord).where(ServerSettingsRecord.guild_id == guild_id))
    ).first()
