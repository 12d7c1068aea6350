"""/absence add|list|cancel: the days a player will be away. A deadline inside a declared absence
moves after it (gm.phases.absent); moderators see and cancel anyone's absences in the games they do
not play in (in a game they play in, their own only, as any player)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import (
    Scope,
    any_choices,
    is_server_moderator,
    my_choices,
    require_guild,
    resolve_game,
)
from cogs.shared.replies import defer, send
from gm.actor import Actor
from gm.setup.absences import AbsenceInfo, AbsenceReport


def absence_line(absence: AbsenceInfo, *, who: bool = True) -> str:
    """``#12 @player from 3 to 7 May 2025 in #4 Friday game`` (and whether it moved a deadline)."""
    line = f"`#{absence.id}` " + (f"<@{absence.user_id}> " if who else "") + absence.span
    line += f" in **#{absence.game_id} {text.safe(absence.game_name)}**"
    return line + (" (it has moved a deadline)" if absence.used else "")


def declared_lines(report: AbsenceReport, zones: dict[int, str | None]) -> list[str]:
    lines = ["You declared your absence:"]
    lines += [f"- {absence_line(a, who=False)}" for a in report.absences]
    lines.append(
        "A deadline that falls in it moves to after your return, once; the game channel is told the new "
        "deadline and the dates, not your name. `/absence cancel` withdraws it."
    )
    for phase in report.moved:
        lines.append(
            f"The {phase.long_name} deadline of game #{phase.game_id} moved already: "
            f"{text.due(phase.deadline, zones.get(phase.game_id))}."
        )
    return lines


class AbsenceCommands(GameCog):
    absence = app_commands.Group(name="absence", description="Tell the games you play when you will be away")

    @absence.command(
        name="add", description="Declare days you will be away: deadlines in them move after them"
    )
    @app_commands.rename(first="from", last="to")
    @app_commands.describe(
        first="Your first day away: 2025-05-03, 3 May, today or tomorrow",
        last="Your last day away (the same day for one day)",
        game="One game (default: every game you play on this server)",
    )
    @app_commands.autocomplete(game=my_choices)
    async def add(
        self, interaction: discord.Interaction, first: str, last: str, game: str | None = None
    ) -> None:
        guild_id = require_guild(interaction, "Declaring an absence")
        await defer(interaction)
        game_id = (await resolve_game(interaction, game, Scope.MINE)).id if game else None
        report = await self.gamemaster.declare_absence(
            guild_id, interaction.user.id, first=first, last=last, game_id=game_id
        )
        zones = {}
        for phase in report.moved:
            zones[phase.game_id] = (await self.gamemaster.get_game(phase.game_id)).settings.zone
        await send(interaction, declared_lines(report, zones))

    @absence.command(
        name="list", description="Your absences; with a game you moderate and do not play in, everyone's"
    )
    @app_commands.describe(game="A game: everyone's absences in it, if you moderate it and do not play in it")
    @app_commands.autocomplete(game=any_choices)
    async def list_absences(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = require_guild(interaction, "Absences")
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.ANY) if game else None
        actor = await self._actor(interaction, guild_id)
        found = await self.gamemaster.list_absences(guild_id, actor, game_id=chosen.id if chosen else None)
        plays = chosen is not None and any(p.user_id == actor.user_id for p in chosen.players)
        note = (
            [f"You play in {text.safe(chosen.name)}: you see your own absences there, as every player does."]
            if plays
            and chosen is not None
            and (actor.is_server_moderator or chosen.creator_id == actor.user_id)
            else []
        )
        if not found:
            await send(interaction, ["No absence declared (none to come).", *note])
            return
        title = "Absences in this game:" if chosen is not None and not plays else "Your absences:"
        await send(interaction, [title, *(f"- {absence_line(a)}" for a in found), *note])

    @absence.command(
        name="cancel",
        description="Withdraw an absence (moderators: anyone's in the games they do not play in)",
    )
    @app_commands.describe(absence="The absence's number, as /absence list shows it (#12)")
    async def cancel(self, interaction: discord.Interaction, absence: str) -> None:
        guild_id = require_guild(interaction, "Cancelling an absence")
        await defer(interaction)
        number = absence.strip().removeprefix("#")
        if not (number.isascii() and number.isdigit()):
            await send(
                interaction,
                f"{text.safe(absence, limit=40)} is no absence number; `/absence list` shows them.",
            )
            return
        actor = await self._actor(interaction, guild_id)
        gone = await self.gamemaster.cancel_absence(guild_id, actor, int(number))
        await send(interaction, f"Cancelled: {absence_line(gone)}. Deadlines it moved stay where they are.")

    async def _actor(self, interaction: discord.Interaction, guild_id: int) -> Actor:
        moderator = await is_server_moderator(self.bot, interaction.user.id, guild_id)
        return Actor(interaction.user.id, is_server_moderator=moderator)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AbsenceCommands(bot))
