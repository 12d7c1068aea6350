"""/press: talk to another power, or to everyone, in an anonymous game (gm.relaying). The bot carries
the words attributed to the sender's powers alone; the answer is seen by the sender only."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import text
from cogs.shared.base import GameCog
from cogs.shared.context import Scope, playing_choices, resolve_game
from cogs.shared.replies import defer, send
from gm.public import MAX_PRESS_TEXT, PRESS_EVERYONE


class PressCommands(GameCog):
    @app_commands.command(name="press", description="Anonymous games: write to another power, or to everyone")
    @app_commands.describe(
        to="A power's name (France), or everyone",
        message="What to say: carried as 'France to Germany: ...', never with your name",
        attachment="A file to carry with it (as a link)",
        game="The game (default: yours)",
    )
    @app_commands.autocomplete(game=playing_choices)
    async def press(
        self,
        interaction: discord.Interaction,
        to: str,
        message: app_commands.Range[str, 1, MAX_PRESS_TEXT] | None = None,
        attachment: discord.Attachment | None = None,
        game: str | None = None,
    ) -> None:
        await defer(interaction)  # ephemeral: nobody sees who asked
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        relayed = await self.gamemaster.relay_press(
            chosen.id,
            interaction.user.id,
            to,
            message or "",
            links=[attachment.url] if attachment else [],
            key=str(interaction.id),
        )
        where = (
            "the game channel" if relayed.to == PRESS_EVERYONE else f"{text.power_name(relayed.to)}'s channel"
        )
        await send(
            interaction,
            f"**#{chosen.id} {text.safe(chosen.name)}**: carried to {where} as "
            f"{text.powers_text(relayed.sender)}'s (a copy is in your channel).",
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PressCommands(bot))
