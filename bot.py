"""The composition root: settings, logging, the Bot, the scheduler, the cogs. Run: ./run.sh [--sync].

Exit codes: see ops.exits (0 stopped cleanly, 1 unexpected error, 2 settings or token, 3 Discord
unreachable, 4 database unreachable or unwritable, 5 migration failed or, for --check, pending).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

import discord
from discord.ext import commands
from pydantic import ValidationError

from cogs.messages.sender import DiscordSender
from cogs.places.repair import DiscordShielder
from cogs.places.spaces import BOT_PERMISSIONS
from cogs.shared.base import Services
from cogs.shared.replies import GameCommandTree
from cogs.ui import guard
from config import Settings, configure_logging, describe_problems, setup_help, silence_voice_warnings
from db.database import make_engine, make_session_factory
from db.preflight import DatabaseProblem, Problem, prepare_database
from gm.facade import Gamemaster
from gm.setup.games import FormingLimits
from ops import health
from ops.exits import ExitCode, StartupError
from ops.gate import InteractionGate
from ops.memory import keep_big_blocks_returnable, keep_giving_back, share_heaps
from ops.runner import run_until_stopped
from ops.shutdown import cancel, listener_tasks, listeners_finished

log = logging.getLogger("bot")

EXTENSIONS = (
    "cogs.commands.game",
    "cogs.commands.orders",
    "cogs.commands.maps",
    "cogs.commands.direct",
    "cogs.commands.moderation",
    "cogs.commands.draws",
    "cogs.commands.notify",
    "cogs.commands.stats",
    "cogs.commands.absence",
    "cogs.commands.server",
)


RATE_LIMIT_WAIT = 30.0  # seconds discord.py may wait out a rate limit (its minimum)


class DiplomacyBot(commands.AutoShardedBot):
    """Upgrades the database, loads the cogs, starts the scheduler and sends the unsent outbox in
    setup_hook. Nothing connects until ``start``/``run`` (or ops.runner).

    Sharded (discord.py's AutoShardedBot): SHARD_COUNT and SHARD_IDS pick the shards this process
    runs; unset, Discord says how many and this process runs them all. Several processes on one
    database each look after the games of their own shards' servers (gm.delivery.shards)."""

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0) -> None:
        silence_voice_warnings()
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
            # No cache of the messages seen (1,000 by default, each with its embeds): nothing here
            # reads a message back from it (edits go to partial messages, DMs are handled as they
            # come), and under load it was ~10 MiB of the bot's memory.
            max_messages=None,
            **shard_options(settings),
        )
        self.settings = settings
        self.database = make_engine(settings.database_url)
        sessions = make_session_factory(self.database)
        limits = FormingLimits(settings.forming_games_per_user, settings.forming_games_per_server)
        gamemaster = Gamemaster(
            sessions,
            workers=settings.close_workers,
            forming_limits=limits,
            ownership=settings.ownership,
            process_name=settings.process,
        )
        self.sender = DiscordSender(self, gamemaster, settings.moderator_role)
        gamemaster.sender = self.sender
        self.services = Services(gamemaster, settings.moderator_role, player_records=settings.player_records)
        self.gate = InteractionGate(self)
        self.setup_started = asyncio.Event()
        self.gateway_connected = asyncio.Event()
        self._database_prepared = False
        self._started = False  # the gamemaster runs: a stop must let it finish its work
        self._stopping: asyncio.Task[None] | None = None
        self._draining: asyncio.Task[None] | None = None
        self._shielding: asyncio.Task[Any] | None = None  # the shields' repair (gm.setup.shields)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Every DynamicItem the bot registers refuses, with an answer, an id it cannot read
        (cogs.ui.guard)."""
        super().add_dynamic_items(*(guard.guarded(item) for item in items))

    @property
    def shard_ids_run(self) -> list[int]:
        """The shards this process runs (known once connected, when Discord chose their number)."""
        return sorted(self.shards)

    async def prepare_database(self) -> None:
        """Check the database and bring it to the latest schema (once); StartupError names what failed."""
        if self._database_prepared:
            return
        try:
            await prepare_database(self.database, backups_kept=self.settings.migration_backups)
        except DatabaseProblem as problem:
            code = ExitCode.MIGRATION if problem.kind == Problem.MIGRATION else ExitCode.DATABASE
            raise StartupError(code, problem.reason) from problem
        self._database_prepared = True

    async def setup_hook(self) -> None:
        self.setup_started.set()
        await self.prepare_database()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_listener(guard.on_interaction, "on_interaction")  # every button and form answers
        if self.settings.sync_commands:
            await self.tree.sync()
        self._started = True  # from here on a stop lets the gamemaster finish its work
        await self.services.gamemaster.start()

    async def on_connect(self) -> None:
        self.gateway_connected.set()

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "ready: connected to Discord as %s (id %s), on %d servers (shards %s of %s)",
            user,
            user.id if user else None,
            len(self.guilds),
            ",".join(map(str, self.shard_ids_run)),
            self.shard_count,
            extra={
                "event": "ready",
                "guilds": len(self.guilds),
                "shards": self.shard_ids_run,
                "shard_count": self.shard_count,
            },
        )
        # Messages that needed the server's description waited for it (cogs.messages.sender).
        gamemaster = self.services.gamemaster
        self.services.spawn(gamemaster.deliver(), "sending what waited for the connection")
        # Games set up before the players' shields get them now, paced, in the background.
        if self._shielding is None or self._shielding.done():
            shielder = DiscordShielder(self, gamemaster, self.sender.place_locks)
            self._shielding = self.services.spawn(
                gamemaster.shield_running_games(shielder), "putting the players' shields on older games"
            )

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: direct messages are orders (cogs.commands.direct)."""

    async def close(self) -> None:
        """Stop gracefully: take no more interactions, let the work under way finish (at most
        SHUTDOWN_TIMEOUT seconds; what is left then is handed to the next start), send the queued
        messages, then close the connection, the worker processes and the database."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop(), name="graceful-stop")
        await asyncio.shield(self._stopping)

    def hurry(self) -> None:
        """Stop waiting for the work under way (a second SIGTERM or Ctrl-C)."""
        if self._draining is not None and not self._draining.done():
            self._draining.cancel()

    async def _stop(self) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        self.gate.close()
        self.services.gamemaster.wind_down()  # the shields' repair stops after its current game
        complete = True
        if self._started:
            timeout = self.settings.shutdown_timeout
            log.info("stopping: no new interactions; finishing the work under way (at most %g s)", timeout)
            self._draining = asyncio.create_task(self._finish_work(), name="finishing-work")
            await asyncio.wait({self._draining}, timeout=timeout)
            if not self._draining.done() or self._draining.cancelled() or self._draining.exception():
                complete = False
                await self._hand_back()
        await super().close()
        await self.database.dispose()
        log.info(
            "stopped in %.1f s%s",
            loop.time() - began,
            "" if complete else " (work left for the next start)",
            extra={"event": "stopped", "seconds": round(loop.time() - began, 3), "complete": complete},
        )

    async def _finish_work(self) -> None:
        await listeners_finished()  # slash commands, buttons, forms, direct messages being handled
        await self.services.idle()  # what they started (an early close)
        await self.gate.idle()  # the "restarting" answers
        await self.services.gamemaster.shutdown()  # closes under way, the outbox, the worker processes

    async def _hand_back(self) -> None:
        """The stop ran out of time (or was hurried): cancel what runs; a close cut short stays
        'adjudicating' and messages stay queued, for the next start to finish and send."""
        gamemaster = self.services.gamemaster
        closing = sorted(getattr(gamemaster.closer, "active", ()))  # before cancelling forgets them
        draining = self._draining
        if draining is not None and not draining.done():
            draining.cancel()
            await asyncio.wait({draining}, timeout=5.0)
        elif draining is not None and not draining.cancelled() and draining.exception() is not None:
            log.error("finishing the work under way failed", exc_info=draining.exception())
        await cancel(listener_tasks())
        try:
            put_back = await gamemaster.abandon()
        except Exception:
            log.exception("could not release the outbox claims; they lapse by themselves in minutes")
            put_back = 0
        log.warning(
            "stopped before the work under way was done: %s; %d messages being sent were put back in "
            "the queue. The next start finishes them.",
            f"phases {closing} left being closed" if closing else "no close was under way",
            put_back,
            extra={"event": "handed_back", "phases": closing, "messages": put_back},
        )


def shard_options(settings: Settings) -> dict[str, Any]:
    """AutoShardedBot's shard_count and shard_ids, when the settings give them."""
    options: dict[str, Any] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The Diplomacy gamemaster bot for Discord.",
        epilog="Exit codes: 0 stopped cleanly (or --check healthy), 1 unexpected error, 2 settings or "
        "token, 3 Discord unreachable, 4 database unreachable or unwritable, 5 database upgrade failed "
        "(--check: upgrade pending).",
    )
    parser.add_argument("--sync", action="store_true", help="publish the slash commands to Discord first")
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the settings, the database and its schema, print one line and exit (health check)",
    )
    args = parser.parse_args(argv)
    keep_big_blocks_returnable()  # the maps passing through are given back to the system (ops/memory.py)
    share_heaps()  # the threads' freed memory in two heaps, not one each
    keep_giving_back()  # and the heaps' free pages, every 10 s
    try:
        settings = Settings()  # type: ignore[call-arg]  # pydantic-settings reads the environment
    except ValidationError as exc:
        print(f"The settings are incomplete or wrong:\n{describe_problems(exc.errors())}\n", file=sys.stderr)
        if not args.check:
            print(setup_help(BOT_PERMISSIONS.value), file=sys.stderr)
        return ExitCode.SETTINGS
    if args.check:
        code, line = asyncio.run(health.check(settings.database_url))
        print(line, file=sys.stdout if code == ExitCode.OK else sys.stderr)
        return code
    if args.sync:
        settings.sync_commands = True
    configure_logging(settings.log_level, settings.log_format)
    return run(settings)


def run(settings: Settings) -> int:
    """Run the bot until it is stopped; the exit code, with the reason logged when it is not 0."""
    bot = DiplomacyBot(settings)
    try:
        asyncio.run(
            run_until_stopped(
                bot, settings.discord_token.get_secret_value(), connect_timeout=settings.connect_timeout
            )
        )
    except StartupError as exc:
        log.error(
            "cannot start: %s", exc.reason, extra={"event": "startup_failed", "exit_code": int(exc.code)}
        )
        return exc.code
    except discord.LoginFailure:
        log.error("cannot start: Discord did not accept DISCORD_TOKEN", extra={"event": "startup_failed"})
        print(f"\n{setup_help(BOT_PERMISSIONS.value)}", file=sys.stderr)
        return ExitCode.SETTINGS
    except discord.PrivilegedIntentsRequired:
        log.error(
            "cannot start: Discord refused the Server Members intent. In the Developer Portal, open your "
            "application, Bot, and turn on 'Server Members Intent', then start the bot again.",
            extra={"event": "startup_failed"},
        )
        return ExitCode.SETTINGS
    except Exception:
        log.exception("the bot stopped on an unexpected error")
        return ExitCode.FAILED
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
