"""The community's use cases: absences (/absence), watching a game (/game watch), and the server's own
settings (/server settings). Deadlines an absence moves at once are rescheduled in the background."""

from __future__ import annotations

from typing import Any

from gm.actor import Actor
from gm.facade.core import GamemasterCore
from gm.setup import absences, server, spectators
from gm.setup.absences import AbsenceInfo, AbsenceReport
from gm.setup.server import ServerSettings


class CommunityCases(GamemasterCore):
    async def declare_absence(
        self, guild_id: int, user_id: int, *, first: str, last: str, game_id: int | None = None
    ) -> AbsenceReport:
        async with self._sessions.begin() as session:
            report = await absences.declare_absence(
                session, guild_id=guild_id, user_id=user_id, first=first, last=last, game_id=game_id
            )
        for follow_ups in report.follow_ups:
            self._runtime.follow_up(
                follow_ups, f"a deadline moved for an absence in game {follow_ups.game_id}"
            )
        return report

    async def list_absences(
        self, guild_id: int, actor: Actor, *, game_id: int | None = None
    ) -> list[AbsenceInfo]:
        async with self._sessions.read() as session:
            return await absences.list_absences(session, guild_id=guild_id, actor=actor, game_id=game_id)

    async def cancel_absence(self, guild_id: int, actor: Actor, absence_id: int) -> AbsenceInfo:
        async with self._sessions.begin() as session:
            return await absences.cancel_absence(
                session, guild_id=guild_id, actor=actor, absence_id=absence_id
            )

    async def spectators_of(self, game_id: int) -> list[int]:
        async with self._sessions.read() as session:
            return await spectators.spectators_of(session, game_id)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        async with self._sessions.read() as session:
            return await server.server_settings(session, guild_id)

    async def change_server_settings(
        self, guild_id: int, user_id: int, changes: dict[str, Any], *, is_admin: bool
    ) -> ServerSettings:
        """Only the server's admins (the adapter says who)."""
        async with self._sessions.begin() as session:
            return await server.change_server_settings(session, guild_id, user_id, changes, is_admin=is_admin)

    async def role_gained(self, guild_id: int, user_id: int, *, sees_all: bool, moderator: bool) -> list[int]:
        """A member was given Administrator (``sees_all``) or the moderators' role (``moderator``): each
        running game where they hold a power says so in its channel (gm.setup.server). Returns those
        games, whose places the adapter shields them from again."""
        async with self._sessions.begin() as session:
            games = await server.announce_role_gained(
                session, guild_id, user_id, sees_all=sees_all, moderator=moderator
            )
        if games:
            self._runtime.spawn(self._runtime.deliver(), "posting a role's notice")
        return games
