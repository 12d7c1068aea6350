"""/server settings: the server's own settings, for its admins (Manage Server). Today one: whether
members from whom no channel can be hidden (the server's owner, Administrator) may play in games
(gm.setup.server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.places.spaces import sees_everything
from cogs.shared.base import GameCog
from cogs.shared.context import require_guild
from cogs.shared.replies import defer, send
from gm.public import ServerSettings


def settings_lines(settings: ServerSettings) -> list[str]:
    may = (
        "may play; the other players are told that they could read every channel"
        if settings.admins_may_play
        else "may not join, take over or be given a seat"
    )
    return [
        "**This server's settings**",
        f"- Members who can read every channel (the server's owner, Administrator): {may} "
        f"(`admins_may_play:{settings.admins_may_play}`).",
    ]


class ServerCommands(GameCog):
    server = app_commands.Group(
        name="server",
        description="This server's own settings (its admins)",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @server.command(name="settings", description="Show this server's settings; with options, change them")
    @app_commands.describe(
        admins_may_play=(
            "False: the server's owner and Administrators (who can read every channel) may not play"
        )
    )
    async def settings(self, interaction: discord.Interaction, admins_may_play: bool | None = None) -> None:
        guild_id = require_guild(interaction, "The server's settings")
        await defer(interaction)
        if admins_may_play is None:
            current = await self.gamemaster.server_settings(guild_id)
            await send(interaction, settings_lines(current))
            return
        member = interaction.user
        is_admin = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
        changed = await self.gamemaster.change_server_settings(
            guild_id, member.id, {"admins_may_play": admins_may_play}, is_admin=is_admin
        )
        await send(interaction, ["Done.", *settings_lines(changed)])

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """A member given Administrator or the moderators' role while holding a seat: each of their
        running games says so in its channel, and their shields go on again (gm.setup.server)."""
        role = self.services.moderator_role
        sees_all = sees_everything(after) and not sees_everything(before)
        moderator = any(r.name == role for r in after.roles) and not any(r.name == role for r in before.roles)
        if sees_all or moderator:
            await self.gamemaster.role_gained(
                after.guild.id, after.id, sees_all=sees_all, moderator=moderator
            )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ServerCommands(bot))
