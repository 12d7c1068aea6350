"""What every cog shares: the services the bot hands them, and a base class giving them short names.

A cog for a new feature (moderation, draws, variants) subclasses :class:`GameCog`, calls the use cases
on ``self.gamemaster`` (gm.facade: each call commits and runs its own follow-ups), uses
:func:`cogs.shared.context.resolve_game` to know which game an interaction is about, and lets a
``GameError`` escape: the command tree turns it into an ephemeral answer (cogs.shared.replies).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import discord
from discord.ext import commands

from cogs.shared.ordered import Edits, Latest, TapOrder
from gm.facade import Gamemaster

log = logging.getLogger(__name__)


class DmSheets(Protocol):
    """The order sheets in direct messages kept up to date (cogs.ui.sheet_live.LiveSheets)."""

    def shown(
        self, channel_id: int, message_id: int, sheet: Any, words: Sequence[Any], at: float
    ) -> None: ...

    def tapping(
        self, message: discord.Message | None, sheet: Any
    ) -> contextlib.AbstractContextManager[None]: ...

    def changed(self, game_id: int, user_id: int, phase: str) -> None: ...


@dataclass
class Services:
    """The bot's wiring, built once by the composition root (bot.py) and shared by every cog."""

    gamemaster: Gamemaster
    moderator_role: str = "Diplomacy Moderator"
    player_records: bool = False  # each player's record beside their name in the Join post

    # taps written in the order made; edits never older than shown (cogs.shared.ordered)
    taps: TapOrder = field(default_factory=TapOrder, init=False, repr=False)
    edits: Edits = field(default_factory=Edits, init=False, repr=False)
    posts: Latest = field(default_factory=Latest, init=False, repr=False)  # the Join posts
    live: DmSheets | None = field(default=None, init=False, repr=False)  # the sheets in DMs (bot.py)
    # what answers the taps on each kind of order sheet, by its ids' prefix (cogs.ui.sheet.answer_with)
    sheets: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    _background: set[asyncio.Task[Any]] = field(default_factory=set, init=False, repr=False)
    stopping: bool = field(default=False, init=False)  # a stop has begun (bot.py): start no long work
    # long background work that failed (the catch-up of direct messages sent while offline) is tried
    # again after the first (seconds), doubled each time up to the second. Here, not in the cog: an
    # extension's module is loaded anew by each bot, so a test could not shorten it there.
    retry_after: ClassVar[tuple[float, float]] = (60.0, 900.0)

    def wind_down(self) -> None:
        """A stop begins: long background work (the catch-up of direct messages sent while offline)
        ends at its next step and is not started any more; what it leaves, the next start does."""
        self.stopping = True

    def spawn(self, work: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        """Run Discord work after the interaction has been answered (editing a Join post): kept
        referenced until done, its failure logged. (What follows a use case is the gamemaster's own
        background work: each facade call runs it.)"""
        task = asyncio.create_task(_logged(work, what), name=what)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def idle(self) -> None:
        """Wait for the background work started so far (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def abandon(self, *, timeout: float) -> None:
        """Cancel the background work under way (a stop out of time), waiting at most ``timeout``
        seconds for it to unwind."""
        running = [task for task in self._background if not task.done()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=timeout)


async def _logged(work: Coroutine[Any, Any, Any], what: str) -> None:
    try:
        await work
    except Exception as exc:
        task = asyncio.current_task()
        if task is not None and task.cancelling():  # a stop out of time cut it short (bot.py)
            log.warning(
                "background work cut short by the stop: %s (%s)", what, str(exc) or type(exc).__name__
            )
            return
        log.exception("background work failed: %s", what)


def services_of(client: discord.Client) -> Services:
    services = getattr(client, "services", None)
    if not isinstance(services, Services):
        raise RuntimeError("the bot has no services; build it with bot.DiplomacyBot")
    return services


class GameCog(commands.Cog):
    """Base of the bot's cogs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.services = services_of(bot)

    @property
    def gamemaster(self) -> Gamemaster:
        return self.services.gamemaster
