"""The composition root: settings, logging, the Bot, the scheduler, the cogs. Run: ./run.sh [--sync].

Exit codes: see ops.exits (0 stopped cleanly, 1 unexpected error, 2 settings or token, 3 Discord
unreachable, 4 database unreachable or unwritable, 5 migration failed or, for --check, pending).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import logging
import os
import platform
import re
import sys
import threading
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands
from pydantic import ValidationError

from cogs.messages.sender import DiscordSender
from cogs.places.repair import DiscordShielder
from cogs.places.spaces import BOT_PERMISSIONS
from cogs.shared import replies
from cogs.shared.base import Services
from cogs.shared.replies import GameCommandTree
from cogs.ui import guard
from cogs.ui.sheet_live import LiveSheets
from config import Settings, configure_logging, describe_problems, setup_help, silence_voice_warnings
from db.backup import sqlite_path
from db.database import make_engine, make_session_factory
from db.inuse import DatabaseInUse, UseLock, hold_shared
from db.pghold import PostgresHold
from db.preflight import DatabaseProblem, Problem, describe_url, prepare_database
from gm.facade import Gamemaster
from gm.public import FormingLimits
from ops import eventloop, health, version
from ops.callbacks import parse_answers_lazily
from ops.commands import publish_commands
from ops.echoes import skip_own_direct_posts, skip_own_edits
from ops.exits import ExitCode, StartupError
from ops.facts import ProcessFacts
from ops.gate import InteractionGate
from ops.httpd import HealthServer
from ops.limits import MemberLimiter
from ops.liveness import LoopLag
from ops.memory import keep_big_blocks_returnable, keep_giving_back, share_heaps
from ops.metrics import Metrics, count_answers
from ops.ratelimits import sweep_seldom
from ops.runner import run_until_stopped
from ops.sdnotify import Watchdog, notify
from ops.sent import read_sent_lightly
from ops.shutdown import cancel, listener_tasks, listeners_finished
from ops.taps import parse_taps_lightly
from ops.turns import install as first_answers_first
from ops.views import list_slots_once, store_only_what_dispatches

log = logging.getLogger("bot")

EXTENSIONS = (
    "cogs.commands.game",
    "cogs.commands.orders",
    "cogs.commands.maps",
    "cogs.commands.direct",
    "cogs.commands.moderation",
    "cogs.commands.draws",
    "cogs.commands.notify",
    "cogs.commands.press",
    "cogs.commands.stats",
    "cogs.commands.absence",
    "cogs.commands.server",
    "cogs.commands.admin",
    "cogs.commands.sandbox",
)


RATE_LIMIT_WAIT = 30.0  # seconds discord.py may wait out a rate limit (its minimum)
UNWIND = 0.5  # seconds cancelled work may take to unwind once a stop is out of time
CLOSE_WAIT = 1.0  # seconds for the gateway, HTTP session and database to close after that
EXIT_GRACE = 1.8  # a stop ends the process at most this long after SHUTDOWN_TIMEOUT (exit_guard)
# The cyclic collector's thresholds once started (Python's: 700, 10, 10): every collection half as often;
# what start-up made is frozen out of them (gc.freeze). bench/interaction_cpu.py, the collector's CPU summed
# over its kinds: 6.2 ms -> 4.7 ms (one run each, busy machine). Not rarer: the garbage of requests under
# way waits for the next collection (at 2000, 20, 10 a paced run peaked 5 MiB higher: 153 MiB).
GC_THRESHOLDS = (1400, 10, 10)
DATABASE_WATCH = 2.0  # seconds between two checks that the database is still the one the bot opened


def bot_intents() -> discord.Intents:
    """The gateway events the bot reads, and no others (discord.py's default adds typing, reactions,
    voice states, emojis, invites, scheduled events...: each one parsed, some cached, none read here):
    the servers, their channels, threads and roles; their members (moderators' roles, players'
    overwrites: the privileged Server Members intent); messages in servers (an order by mention) and
    direct messages (orders, their edits and deletions). No message content is needed: Discord sends
    it for a message that mentions the bot and for a direct message."""
    return discord.Intents(guilds=True, members=True, guild_messages=True, dm_messages=True)


class DiplomacyBot(commands.AutoShardedBot):
    """Upgrades the database, loads the cogs and starts the gamemaster in setup_hook (the schedule's
    rebuild and the unsent outbox follow in the background). Nothing connects until ``start``/``run``
    (or ops.runner).

    Sharded (discord.py's AutoShardedBot): SHARD_COUNT and SHARD_IDS pick the shards this process
    runs; unset, Discord says how many and this process runs them all. Several processes on one
    database each look after the games of their own shards' servers (gm.delivery.shards)."""

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0) -> None:
        silence_voice_warnings()
        self.metrics = Metrics()
        intents = bot_intents()
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
        sweep_seldom(self.http)  # its rate-limit buckets walked once a minute, not at every new one
        skip_own_edits(self._connection, lambda: self.user.id if self.user else None)  # echoes unparsed
        skip_own_direct_posts(self._connection, lambda: self.user.id if self.user else None)  # the same
        parse_answers_lazily()  # the message an interaction's answer made, parsed only if read
        parse_taps_lightly(self._connection)  # a tap's message parsed without the rows not tapped
        store_only_what_dispatches(self._connection)  # the sheets' views found by their ids, not stored
        list_slots_once()  # discord.py's buttons and selects built without a walk of their classes each
        first_answers_first(self)  # in a burst, the answers people wait for before the work after them
        read_sent_lightly(self)  # the messages Discord returns for the bot's posts: no components parsed
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
        self.runtime = gamemaster.runtime  # the machinery: the composition root's alone, never a cog's
        self.sender = DiscordSender(self, gamemaster, settings.moderator_role)
        self.runtime.sender = self.sender
        self.runtime.on_close = lambda outcome: self.metrics.phase_closed(outcome.seconds, outcome.deadline)
        self.runtime.scheduler.on_close_failed = self.metrics.closes_failed.inc
        replies.failures.listener = lambda kind: self.metrics.interactions_failed.labels(kind).inc()
        self.services = Services(gamemaster, settings.moderator_role, player_records=settings.player_records)
        self.live_sheets = LiveSheets(self, gamemaster, self.services.edits)  # DM sheets kept up to date
        self.services.live = self.live_sheets
        self.runtime.on_orders_changed = self.live_sheets.changed
        self.runtime.menu_watch = self.live_sheets.watching
        self.gate = InteractionGate(
            self,
            on_interaction=self.metrics.interaction_arrived,
            limiter=MemberLimiter(settings.member_burst, settings.member_rate),
            on_limited=self.metrics.limited,
        )
        self.facts = ProcessFacts()  # for /admin status
        logging.getLogger().addHandler(self.facts.last_error)
        self.loop_lag = LoopLag()
        self.watchdog = Watchdog(self, self.loop_lag)
        self.health_server: HealthServer | None = None
        self._announced_ready = False
        self.setup_started = asyncio.Event()
        self.gateway_connected = asyncio.Event()
        self._database_prepared = False
        self._database_lock: UseLock | None = None  # held while the bot runs (db.inuse)
        self._postgres_hold: PostgresHold | None = None  # the same for PostgreSQL
        self._watching: asyncio.Task[None] | None = None
        self.must_stop = asyncio.Event()  # the bot cannot go on (ops.runner stops it)
        self.stop_reason: StartupError | None = None  # why, and the exit code
        self._started = False  # the gamemaster runs: a stop must let it finish its work
        self._stopping: asyncio.Task[None] | None = None
        self.exit_guard = False  # run() sets it: a stop ends the process in time, whatever hangs
        self.stopped_completely: bool | None = None  # set by the stop: False when out of time
        self._draining: asyncio.Task[None] | None = None
        self._shielding: asyncio.Task[Any] | None = None  # the shields' repair (gm.setup.shields)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Every DynamicItem the bot registers is a cogs.ui.guard.Guarded (it refuses, with an answer,
        an id it cannot read); their templates are kept for the listener that answers the ids no item
        takes (cogs.ui.guard.on_interaction)."""
        for item in items:
            if not issubclass(item, guard.Guarded):
                raise TypeError(f"{item.__name__} is not a cogs.ui.guard.Guarded item")
            self.item_templates[item.__discord_ui_compiled_template__.pattern] = (
                item.__discord_ui_compiled_template__
            )
        super().add_dynamic_items(*items)

    @property
    def item_templates(self) -> dict[str, re.Pattern[str]]:
        """The templates of the items registered (cogs.ui.guard reads them)."""
        if not hasattr(self, "_item_templates"):
            self._item_templates: dict[str, re.Pattern[str]] = {}
        return self._item_templates

    @property
    def shard_ids_run(self) -> list[int]:
        """The shards this process runs (known once connected, when Discord chose their number)."""
        return sorted(self.shards)

    async def prepare_database(self) -> None:
        """Check the database and bring it to the latest schema (once); StartupError names what failed."""
        if self._database_prepared:
            return
        self._hold_database()
        await self._hold_postgres()
        try:
            await prepare_database(
                self.database,
                backups_kept=self.settings.migration_backups,
                backup_dir=self.settings.backup_dir,
            )
        except DatabaseProblem as problem:
            codes = {Problem.MIGRATION: ExitCode.MIGRATION, Problem.NEWER: ExitCode.NEWER_DATABASE}
            raise StartupError(codes.get(problem.kind, ExitCode.DATABASE), problem.reason) from problem
        self._database_prepared = True

    def _hold_database(self) -> None:
        """A SQLite file: hold its lock while the bot runs, so that ``python -m db restore`` is refused
        meanwhile (db.inuse); refused itself while a restore is under way."""
        path = sqlite_path(self.settings.database_url)
        if path is None or self._database_lock is not None or not path.parent.is_dir():
            return  # PostgreSQL, or no directory: the preflight names the problem
        try:
            self._database_lock = hold_shared(path)
        except DatabaseInUse as refusal:
            raise StartupError(ExitCode.DATABASE, str(refusal)) from None
        except OSError as exc:
            raise StartupError(
                ExitCode.DATABASE,
                f"cannot make the lock file beside the SQLite file {path} ({exc.strerror or exc}): the "
                f"bot's user must be able to write in {path.parent}; is DATABASE_URL the one you meant "
                "(a line in your settings file wins over the deployment's own value)?",
            ) from None

    async def _hold_postgres(self) -> None:
        """PostgreSQL: the shared advisory lock a bot holds for its life, so that ``python -m db
        restore`` is refused meanwhile (db.inuse); refused itself while a restore is under way."""
        if self._postgres_hold is not None or sqlite_path(self.settings.database_url) is not None:
            return
        hold = PostgresHold(self.settings.database_url)
        try:
            await hold.take()
        except DatabaseInUse as refusal:
            await hold.release()
            raise StartupError(ExitCode.DATABASE, str(refusal)) from None
        except Exception:
            pass  # unreachable: the preflight that follows names the problem; the watch takes it later
        self._postgres_hold = hold

    def watch_database(self) -> None:
        """Check every DATABASE_WATCH seconds that the database is still the one the bot opened."""
        if self._watching is None:
            self._watching = asyncio.create_task(self._watch_database(), name="database-watch")

    async def _watch_database(self) -> None:
        while True:
            await asyncio.sleep(DATABASE_WATCH)
            reason = None
            if self._database_lock is not None:
                reason = self._database_lock.lost()
            elif self._postgres_hold is not None:
                reason = await self._postgres_hold.lost()
            if reason is not None:
                self.cannot_go_on(StartupError(ExitCode.DATABASE, reason))
                return

    def cannot_go_on(self, reason: StartupError) -> None:
        """Stop at once, without finishing the work under way (it would go to the wrong database),
        with one line and ``reason``'s exit code."""
        if self.stop_reason is not None:
            return
        log.error(
            "stopping: %s", reason.reason, extra={"event": "database_lost", "exit_code": int(reason.code)}
        )
        self.stop_reason = reason
        self._started = False  # nothing to finish: what was under way is the next start's
        self.must_stop.set()

    def gateway_problem(self) -> str | None:
        """Why the bot is not connected to Discord's gateway (None: every shard it runs is)."""
        if self.is_closed():
            return "the bot is stopping"
        if not self.is_ready():
            return "not connected to Discord's gateway yet"
        down = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"Discord's gateway is disconnected (shard {', '.join(map(str, down))})"
        return None

    def scheduler_running(self) -> bool:
        return self.runtime.scheduler.running

    def gateway_latency(self) -> float | None:
        return self.latency if self.is_ready() else None

    async def start_health_endpoint(self) -> None:
        """HEALTH_PORT set: serve /healthz and /metrics (ops.httpd)."""
        port = self.settings.health_port
        if port is None or self.health_server is not None:
            return
        server = HealthServer(
            self,
            self.loop_lag,
            self.metrics,
            self.services.gamemaster.operations_status,
            self.gateway_latency,
            host=self.settings.health_host,
            port=port,
            metrics_token=(
                self.settings.metrics_token.get_secret_value() if self.settings.metrics_token else None
            ),
            backlog=self.services.gamemaster.outbox_backlog,  # /healthz: 1 statement, not 6
        )
        try:
            await server.start()
        except OSError as exc:
            raise StartupError(
                ExitCode.SETTINGS,
                f"cannot serve /healthz on {self.settings.health_host}:{port} ({exc.strerror or exc}): "
                "pick another HEALTH_PORT or HEALTH_HOST",
            ) from exc
        self.health_server = server

    async def setup_hook(self) -> None:
        self.setup_started.set()
        session: Any = getattr(self.http, "_HTTPClient__session", None)  # made by the login, just done
        if session:
            count_answers(session, self.metrics)  # Discord's answers and rate limits, counted
        self.loop_lag.start()
        await self.prepare_database()
        for extension in EXTENSIONS:
            # Each module adds its cogs (its setup()), imported as any module is: not loaded as a
            # discord.py extension, which a stop would unload (a walk of sys.modules per extension)
            # and the next bot of the process (the tests') would execute anew.
            await importlib.import_module(extension).setup(self)
        self.add_listener(guard.on_interaction, "on_interaction")  # every button and form answers
        await publish_commands(
            self,
            self.tree,
            self.settings.sync_commands,
            may_publish=self.settings.ownership.owns_direct_messages,
        )
        self._started = True  # from here on a stop lets the gamemaster finish its work
        self.watch_database()
        # The schedule is rebuilt in the background, a slice at a time: the bot connects and answers
        # meanwhile (thousands of games take seconds), and deadlines due meanwhile still close.
        # What start-up makes (modules, then the jobs, page by page) lives as long as the process:
        # frozen, Python's full collections skip it (with 20,000 games one took 0.12-0.24 s of the loop).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self.runtime.launch(between_pages=gc.freeze).add_done_callback(lambda _: gc.freeze())
        await self.start_health_endpoint()

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
        if self._stopping is not None:  # connected only once the stop began (a slow gateway at start)
            log.info("stopping: the queued messages and the shields are left for the next start")
            return  # a delivery started now would outlive the stop's hand-back and its connection
        # Messages that needed the server's description waited for it (cogs.messages.sender).
        gamemaster = self.services.gamemaster
        self.runtime.spawn(self.runtime.deliver(), "sending what waited for the connection")
        # Games set up before the players' shields get them now, paced, in the background.
        if self._shielding is None or self._shielding.done():
            shielder = DiscordShielder(self, gamemaster, self.sender.place_locks)
            self._shielding = self.runtime.spawn(
                self.runtime.shield_running_games(shielder), "putting the players' shields on older games"
            )
        if not self._announced_ready:  # on_ready comes again after a reconnection
            self._announced_ready = True
            notify("READY=1")  # systemd (Type=notify): started
            self.watchdog.start()

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
        notify("STOPPING=1")
        self.runtime.wind_down()  # the shields' repair stops after its current game
        self.services.wind_down()  # and the catch-up of direct messages after its current player
        complete = True
        if self.exit_guard:
            _guard_exit(self.settings.shutdown_timeout + EXIT_GRACE)
        if self._started:
            timeout = self.settings.shutdown_timeout
            log.info("stopping: no new interactions; finishing the work under way (at most %g s)", timeout)
            self._draining = asyncio.create_task(self._finish_work(), name="finishing-work")
            await asyncio.wait({self._draining}, timeout=timeout)
            if not self._draining.done() or self._draining.cancelled() or self._draining.exception():
                complete = False
                await self._hand_back()
        wait = None if complete else CLOSE_WAIT  # out of time: what does not close at once is left
        await self.watchdog.stop()
        await self.loop_lag.stop()
        if self.health_server is not None:
            await self.health_server.stop()
        logging.getLogger().removeHandler(self.facts.last_error)
        try:
            await asyncio.wait_for(super().close(), wait)
            await asyncio.wait_for(self.database.dispose(), wait)
        except TimeoutError:
            log.warning("the connections did not close within %g s; leaving them", CLOSE_WAIT)
        if self._watching is not None:
            self._watching.cancel()
        if self._postgres_hold is not None:
            await self._postgres_hold.release()
        if self._database_lock is not None:
            self._database_lock.release()
        self.stopped_completely = complete
        log.info(
            "stopped in %.1f s%s",
            loop.time() - began,
            "" if complete else " (work left for the next start)",
            extra={"event": "stopped", "seconds": round(loop.time() - began, 3), "complete": complete},
        )

    async def _finish_work(self) -> None:
        await listeners_finished()  # slash commands, buttons, forms, direct messages being handled
        await self.live_sheets.abandon()  # DM sheets not redrawn yet: only pictures of the orders
        await self.services.idle()  # what they started (an early close)
        await self.gate.idle()  # the "restarting" answers
        await self.runtime.shutdown()  # closes under way, the outbox, the worker processes

    async def _hand_back(self) -> None:
        """The stop ran out of time (or was hurried): cancel what runs; a close cut short stays
        'adjudicating' and messages stay queued, for the next start to finish and send."""
        closing = sorted(getattr(self.runtime.closer, "active", ()))  # before cancelling forgets them
        draining = self._draining
        if draining is not None and not draining.done():
            draining.cancel()
            await asyncio.wait({draining}, timeout=UNWIND)
        elif draining is not None and not draining.cancelled() and draining.exception() is not None:
            log.error("finishing the work under way failed", exc_info=draining.exception())
        await cancel(listener_tasks(), timeout=UNWIND)
        await self.services.abandon(timeout=UNWIND)  # the cogs' own background work (a Join post's edit)
        try:
            put_back = await self.runtime.abandon()
        except Exception as exc:
            log.warning(
                "could not release the outbox claims (%s); the next start takes them back",
                str(exc) or type(exc).__name__,
            )
            put_back = 0
        log.warning(
            "stopped before the work under way was done: %s; %d messages being sent were put back in "
            "the queue. The next start finishes them.",
            f"phases {closing} left being closed" if closing else "no close was under way",
            put_back,
            extra={"event": "handed_back", "phases": closing, "messages": put_back},
        )


def _guard_exit(after: float) -> None:
    """End the process ``after`` seconds from now if it is still there (a stop must never outlast
    SHUTDOWN_TIMEOUT by more than EXIT_GRACE: a supervisor would kill it, or wait): whatever holds
    it up (a thread, a connection that does not close) is left to the next start, like any crash."""

    def end() -> None:
        log.warning("the stop outlasted SHUTDOWN_TIMEOUT by %g s: exiting now", EXIT_GRACE)
        logging.shutdown()
        os._exit(ExitCode.OK)

    timer = threading.Timer(after, end)
    timer.daemon = True
    timer.start()


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
        "(--check: upgrade pending), 6 the database is newer than this version (a rollback: restore "
        "the backup made before the upgrade).",
    )
    parser.add_argument("--version", action="version", version=version.describe())
    parser.add_argument("--sync", action="store_true", help="publish the slash commands to Discord first")
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the settings, the database and its schema, print one line and exit (health check)",
    )
    args = parser.parse_args(argv)
    os.umask(0o077)  # the database, its WAL, backups and dumps hold secret orders: owner only
    keep_big_blocks_returnable()  # the maps passing through are given back to the system (ops/memory.py)
    share_heaps()  # the threads' freed memory in two heaps, not one each
    keep_giving_back()  # and the heaps' free pages, every 10 s
    try:
        settings = Settings()
    except OSError as exc:  # .env is there but cannot be read
        print(
            f"cannot start: cannot read the settings file {exc.filename or '.env'} "
            f"({exc.strerror or exc}): make it readable by the bot's user (chmod 600, owned by it)",
            file=sys.stderr,
        )
        return ExitCode.SETTINGS
    except ValidationError as exc:
        problems = describe_problems(exc.errors())
        if len(exc.errors()) == 1:  # one line an operator reads at once
            print(f"cannot start: {problems.removeprefix('- ')}", file=sys.stderr)
        else:
            print(f"The settings are incomplete or wrong:\n{problems}\n", file=sys.stderr)
        if not args.check and any(e["loc"][:1] == ("discord_token",) for e in exc.errors()):
            print(setup_help(BOT_PERMISSIONS.value), file=sys.stderr)
        return ExitCode.SETTINGS
    if args.check:
        code, line = asyncio.run(health.check(settings.database_url))
        print(line, file=sys.stdout if code == ExitCode.OK else sys.stderr)
        return code
    if args.sync:
        settings.sync_commands = True
    configure_logging(settings.log_level, settings.log_format)
    loop, _ = eventloop.loop_factory(settings.event_loop)
    log.info(
        "%s starting: Python %s, process %s, database %s, event loop %s",
        version.describe(),
        platform.python_version(),
        settings.process,
        describe_url(settings.database_url),
        loop,
        extra={
            "event": "starting",
            "version": version.VERSION,
            "commit": version.commit(),
            "event_loop": loop,
        },
    )
    warn_if_readable(Path(".env"))
    return run(settings)


def warn_if_readable(path: Path) -> None:
    """The settings file holds the token: say so when others may read it."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & 0o077:
        log.warning(
            "%s can be read by other users (mode %o) and holds the bot's token: chmod 600 %s",
            path,
            mode & 0o777,
            path,
            extra={"event": "settings_file_readable"},
        )


def run(settings: Settings) -> int:
    """Run the bot until it is stopped; the exit code, with the reason logged when it is not 0."""
    bot = DiplomacyBot(settings)
    bot.exit_guard = True
    try:
        eventloop.run(
            run_until_stopped(
                bot, settings.discord_token.get_secret_value(), connect_timeout=settings.connect_timeout
            ),
            settings.event_loop,
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
    if bot.stop_reason is not None:  # its line is in the log already
        return bot.stop_reason.code
    if bot.stopped_completely is False:
        # Out of time: what was cut short is the next start's. Nothing is left to wait for (the
        # interpreter's exit would join the worker pool's threads, a second or more).
        logging.shutdown()
        os._exit(ExitCode.OK)
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
