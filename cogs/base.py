"""What every cog shares: the services the bot hands them, and a base class giving them short names.

A cog for a new feature (moderation, draws, variants) subclasses :class:`GameCog`, uses
``self.sessions()`` with the gm use cases, :func:`cogs.context.resolve_game` to know which game an
interaction is about, :func:`cogs.context.may_manage` for "creator or moderator", and lets a
``GameError`` escape: the command tree turns it into an ephemeral answer (cogs.replies).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from db.database import SessionFactory
from gm.games import FormingLimits
from gm.runtime import Gamemaster

log = logging.getLogger(__name__)


@dataclass
class Services:
    """The bot's wiring, built once by the composition root (bot.py) and shared by every cog."""

    sessions: SessionFactory
    gamemaster: Gamemaster
    moderator_role: str = "Diplomacy Moderator"
    forming_limits: FormingLimits = field(default_factory=FormingLimits)
    background: set[asyncio.Task[Any]] = field(default_factory=set)
    setting_up: dict[int, asyncio.Lock] = field(default_factory=dict)
    """game id -> held while /game start makes that game's channels (one bot process)."""

    def setup_lock(self, game_id: int) -> asyncio.Lock:
        """The lock that lets one /game start at a time set up a game's places."""
        return self.setting_up.setdefault(game_id, asyncio.Lock())

    def spawn(self, work: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        """Run ``work`` after the interaction has been answered (closing a phase, posting results):
        kept referenced until done, its failure logged."""
        task = asyncio.create_task(self._logged(work, what), name=what)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    async def idle(self) -> None:
        """Wait for the background work started so far (tests, shutdown)."""
        while self.background:
            await asyncio.gather(*list(self.background), return_exceptions=True)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, Any], what: str) -> None:
        try:
            await work
        except Exception:
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
    def sessions(self) -> SessionFactory:
        return self.services.sessions

    @property
    def gamemaster(self) -> Gamemaster:
        return self.services.gamemaster
