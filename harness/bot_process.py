"""The real ``bot.main()`` (signals, start-up checks, exit codes, logging) in a process of its own,
pointed at a loopback fake Discord instead of discord.com:

    FAKE_DISCORD_URL=http://127.0.0.1:PORT python -m harness.bot_process [bot.py's options]

Only the two addresses discord.py connects to are changed (as harness.fakediscord.fake_discord
does in-process), and two waits meant for discord.com are cut as in-process (:func:`start_at_once`);
everything else is the production start-up. See harness/processes.py.

``FAKE_DISCORD_CLIENT=NAME`` adds `` fake-client/NAME`` to the User-Agent of the bot's REST calls, so
that a fake serving several bot processes knows which one made each call (RestCall.client).

``HOLD_CLOSES=SECONDS`` makes every close wait that long once it has claimed its phase (the phase
reads "adjudicating" meanwhile, no lock held): a test can signal the bot in the middle of a close
however busy the machine is (gm.phases.closer.CloseHooks, the closer's test seam).

``CLAIM_LEASE=SECONDS`` shortens the lease of a close's claim (gm.delivery.scheduler.LEASE, 15 s) to
SECONDS, renewed and looked at five times as often: a test of a claimer that died waits seconds, not
twenty.

``KEEP_CLAIMS=1``: a stop out of time cannot release its outbox claims (as with the database away at
that moment, or the exit guard first): they stay in the database for the next start.

``BOT_PROFILE=FILE`` profiles the event loop's thread with cProfile between two SIGUSR1 (the first
starts it, the second writes FILE), for bench/load.py's ``--profile``; with ``PYTHONTRACEMALLOC=N`` set
too, a tracemalloc snapshot of what the process holds then is written to FILE.memory. The profile's
clock is the thread's CPU time (what the bot's CPU per interaction counts: waits left out);
``BOT_PROFILE_WALL=1`` makes it the wall clock (the waits in the loop, epoll's among them).

``BOT_SNAPSHOTS=PREFIX`` (with ``PYTHONTRACEMALLOC=N``): each SIGUSR2 writes a tracemalloc snapshot of
what the process holds then to PREFIX.1, PREFIX.2... (bench/load.py's ``BENCH_TRACEMALLOC``: at the end
of the play and while every game closes)."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

API_PREFIX = "/api/v10"  # harness.fakediscord.rest.API_PREFIX


def point_at_fake(base_url: str, client: str | None = None) -> None:
    Route.BASE = base_url + API_PREFIX
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http://", "ws://") + "/gateway/")
    if client:
        made = HTTPClient.__init__

        def labelled(self: HTTPClient, *args: Any, **kwargs: Any) -> None:
            made(self, *args, **kwargs)
            self.user_agent += f" fake-client/{client}"

        # Deliberate monkeypatch (mypy refuses assigning to a method): every client this process makes
        # labels its requests, so the fake can tell the processes apart.
        HTTPClient.__init__ = labelled  # type: ignore[method-assign]


def start_at_once() -> None:
    """The bot identifies each shard at once (discord.py waits 5 s before each shard after the first:
    Discord's limit on new sessions, which the fake does not have) and is ready 0.2 s after the last
    GUILD_CREATE instead of 2 s (the fake sends them all right after READY), as the harness's bots in
    the tests' own process (harness.bot_helpers.running): a process test waits for no idle seconds."""
    import bot
    from harness.fakediscord.runner import FAST_GUILD_READY_TIMEOUT

    made = bot.DiplomacyBot.__init__

    def fast(self: bot.DiplomacyBot, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("guild_ready_timeout", FAST_GUILD_READY_TIMEOUT)
        made(self, *args, **kwargs)

    async def identify_at_once(
        self: bot.DiplomacyBot, shard_id: int | None, *, initial: bool = False
    ) -> None:
        return None

    # Deliberate monkeypatches, as above: bot.main() makes the client itself.
    bot.DiplomacyBot.__init__ = fast  # type: ignore[method-assign]
    bot.DiplomacyBot.before_identify_hook = identify_at_once  # type: ignore[method-assign,assignment]


def hold_closes(seconds: float) -> None:
    """Every PhaseCloser this process makes waits ``seconds`` after each claim (see the docstring)."""
    from gm.phases import closer

    made = closer.PhaseCloser.__init__

    async def hold(_phase_id: int) -> None:
        await asyncio.sleep(seconds)

    def held(self: closer.PhaseCloser, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("hooks", closer.CloseHooks(after_claim=hold))
        made(self, *args, **kwargs)

    # Deliberate monkeypatch, as above: the closer is built deep inside the Gamemaster's runtime.
    closer.PhaseCloser.__init__ = held  # type: ignore[method-assign]


def keep_claims() -> None:
    """The stop's release of the outbox claims fails (see the docstring)."""
    from gm.facade import runtime

    async def fails(*_args: Any, **_kwargs: Any) -> int:
        raise OSError("the database is away (KEEP_CLAIMS)")

    # Deliberate monkeypatch, as above: the runtime releases them deep inside a stop.
    runtime.release_own_claims = fails


def shorten_claim_lease(seconds: float) -> None:
    """The lease of a close's claim (see the docstring), before the runtime reads it."""
    from datetime import timedelta

    from gm.delivery import scheduler

    scheduler.LEASE = timedelta(seconds=seconds)
    scheduler.HEARTBEAT_EVERY = seconds / 5


def profile_on_signal(path: str) -> None:
    """SIGUSR1 starts a cProfile of this (the event loop's) thread; the next one writes it to ``path``."""
    import cProfile
    import signal
    import time
    import tracemalloc

    wall = bool(os.environ.get("BOT_PROFILE_WALL"))
    profiler = cProfile.Profile() if wall else cProfile.Profile(time.thread_time)
    running = [False]

    def toggle(_signum: int, _frame: Any) -> None:
        if running[0]:
            profiler.disable()
            if tracemalloc.is_tracing():  # PYTHONTRACEMALLOC=N: what holds the memory, beside it (first:
                tracemalloc.take_snapshot().dump(path + ".memory")  # the profile's file says both are done)
            profiler.dump_stats(path)
        else:
            profiler.enable()
        running[0] = not running[0]

    signal.signal(signal.SIGUSR1, toggle)


def snapshot_on_signal(prefix: str) -> None:
    """Each SIGUSR2 dumps a tracemalloc snapshot to ``prefix``.N (N counting from 1), when tracing."""
    import signal
    import tracemalloc

    taken = [0]

    def dump(_signum: int, _frame: Any) -> None:
        if tracemalloc.is_tracing():
            taken[0] += 1
            name = f"{prefix}.{taken[0]}"  # named first: another signal may come while this one is taken
            tracemalloc.take_snapshot().dump(name)

    signal.signal(signal.SIGUSR2, dump)


if __name__ == "__main__":
    if os.environ.get("BOT_SNAPSHOTS"):
        snapshot_on_signal(os.environ["BOT_SNAPSHOTS"])
    if os.environ.get("BOT_PROFILE"):
        profile_on_signal(os.environ["BOT_PROFILE"])
    point_at_fake(os.environ["FAKE_DISCORD_URL"], os.environ.get("FAKE_DISCORD_CLIENT"))
    if os.environ.get("HOLD_CLOSES"):
        hold_closes(float(os.environ["HOLD_CLOSES"]))
    if os.environ.get("KEEP_CLAIMS"):
        keep_claims()
    if os.environ.get("CLAIM_LEASE"):
        shorten_claim_lease(float(os.environ["CLAIM_LEASE"]))
    start_at_once()
    import bot

    sys.exit(bot.main(sys.argv[1:]))
