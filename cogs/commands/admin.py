"""/admin status: the bot's state for its owner (the application's owner, or its team's members):
version, uptime, shards, servers, games by state, the messages waiting, the last close and the last
error. Anyone else is refused, and the command is hidden from members without Administrator."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.replies import defer, send
from gm.reports.operations import OperationsStatus

NOT_OWNER = "Only the bot's owner (its application's owner in Discord's Developer Portal) may use /admin."


def duration(seconds: float) -> str:
    """``3 d 4 h``, ``2 h 5 min``, ``4 min 10 s``."""
    seconds = int(max(0, seconds))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def when(moment: datetime | None, now: datetime) -> str:
    """``3 min 2 s ago (<t:...:f>)``: Discord shows the moment in the reader's own time."""
    if moment is None:
        return "never"
    return f"{duration((now - moment).total_seconds())} ago (<t:{int(moment.timestamp())}:f>)"


def status_lines(bot: Any, status: OperationsStatus, now: datetime) -> list[str]:
    facts = bot.facts
    shards = sorted(bot.shards) if getattr(bot, "shards", None) else []
    games = ", ".join(f"{state} {count}" for state, count in status.games.items())
    waiting = f"{text.plural(status.outbox_waiting, 'message')} waiting"
    if status.outbox_oldest is not None:
        waiting += f", the oldest for {duration((now - status.outbox_oldest).total_seconds())}"
    if status.outbox_given_up:
        waiting += f"; {status.outbox_given_up} given up"
    last = status.last_close
    close = f"game {last.game_id} {last.phase}, {when(last.closed_at, now)}" if last else "none yet"
    error = facts.last_error
    last_error = f"{error.message} ({when(error.at, now)})" if error.message else "none since the start"
    return [
        f"**{facts.version}**",
        f"Up for {duration((now - facts.started_at).total_seconds())}",
        f"Shards: {','.join(map(str, shards)) or '-'} of {bot.shard_count}; servers: {len(bot.guilds)}",
        f"Games: {games}; {text.plural(status.phases_closed, 'phase')} closed",
        f"Outbox: {waiting}",
        f"Last close: {close}",
        f"Last delivery error: {status.last_delivery_error or 'none'}",
        f"Last error logged: {last_error}",
    ]


class AdminCommands(GameCog):
    admin = app_commands.Group(
        name="admin",
        description="The bot's own state, for its owner",
        default_permissions=discord.Permissions(administrator=True),
    )

    @admin.command(name="status", description="Version, uptime, shards, servers, games, messages waiting")
    async def status(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await send(interaction, NOT_OWNER)
            return
        await defer(interaction)
        figures = await self.gamemaster.operations_status()
        await send(interaction, status_lines(self.bot, figures, datetime.now(UTC)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCommands(bot))
