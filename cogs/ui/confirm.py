"""The confirmation under /mod rollback, /mod end and a /mod close of a phase that has just opened:
"Roll back" / "End the game" / "Close <phase>" and "Cancel".

The buttons are DynamicItems: their custom_id carries the action, the game and the phase the moderator
was looking at, so a click still reaches the bot after a restart, and a click after the game has moved
on is refused rather than applied to another phase. A reason for /mod end is too long for a custom_id;
it waits in memory under a short token, and a click whose reason was lost (the bot restarted) asks the
moderator to run the command again. The first click removes the buttons, so nothing is done twice.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import discord

from cogs.shared import mod_flows as modflows
from cogs.shared.replies import answering, error_text
from cogs.ui.guard import Guarded, own_question
from gm.public import GameError

ACTIONS = {"rollback": "Roll back", "end": "End the game", "close": "Close the phase"}
NO_REASON = "-"
MAX_WAITING_REASONS = 200
_reasons: dict[str, str] = {}  # token -> the reason typed with /mod end, until its button is clicked


def keep_reason(reason: str | None) -> str:
    """A token for the reason (``-`` when there is none)."""
    if not reason or not reason.strip():
        return NO_REASON
    while len(_reasons) >= MAX_WAITING_REASONS:
        _reasons.pop(next(iter(_reasons)))
    token = secrets.token_hex(4)
    _reasons[token] = reason.strip()
    return token


class ConfirmButton(
    Guarded[discord.ui.Button],
    template=r"mod:(?P<action>rollback|end|close|cancel):(?P<game_id>\d+):(?P<phase_id>\d+):(?P<token>[-0-9a-f]+)",
):
    def __init__(
        self, action: str, game_id: int, phase_id: int, token: str = NO_REASON, label: str | None = None
    ) -> None:
        label = (label or ACTIONS.get(action, "Cancel"))[:80]
        style = discord.ButtonStyle.danger if action in ACTIONS else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"mod:{action}:{game_id}:{phase_id}:{token}"
            )
        )
        self.action, self.game_id, self.phase_id, self.token = action, game_id, phase_id, token

    @classmethod
    async def read(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmButton:
        return cls(match["action"], int(match["game_id"]), int(match["phase_id"]), match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answering(self._confirmed)(interaction)

    async def _confirmed(self, interaction: discord.Interaction) -> None:
        own_question(interaction)  # the moderator's own private question, never a copy elsewhere
        if self.action == "cancel":
            await interaction.response.edit_message(content="Cancelled: nothing was changed.", view=None)
            return
        await interaction.response.edit_message(content="Working on it…", view=None)
        try:
            lines = await self._run(interaction)
        except GameError as exc:
            lines = [error_text(exc) or str(exc)]
        await interaction.edit_original_response(content="\n".join(lines)[:2000])

    async def _run(self, interaction: discord.Interaction) -> list[str]:
        if self.action == "rollback":
            return await modflows.do_rollback(interaction, self.game_id, self.phase_id)
        if self.action == "close":
            return await modflows.do_close(interaction, self.game_id, self.phase_id)
        reason = None
        if self.token != NO_REASON:
            if self.token not in _reasons:
                return ["This confirmation has expired; nothing was changed. Run /mod end again."]
            reason = _reasons.pop(self.token)
        return await modflows.do_end(interaction, self.game_id, self.phase_id, reason)


def confirm_view(
    action: str, game_id: int, phase_id: int, token: str = NO_REASON, *, label: str | None = None
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(action, game_id, phase_id, token, label))
    view.add_item(ConfirmButton("cancel", game_id, phase_id))
    return view
