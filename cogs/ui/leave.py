"""Leaving a game that has started asks first, with buttons: "Leave the game" and "Stay".

The buttons are DynamicItems whose custom_id carries the game and the player who asked
(``leave:<game>:<user>:go`` / ``:stay``), so they work after a restart and only for that player; the
answer replaces the question and its buttons, so nothing is done twice.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.shared import text
from cogs.shared.base import services_of
from cogs.shared.replies import answering
from cogs.ui.guard import Guarded, own_question
from gm.public import GameInfo

SEAT_FILLED_BY = {
    "open": "any member of this server who does not play in the game may take it",
    "approval": (
        "a member of this server who does not play in the game may ask for it, and a moderator approves"
    ),
    "off": "a moderator gives it to a new player",
}


def leave_question(game: GameInfo) -> str:
    """What leaving a running game does, asked before it is done."""
    how = SEAT_FILLED_BY.get(game.settings.take_over, SEAT_FILLED_BY["off"])
    meanwhile = (
        "the built-in player plays your powers"
        if game.settings.absent_seats == "built_in"
        else "your powers hold in civil disorder"
    )
    return (
        f"**#{game.id} {text.safe(game.name)}** has started. If you leave, {meanwhile} until a new player "
        f"takes your seat ({how}), and you lose access to the game's private channels and talks. Leave the "
        "game?"
    )


class LeaveButton(
    Guarded[discord.ui.Button[Any]],
    template=r"leave:(?P<game_id>\d+):(?P<user_id>\d+):(?P<choice>go|stay)",
):
    def __init__(self, game_id: int, user_id: int, choice: str) -> None:
        go = choice == "go"
        super().__init__(
            discord.ui.Button(
                label="Leave the game" if go else "Stay",
                style=discord.ButtonStyle.danger if go else discord.ButtonStyle.secondary,
                custom_id=f"leave:{game_id}:{user_id}:{choice}",
            )
        )
        self.game_id, self.user_id, self.choice = game_id, user_id, choice

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaveButton:
        return cls(int(match["game_id"]), int(match["user_id"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._chosen)(interaction)

    async def _chosen(self, interaction: discord.Interaction) -> None:
        own_question(interaction, self.user_id)
        if self.choice == "stay":
            await interaction.response.edit_message(
                content="You stay in the game: nothing was changed.", view=None
            )
            return
        await interaction.response.defer()
        left = await services_of(interaction.client).gamemaster.leave_game(self.game_id, self.user_id)
        await interaction.edit_original_response(
            content=f"You left **#{left.after.id} {text.safe(left.after.name)}**.", view=None
        )


def leave_buttons(game_id: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(game_id, user_id, "go"))
    view.add_item(LeaveButton(game_id, user_id, "stay"))
    return view


def setup_leave(client: discord.Client) -> None:
    client.add_dynamic_items(LeaveButton)
