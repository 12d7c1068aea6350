"""Running a real discord.py client against the fake for the length of a test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from .errors import FakeDiscordError
from .fake import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

FAST_GUILD_READY_TIMEOUT = 0.2
"""discord.py waits guild_ready_timeout (2 s by default) after the last GUILD_CREATE before on_ready; the
fake sends every GUILD_CREATE right after READY, so a short wait is enough."""


@contextlib.asynccontextmanager
async def running_bot(
    client: ClientT, fake: FakeDiscord, *, ready_timeout: float = 10.0, fast_ready: bool = True
) -> AsyncIterator[ClientT]:
    """Log `client` in with the fake's token, connect it, wait for on_ready; close it cleanly afterwards.

    fast_ready shortens discord.py's guild_ready_timeout (a private attribute of the connection state,
    also settable as the `guild_ready_timeout=` client option) so each test does not idle for 2 s.
    """
    if fast_ready:
        state = client._connection
        state.guild_ready_timeout = min(state.guild_ready_timeout, FAST_GUILD_READY_TIMEOUT)
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
