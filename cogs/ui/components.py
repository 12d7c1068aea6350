"""Buttons and forms. Buttons are DynamicItems (their custom_id carries the game), so they keep working
after the bot restarts; the orders form is read by its custom_id in cogs.commands.orders for the same
reason."""

from __future__ import annotations

import re

import discord

from cogs.shared import flows as actions

ORDERS_FORM = re.compile(r"orders:(?P<game_id>\d+):(?P<phase>[SFW]\d{4}[MRA])")
ORDERS_INPUT = "orders"
MAX_FORM_TEXT = 4000  # Discord's limit for a text input


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<game_id>\d+)"):
    """ "Join" under a new game's announcement."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"join:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await actions.answering(actions.join)(interaction, self.game_id)


def join_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game_id))
    return view


class OrdersForm(discord.ui.Modal):
    """The /orders edit form: the player's current orders, one per line, to edit as a whole.

    Submissions are handled by cogs.commands.orders from the custom_id (``orders:{game}:{phase}``), not by
    this object, so a form opened before a restart still reaches the bot."""

    def __init__(self, game_id: int, phase: str, title: str, sheet: str, placeholder: str) -> None:
        super().__init__(title=title[:45], custom_id=f"orders:{game_id}:{phase}", timeout=15 * 60)
        self.add_item(
            discord.ui.TextInput(
                label="Your orders, one per line",
                custom_id=ORDERS_INPUT,
                style=discord.TextStyle.paragraph,
                default=sheet[:MAX_FORM_TEXT] or None,
                placeholder=placeholder[:100] or None,
                required=False,
                max_length=MAX_FORM_TEXT,
            )
        )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Nothing here: see the class docstring."""
