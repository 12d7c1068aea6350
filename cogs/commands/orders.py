"""/orders edit|show|clear, /order, /ready, and the orders form's submissions. Every answer is private.

Discord cannot run a command that also has subcommands, so the orders form is
``/orders edit`` next to ``/orders show`` and ``/orders clear``.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared import flows as actions
from cogs.shared import text as fmt
from cogs.shared.base import GameCog
from cogs.shared.context import Scope, game_number, playing_choices, resolve_game
from cogs.shared.replies import answered_at_once, defer, send
from cogs.ui import sheet_flows
from cogs.ui.builder import setup_builder
from cogs.ui.components import ORDERS_FORM, ORDERS_INPUT, OrdersForm
from cogs.ui.guard import OutOfDate, route_form
from cogs.ui.sheet import call_buttons, setup_sheet
from cogs.ui.sheet_flows import open_sheet, preview_files, preview_lines
from gm.public import GameError, OrdersView

GAME_OPTION = "The game (leave empty if you play only one)"


def form_for(view: OrdersView) -> OrdersForm:
    missing = [m for p in view.powers for m in p.missing]
    placeholder = ("Still to order: " + ", ".join(missing)) if missing else "e.g. A Par-Bur"
    return OrdersForm(
        view.game_id,
        view.phase.name,
        f"Orders: {view.phase.long_name}",
        fmt.orders_sheet(view),
        placeholder,
    )


def form_text(data: dict) -> str | None:
    """The orders input's value in a submitted form (components nested in rows or labels)."""
    stack = list(data.get("components", []))
    while stack:
        component = stack.pop(0)
        if component.get("custom_id") == ORDERS_INPUT and "value" in component:
            return str(component["value"])
        stack.extend(component.get("components", []))
        if isinstance(component.get("component"), dict):
            stack.append(component["component"])
    return None


class OrderCommands(GameCog):
    orders = app_commands.Group(name="orders", description="Your orders for the current phase")

    @orders.command(name="edit", description="A form with your current orders, one per line, to edit")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    @answered_at_once
    async def edit(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The form must be the first answer (3 seconds, no deferring): when the game is named and the
        process holds the player's current orders (gm.ordering.current), it opens with them at once,
        without a database read; named and not held, one read of the player's orders (a player of the
        game may use it from anywhere: resolve_game's rule); otherwise, or when that read is refused,
        the game is found as for any command (whose refusals never tell another server's games), and
        its form opens from my_orders (itself the orders held when they are)."""
        number = game_number(game)
        if number is not None:
            held = self.gamemaster.orders_held(number, interaction.user.id)
            if held is not None and held.phase.status == "open":
                await interaction.response.send_modal(form_for(held))
                return
            try:
                view = await self.gamemaster.my_orders(number, interaction.user.id)
            except GameError:
                pass  # not theirs, or no such game: resolve_game says so as it does everywhere
            else:
                await interaction.response.send_modal(form_for(view))
                return
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        view = await self.gamemaster.my_orders(chosen.id, interaction.user.id)  # held ones if held
        await interaction.response.send_modal(form_for(view))

    @orders.command(name="show", description="Your orders so far, drawn on the map, and what still needs one")
    @app_commands.describe(game=GAME_OPTION, show_map="False for the list without the map")
    @app_commands.rename(show_map="map")
    @app_commands.autocomplete(game=playing_choices)
    async def show(
        self, interaction: discord.Interaction, game: str | None = None, show_map: bool = True
    ) -> None:
        """The player's orders (and the map with them drawn: theirs only), privately; with "Order
        sheet" and "Ready" under them while the phase is open. Answered at once when the orders and
        their map are ready within :data:`cogs.shared.replies.ANSWER_WITHIN` (held orders, a map
        drawn before): one call to Discord instead of "thinking..." and a followup."""
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        files: list[discord.File] = []
        if show_map:
            preview = await self.gamemaster.orders_preview(chosen.id, interaction.user.id)
            view, lines, files = preview.view, preview_lines(preview), preview_files(preview)
        else:
            view = await self.gamemaster.my_orders(chosen.id, interaction.user.id)
            lines = fmt.view_lines(view, show_orders=True)
        buttons = (
            call_buttons(view.game_id, view.phase.name, view.game_tag)
            if view.phase.status == "open" and view.powers
            else None
        )
        await send(interaction, lines, files=files, view=buttons)

    @orders.command(
        name="sheet", description="Your order sheet: every unit with a menu of its legal orders, and Ready"
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    async def sheet(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        await open_sheet(interaction, chosen.id)

    @orders.command(name="build", description="Order by tap: your order sheet (as /orders sheet)")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    async def build(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The step-by-step builder's command, kept as a way into the sheet (cogs.ui.builder)."""
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        await open_sheet(interaction, chosen.id)

    @orders.command(name="clear", description="Withdraw all your orders for the current phase")
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    async def clear(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        view = await self.gamemaster.clear_orders(chosen.id, interaction.user.id)
        await send(interaction, ["Your orders are withdrawn.", *fmt.view_lines(view)])

    @app_commands.command(
        name="order", description="Send one or more orders (one per line, or ; between them)"
    )
    @app_commands.describe(text="e.g. A Par-Bur; F Bre-MAO; A Mar S A Par-Bur", game=GAME_OPTION)
    @app_commands.autocomplete(game=playing_choices)
    async def order(self, interaction: discord.Interaction, text: str, game: str | None = None) -> None:
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        await actions.submit(interaction, chosen.id, text)

    @app_commands.command(name="ready", description="Say you are done, so the phase can close early")
    @app_commands.describe(game=GAME_OPTION, ready="False to take it back")
    @app_commands.autocomplete(game=playing_choices)
    async def ready(
        self, interaction: discord.Interaction, game: str | None = None, ready: bool = True
    ) -> None:
        await defer(interaction, unless_quick=True)
        chosen = await resolve_game(interaction, game, Scope.PLAYING)
        view = await self.gamemaster.set_ready(chosen.id, interaction.user.id, ready=ready)
        await send(interaction, [fmt.ready_words(ready, view), *fmt.view_lines(view)])


async def submit_form(interaction: discord.Interaction, match: re.Match[str], data: dict[str, Any]) -> None:
    """A submitted orders form (see cogs.ui.components.OrdersForm; routed by cogs.ui.guard). A form
    without its orders field was not made by this bot: refused, rather than read as an empty sheet."""
    typed = form_text(data)
    if typed is None:
        raise OutOfDate("the form has no orders field")
    await actions.submit(interaction, int(match["game_id"]), typed, sheet_of_phase=match["phase"])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OrderCommands(bot))
    route_form(ORDERS_FORM, submit_form)
    setup_builder(bot)
    setup_sheet(bot, sheet_flows)
