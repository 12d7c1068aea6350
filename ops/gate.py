"""The door the bot closes when it stops: from then on an interaction (a slash command, a button, a
form) is answered "restarting, try again in a minute" instead of being acted on, and a message (an
order by DM or by mention) is left unread; the bot's direct-message catch-up tells its author at the
next start, as for any message sent while the bot was offline (cogs.commands.direct).

discord.py offers no public hook that sees every interaction before it is acted on (slash commands
go to the command tree, buttons and forms to the view store), so the gate wraps the connection
state's parsers of the two gateway events (``INTERACTION_CREATE``, ``MESSAGE_CREATE``): pinned
discord.py 2.7.1, checked by tests/e2e/test_bot_shutdown.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

RESTARTING = "The bot is restarting and did not act on that. Please try again in a minute."
AUTOCOMPLETE = 4  # interaction type: the user is typing an option; answered with no suggestions


class InteractionGate:
    def __init__(self, client: discord.Client, on_interaction: Callable[[int], None] | None = None) -> None:
        """``on_interaction(id)``: told of each interaction let in (the metrics time its answer)."""
        self._client = client
        self._on_interaction = on_interaction
        self.open = True
        self.refused = 0  # interactions answered "restarting"
        self.ignored = 0  # messages left unread
        self._answers: set[asyncio.Task[None]] = set()
        parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
        parsers["INTERACTION_CREATE"] = self._guard(self._noted(parsers["INTERACTION_CREATE"]), self._refuse)
        parsers["MESSAGE_CREATE"] = self._guard(parsers["MESSAGE_CREATE"], self._ignore)

    def close(self) -> None:
        self.open = False

    async def idle(self) -> None:
        """Wait for the "restarting" answers already under way."""
        while self._answers:
            await asyncio.gather(*list(self._answers), return_exceptions=True)

    def _guard(self, parse: Callable[[Any], None], otherwise: Callable[[Any], None]) -> Callable[[Any], None]:
        def guarded(data: Any) -> None:
            (parse if self.open else otherwise)(data)

        return guarded

    def _noted(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def noted(data: Any) -> None:
            if self._on_interaction is not None:
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    self._on_interaction(int(data["id"]))
            parse(data)

        return noted

    def _ignore(self, _data: Any) -> None:
        self.ignored += 1

    def _refuse(self, data: Any) -> None:
        self.refused += 1
        interaction = discord.Interaction(data=data, state=self._client._connection)
        task = asyncio.get_running_loop().create_task(self._answer(interaction), name="gate-refusal")
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    @staticmethod
    async def _answer(interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.HTTPException):
            if interaction.type.value == AUTOCOMPLETE:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)
