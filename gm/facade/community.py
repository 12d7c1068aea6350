"""The community's use cases: absences (/absence), and watching a game (/game watch). Deadlines an
absence moves at once are rescheduled in the background."""

from __future__ import annotations

from gm.facade.core import GamemasterCore
from gm.moderation.shared import Actor
from gm.setup import absences, spectators
from gm.setup.absences import AbsenceInfo, AbsenceReport


class CommunityCases(GamemasterCore):
    async def declare_absence(
        self, guild_id: int, user_id: int, *, first: str, last: str, game_id: int | None = None
    ) -> AbsenceReport:
        async with self.sessions() as session:
            report = await absences.declare_absence(
                session, guild_id=guild_id, user_id=user_id, first=first, last=last, game_id=game_id
            )
        for effects in report.effects:
            self.carry_out(effects, f"a deadline moved for an absence in game {effects.game_id}")
        return report

    async def list_absences(
        self, guild_id: int, actor: Actor, *, game_id: int | None = None
    ) -> list[AbsenceInfo]:
        async with self.sessions() as session:
            return await absences.list_absences(session, guild_id=guild_id, actor=actor, game_id=game_id)

    async def cancel_absence(self, guild_id: int, actor: Actor, absence_id: int) -> AbsenceInfo:
        async with self.sessions() as session:
            return await absences.cancel_absence(
                session, guild_id=guild_id, actor=actor, absence_id=absence_id
            )

    async def spectators_of(self, game_id: int) -> list[int]:
        async with self.sessions() as session:
            return await spectators.spectators_of(session, game_id)
