"""/sandbox new|open|order|list|delete: private "what if" boards (gm.sandbox), and the listener that
deletes a member's sandboxes when they leave a server. Every answer is ephemeral: the owner's alone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.commands.game import VARIANT_CHOICES
from cogs.commands.maps import PHASE_OPTION, phase_choices
from cogs.shared import text
from cogs.shared.base import GameCog, services_of
from cogs.shared.context import Scope, any_choices, resolve_game
from cogs.shared.replies import defer, send
from cogs.ui import sandbox_flows as flows
from cogs.ui.sandbox import open_buttons, setup_sandbox
from cogs.ui.sandbox_draw import draw_sandbox
from gm.public import MAX_SANDBOXES, GameError, SandboxInfo, UnknownSandbox

SANDBOX_OPTION = "One of your sandboxes (leave empty for the one you used last)"


async def sandbox_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's own sandboxes, the most recently used first."""
    try:
        mine = await services_of(interaction.client).gamemaster.sandboxes_of(interaction.user.id)
    except GameError:
        return []
    typed = current.strip().removeprefix("#").casefold()
    found = []
    for box in mine:
        label = f"#{box.id} from {box.title} (now {text.long_name(box.phase)})"
        if not typed or typed in label.casefold():
            found.append(app_commands.Choice(name=label[:100], value=str(box.id)))
    return found[:25]


async def chosen_sandbox(interaction: discord.Interaction, option: str | None) -> int:
    """The sandbox an option names (``5``, ``#5``, or a choice), else the caller's most recently used."""
    if option is not None and option.strip():
        number = option.strip().removeprefix("#").split(" ", 1)[0]
        if number.isascii() and number.isdigit():
            return int(number)
        raise UnknownSandbox(
            f"{text.safe(option, limit=40)} is not a sandbox's number.",
            "Pick one from the list the option offers.",
        )
    mine = await services_of(interaction.client).gamemaster.sandboxes_of(interaction.user.id)
    if not mine:
        raise UnknownSandbox("You have no sandbox.", "Make one with /sandbox new.")
    return int(mine[0].id)


def list_line(box: SandboxInfo) -> str:
    return (
        f"**#{box.id}** from {text.safe(box.title)}: now {text.long_name(box.phase)} (step {box.step}); "
        f"used {discord.utils.format_dt(box.used_at, 'R')}, deleted "
        f"{discord.utils.format_dt(box.expires_at, 'R')} unless used again"
    )


class SandboxCommands(GameCog):
    sandbox = app_commands.Group(
        name="sandbox", description="Private boards to try moves on: every power is yours, only you see them"
    )

    @sandbox.command(name="new", description="A private board from a game's position, or a variant's start")
    @app_commands.describe(
        game="The game whose position it starts from (leave empty if there is only one)",
        phase=PHASE_OPTION.replace("the latest", "the current one"),
        variant="Start from this variant's opening position instead of a game",
        my_orders="Copy in your own orders of the current phase (nobody else's)",
    )
    @app_commands.autocomplete(game=any_choices, phase=phase_choices)
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        phase: str | None = None,
        variant: str | None = None,
        my_orders: bool = False,
    ) -> None:
        await defer(interaction)
        game_id = None
        if variant is None or game is not None:
            game_id = (await resolve_game(interaction, game, Scope.ANY)).id
        await flows.make(interaction, game_id=game_id, phase=phase, variant=variant, my_orders=my_orders)

    @sandbox.command(name="open", description="The order sheet of one of your sandboxes")
    @app_commands.describe(sandbox=SANDBOX_OPTION)
    @app_commands.autocomplete(sandbox=sandbox_choices)
    async def open_sandbox(self, interaction: discord.Interaction, sandbox: str | None = None) -> None:
        await defer(interaction)
        await flows.open_sheet(interaction, await chosen_sandbox(interaction, sandbox))

    @sandbox.command(
        name="order", description="Orders for any power of a sandbox (one per line, or ; between)"
    )
    @app_commands.describe(
        orders="e.g. A Par-Bur; A Mun-Ruh; F Lon-NTH (France: WAIVE)", sandbox=SANDBOX_OPTION
    )
    @app_commands.rename(orders="text")
    @app_commands.autocomplete(sandbox=sandbox_choices)
    async def sandbox_order(
        self, interaction: discord.Interaction, orders: str, sandbox: str | None = None
    ) -> None:
        await defer(interaction)
        number = await chosen_sandbox(interaction, sandbox)
        answer = await self.gamemaster.sandbox_orders(number, interaction.user.id, orders)
        lines = [f"**Sandbox #{number} · {answer.menu.long_name}**"]
        lines += [text.outcome_line(o, show_power=True) for o in answer.lines]
        await send(interaction, lines)
        await interaction.followup.send(view=draw_sandbox(answer.menu), ephemeral=True)

    @sandbox.command(name="list", description="Your sandboxes")
    async def list_sandboxes(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        mine = await self.gamemaster.sandboxes_of(interaction.user.id)
        if not mine:
            await send(
                interaction, "You have no sandbox. Make one with `/sandbox new` (from a game, or variant:)."
            )
            return
        lines = [f"**Your sandboxes** ({len(mine)} of {MAX_SANDBOXES}; only you can see them):"]
        lines += [list_line(box) for box in mine]
        await send(interaction, lines, view=open_buttons([(box.id, box.tag) for box in mine]))

    @sandbox.command(name="delete", description="Delete one of your sandboxes")
    @app_commands.describe(sandbox="The sandbox to delete")
    @app_commands.autocomplete(sandbox=sandbox_choices)
    async def delete_sandbox(self, interaction: discord.Interaction, sandbox: str) -> None:
        await defer(interaction)
        gone = await self.gamemaster.delete_sandbox(
            await chosen_sandbox(interaction, sandbox), interaction.user.id
        )
        await send(interaction, f"Sandbox #{gone.id} (from {text.safe(gone.title)}) is deleted.")

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member who leaves a server (or is removed) loses their sandboxes of its games."""
        await self.gamemaster.sandboxes_member_left(payload.guild_id, payload.user.id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SandboxCommands(bot))
    setup_sandbox(bot, flows)
