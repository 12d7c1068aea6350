"""The composition root: settings, logging, the Bot, the scheduler, the cogs. Run: ./run.sh [--sync]."""

from __future__ import annotations

import argparse
import sys

import aiohttp
import discord
from discord.ext import commands
from pydantic import ValidationError

from cogs.messages.sender import DiscordSender
from cogs.places.spaces import BOT_PERMISSIONS
from cogs.shared.base import Services
from cogs.shared.replies import GameCommandTree
from config import Settings, configure_logging, describe_problems, setup_help
from db.database import make_engine, make_session_factory
from db.migrate import upgrade_database
from gm.facade import Gamemaster
from gm.setup.games import FormingLimits

EXTENSIONS = (
    "cogs.commands.game",
    "cogs.commands.orders",
    "cogs.commands.maps",
    "cogs.commands.direct",
    "cogs.commands.moderation",
    "cogs.commands.draws",
    "cogs.commands.notify",
)


RATE_LIMIT_WAIT = 30.0  # seconds discord.py may wait out a rate limit (its minimum)


class DiplomacyBot(commands.Bot):
    """Upgrades the database, loads the cogs, starts the scheduler and sends the unsent outbox in
    setup_hook. Nothing connects until ``start``/``run``."""

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0) -> None:
        intents = discord.Intents.default()
        intents.members = True  # moderators' roles, players' overwrites; no message content needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=GameCommandTree,
            guild_ready_timeout=guild_ready_timeout,
            # A long rate limit on one channel raises instead of stalling every send for minutes:
            # the outbox retries that message later and the other games' messages keep flowing.
            max_ratelimit_timeout=RATE_LIMIT_WAIT,
        )
        self.settings = settings
        self.database = make_engine(settings.database_url)
        sessions = make_session_factory(self.database)
        limits = FormingLimits(settings.forming_games_per_user, settings.forming_games_per_server)
        gamemaster = Gamemaster(sessions, workers=settings.close_workers, forming_limits=limits)
        gamemaster.sender = DiscordSender(self, gamemaster, settings.moderator_role)
        self.services = Services(gamemaster, settings.moderator_role)

    async def setup_hook(self) -> None:
        await upgrade_database(self.database)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.sync_commands:
            await self.tree.sync()
        await self.services.gamemaster.start()

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: direct messages are orders (cogs.commands.direct)."""

    async def close(self) -> None:
        await self.services.gamemaster.shutdown()
        await super().close()
        await self.database.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The Diplomacy gamemaster bot for Discord.")
    parser.add_argument("--sync", action="store_true", help="publish the slash commands to Discord first")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"The settings are incomplete or wrong:\n{describe_problems(exc.errors())}\n", file=sys.stderr)
        print(setup_help(BOT_PERMISSIONS.value), file=sys.stderr)
        return 2
    if args.sync:
        settings.sync_commands = True
    configure_logging(settings.log_level)
    bot = DiplomacyBot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        print(
            f"Discord did not accept DISCORD_TOKEN.\n\n{setup_help(BOT_PERMISSIONS.value)}", file=sys.stderr
        )
        return 2
    except (aiohttp.ClientError, OSError) as exc:
        print(f"Cannot reach Discord ({exc}). Check the network connection and try again.", file=sys.stderr)
        return 3
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the Server Members intent. In the Developer Portal, open your application, "
            "Bot, and turn on 'Server Members Intent', then start the bot again.",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
