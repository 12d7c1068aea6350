"""Plain direct messages to the bot are read as orders (DMs need no message-content intent).

A player in one running game just writes their orders. A player in several starts the message with a
line naming the game (``game: 3`` or ``game: Friday game``); without it nothing is recorded and the
answer lists their games. Every DM gets an answer.
"""

from __future__ import annotations

import logging
import re

import discord
from discord.ext import commands

from cogs import actions, text
from cogs.announce import HOW_TO_ORDER
from cogs.base import GameCog
from cogs.replies import CRASH_TEXT, error_text
from gm import games as gm_games
from gm import orders as gm_orders
from gm.errors import GameError, UnknownGame
from gm.views import GameInfo

log = logging.getLogger(__name__)

GAME_LINE = re.compile(r"^\s*(?:game\s*[:=]\s*|#)(?P<game>.+?)\s*$", re.IGNORECASE)
PUBLIC_MENTION = (
    "I do not read orders in server channels: everyone here can see them. Send them to me by direct "
    "message, or with `/order` or `/orders edit` (only you see those). If your message held orders, "
    "you may want to delete it."
)
HELP_WORDS = {"help", "?", "hi", "hello", "orders"}


def split_game_line(content: str) -> tuple[str | None, str]:
    """``("3", "A Par-Bur")`` for ``"game: 3\\nA Par-Bur"``; ``(None, content)`` without such a line."""
    first, _, rest = content.strip().partition("\n")
    match = GAME_LINE.match(first)
    if match is None:
        return None, content
    return match["game"], rest


def pick(games: list[GameInfo], wanted: str | None) -> GameInfo:
    if wanted is not None:
        key = wanted.strip().removeprefix("#").casefold()
        for game in games:
            if key == str(game.id) or key == game.name.casefold():
                return game
        raise UnknownGame(
            f"You play in no running game called {wanted!r}.",
            "Your games: " + ", ".join(f"#{g.id} {g.name}" for g in games) + ".",
        )
    if len(games) == 1:
        return games[0]
    if not games:
        raise UnknownGame(
            "You are not playing in any running game, so I have nothing to do with these orders.",
            "Join a game with /game join in a server before it starts.",
        )
    listing = ", ".join(f"#{g.id} {g.name}" for g in games)
    raise UnknownGame(
        f"You play in {len(games)} games ({listing}), so I cannot tell which one these orders are for. "
        "Nothing was recorded.",
        f"Send them again with a first line naming the game, like: game: {games[0].id}",
    )


class DirectMessages(GameCog):
    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None:
            return
        if message.guild is not None:
            await self._mentioned_in_public(message)
            return
        try:
            lines = await self._answer(message)
        except GameError as exc:
            lines = [error_text(exc) or str(exc)]
        except Exception:
            log.exception("a direct message from %s could not be handled", message.author.id)
            lines = [CRASH_TEXT]
        for part in text.chunks(lines):
            try:
                await message.channel.send(part)
            except discord.HTTPException as exc:
                log.warning("could not answer %s's direct message: %s", message.author.id, exc)
                return

    async def _mentioned_in_public(self, message: discord.Message) -> None:
        """Someone wrote to the bot in a server channel (the only server messages it can read): orders
        belong in private, so say where, without repeating what they wrote."""
        if self.bot.user is None or self.bot.user not in message.mentions:
            return
        try:
            await message.reply(PUBLIC_MENTION, mention_author=False)
        except discord.HTTPException as exc:
            log.info("could not answer a mention in channel %s: %s", message.channel.id, exc)

    async def _answer(self, message: discord.Message) -> list[str]:
        content = message.content or ""
        if not content.strip():
            return ["I read orders as text: write one order per line, like `A Par-Bur`.", HOW_TO_ORDER]
        if content.strip().casefold() in HELP_WORDS:
            return [HOW_TO_ORDER]
        wanted, orders_text = split_game_line(content)
        async with self.sessions() as session:
            mine = await gm_games.games_of_user(session, message.author.id)
        game = pick([g for g in mine if g.status in ("active", "paused")], wanted)
        async with self.sessions() as session:
            report = await gm_orders.submit_orders(session, game.id, message.author.id, orders_text)
        actions.after_orders(self.bot, report.view)
        return text.report_lines(report)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DirectMessages(bot))
