"""Running a real discord.py client against the fake for the length of a test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import discord

from .errors import FakeDiscordError
from .fake import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

FAST_GUILD_READY_TIMEOUT = 0.2
"""discord.py waits guild_ready_timeout (2 s by default) after the last GUILD_CREATE before on_ready; the
fake sends every GUILD_CREATE right after READY, so a short wait is enough; the bots in the tests' own
process wait none at all once every guild READY listed is in (:func:`ready_at_last_guild`). A bot
process (harness.bot_process) keeps the short wait: the tests of its start read its log lines in the
order that wait leaves them (the schedule rebuilt, then "ready")."""


class _ListedGuilds(asyncio.Queue[discord.Guild]):
    """discord.py's queue of the guilds that came while it waits after READY (its ``_ready_state``),
    knowing which READY listed: once each of them came and was taken, a ``get`` ends the wait at once
    with the TimeoutError that discord.py otherwise waits guild_ready_timeout for. A guild missing
    (no GUILDS intent, an unavailable one) leaves the wait as it was."""

    def __init__(self, listed: set[int]) -> None:
        super().__init__()
        self.missing = listed

    def put_nowait(self, item: discord.Guild) -> None:
        self.missing.discard(item.id)
        super().put_nowait(item)

    async def get(self) -> discord.Guild:
        if not self.missing and self.empty():
            raise TimeoutError("every guild READY listed is in")
        return await super().get()


def ready_at_last_guild(client: discord.Client) -> None:
    """``client`` is ready as soon as the last guild its READY listed has come (GUILD_CREATE), not
    guild_ready_timeout after it: the wait discord.py cannot end itself, not knowing how many come
    (Discord's READY lists them, unavailable, and their GUILD_CREATEs follow, as the fake's do).
    Wraps the state's READY parser: its new queue is swapped, before the wait's task first runs,
    for one that knows READY's guilds (each shard's of a sharded client)."""
    state: Any = client._connection
    if getattr(state, "ready_at_last_guild", False):
        return  # wrapped already (the same client run again)
    state.ready_at_last_guild = True
    parse = state.parsers["READY"]

    def parse_ready(data: Any) -> None:
        parse(data)
        listed = {int(g["id"]) for g in data.get("guilds", ())}
        sharded = hasattr(state, "_ready_states")  # discord.AutoShardedClient: a queue per shard
        old = state._ready_states.get(data["shard"][0]) if sharded else getattr(state, "_ready_state", None)
        if old is None:
            return  # no wait under way
        queue = _ListedGuilds(listed)
        while not old.empty():  # from an earlier READY of the shard: kept, not counted
            asyncio.Queue.put_nowait(queue, old.get_nowait())
        if sharded:
            state._ready_states[data["shard"][0]] = queue
        else:
            state._ready_state = queue

    state.parsers["READY"] = parse_ready


@contextlib.asynccontextmanager
async def running_bot(
    client: ClientT, fake: FakeDiscord, *, ready_timeout: float = 10.0, fast_ready: bool = True
) -> AsyncIterator[ClientT]:
    """Log `client` in with the fake's token, connect it, wait for on_ready; close it cleanly afterwards.

    fast_ready shortens discord.py's guild_ready_timeout (a private attribute of the connection state,
    also settable as the `guild_ready_timeout=` client option) so each test does not idle for 2 s, and
    ends that wait as soon as every guild READY listed is in (:func:`ready_at_last_guild`).
    """
    if fast_ready:
        state = client._connection
        state.guild_ready_timeout = min(state.guild_ready_timeout, FAST_GUILD_READY_TIMEOUT)
        ready_at_last_guild(client)
    try:
        await client.login(fake.token)
    except BaseException:
        await client.close()
        raise
    fake.attach_client(client)
    connect = asyncio.create_task(client.connect(reconnect=True), name="fakediscord-bot-connect")
    ready = asyncio.create_task(client.wait_until_ready(), name="fakediscord-bot-ready")
    try:
        done, _ = await asyncio.wait(
            {connect, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            if connect in done:
                connect.result()  # re-raise why the client stopped (e.g. PrivilegedIntentsRequired)
            since = fake.rest_log[0].at if fake.rest_log else discord.utils.utcnow()
            raise FakeDiscordError(
                f"the bot was not ready after {ready_timeout}s: {fake.explain('on_ready', since)}"
            )
        yield client
    finally:
        ready.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ready
        await client.close()
        await asyncio.wait({connect}, timeout=5.0)
        if not connect.done():
            connect.cancel()
            await asyncio.wait({connect})
        failure = None if connect.cancelled() else connect.exception()
        fake.attach_client(None)
    if failure is not None:
        raise failure  # the client's connection died during the test
