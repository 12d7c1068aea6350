"""The orders form, read by its custom_id in cogs.commands.orders, so that a form opened before a
restart still reaches the bot. (The Join button is the Join post's: cogs.ui.lobby.)"""

from __future__ import annotations

import re

import discord

ORDERS_FORM = re.compile(r"orders:(?P<game_id>\d+):(?P<phase>[SFW]\d{4}[MRA])")
ORDERS_INPUT = "orders"
MAX_FORM_TEXT = 4000  # Discord's limit for a text input


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
