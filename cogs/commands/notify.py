"""/notify: how a player is told that a phase wants their orders (a mention in their power's channel,
a direct message, or no notification at all)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import Scope, playing_choices, resolve_game
from cogs.shared.replies import defer, send
from gm.settings import NOTIFY_CHANNEL, NOTIFY_DM, NOTIFY_NONE

CHOICES = [
    app_commands.Choice(name="a mention in my power's channel (the default)", value=NOTIFY_CHANNEL),
    app_commands.Choice(name="a direct message", value=NOTIFY_DM),
    app_commands.Choice(name="no notification (the call is still posted in my channel)", value=NOTIFY_NONE),
]
SAID = {
    NOTIFY_CHANNEL: "I will mention you in your power's channel when a phase wants your orders.",
    NOTIFY_DM: "I will send you a direct message when a phase wants your orders.",
    NOTIFY_NONE: (
        "I will not notify you any more: each phase's call to order is still posted in your power's "
        "channel, without a mention. Mind the deadlines."
    ),
}


class NotifyCommands(GameCog):
    @app_commands.command(name="notify", description="How I tell you that a phase wants your orders")
    @app_commands.describe(how="Where the call to order reaches you", game="The game (default: yours)")
    @app_commands.choices(how=CHOICES)
    @app_commands.autocomplete(game=playing_choices)
    async def notify(self, interaction: discord.Interaction, how: str, game: str | None = None) -> None:
        await defer(interaction)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        await self.gamemaster.set_notify(chosen.id, interaction.user.id, how)
        await send(
            interaction, f"**#{chosen.id} {text.safe(chosen.name)}**: {SAID[how]} From the next phase on."
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCommands(bot))
