"""The bot's life as a process: prepare the database, log in to Discord and connect to its gateway
(each within a time limit that names what did not answer), run until SIGTERM or SIGINT, then stop
gracefully (the bot's ``close``). A second signal stops without waiting any longer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable
from types import TracebackType
from typing import Any, Protocol

import aiohttp
from discord.http import Route

from ops.exits import ExitCode, StartupError
from ops.shutdown import on_stop_signals

log = logging.getLogger(__name__)


class Service(Protocol):
    """What the runner needs of the bot (bot.DiplomacyBot)."""

    setup_started: asyncio.Event  # set when login is done and the bot's own set-up begins
    gateway_connected: asyncio.Event  # set when the gateway sent READY

    async def __aenter__(self) -> Any: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    async def prepare_database(self) -> None: ...
    async def login(self, token: str) -> None: ...
    async def connect(self, *, reconnect: bool = True) -> None: ...
    async def close(self) -> None: ...
    def hurry(self) -> None: ...


async def run_until_stopped(bot: Service, token: str, *, connect_timeout: float) -> None:
    """Start ``bot`` and run it until a stop signal or the end of its connection. Raises
    :class:`StartupError` when start-up fails, or what ended the connection (a refused token ...)."""
    stop = asyncio.Event()
    received: list[signal.Signals] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig)
        if len(received) == 1:
            log.info("%s received: stopping", sig.name, extra={"event": "stop_requested", "signal": sig.name})
            stop.set()
        else:
            log.warning("%s received again: stopping without waiting any longer", sig.name)
            bot.hurry()

    restore = on_stop_signals(on_signal)
    connect: asyncio.Task[None] | None = None
    try:
        async with bot:
            await bot.prepare_database()
            if stop.is_set() or not await _log_in(bot, token, stop, connect_timeout):
                return
            connect = asyncio.create_task(bot.connect(reconnect=True), name="discord-connect")
            if not await _connected(bot, connect, stop, connect_timeout):
                return
            must_stop: asyncio.Event | None = getattr(bot, "must_stop", None)  # the bot's own reason
            await _first(stop.wait(), connect, *([must_stop.wait()] if must_stop is not None else []))
            if connect.done():
                connect.result()  # the connection ended by itself: say why
    finally:
        restore()
        if connect is not None:
            await _end(connect)


async def _log_in(bot: Service, token: str, stop: asyncio.Event, timeout: float) -> bool:
    """Log in; False when a stop signal came first. Discord's API must answer within ``timeout``;
    the bot's own set-up that follows (loading, the outbox backlog) takes as long as it takes."""
    login = asyncio.create_task(bot.login(token), name="discord-login")
    winner = await _first(login, stop.wait(), bot.setup_started.wait(), timeout=timeout)
    if winner is None:
        await _cancel(login)
        raise StartupError(
            ExitCode.DISCORD,
            f"Discord's API ({Route.BASE}) did not answer within {timeout:g} s: check the network, DNS, "
            "a firewall or a proxy (CONNECT_TIMEOUT sets the wait)",
        )
    if winner is not login and stop.is_set():
        await _cancel(login)
        return False
    if winner is not login and await _first(login, stop.wait()) is not login:  # during our set-up
        await _end(login)  # let the set-up step under way finish (a transaction, a message)
        return False
    try:
        login.result()
    except (aiohttp.ClientError, OSError) as exc:
        if bot.setup_started.is_set():
            raise
        raise StartupError(
            ExitCode.DISCORD, f"cannot reach Discord's API ({Route.BASE}): {_text(exc)}; check the network"
        ) from exc
    return True


async def _connected(bot: Service, connect: asyncio.Task[None], stop: asyncio.Event, timeout: float) -> bool:
    """Wait for the gateway's READY; False when a stop signal came first."""
    winner = await _first(connect, stop.wait(), bot.gateway_connected.wait(), timeout=timeout)
    if winner is connect:
        connect.result()  # raises why it ended (PrivilegedIntentsRequired, a refused token ...)
        return False
    if winner is None:
        raise StartupError(
            ExitCode.DISCORD,
            f"logged in, but Discord's gateway did not connect within {timeout:g} s: check that "
            "websockets to gateway.discord.gg (port 443) are allowed (CONNECT_TIMEOUT sets the wait)",
        )
    return not stop.is_set()


async def _first(*work: Awaitable[Any], timeout: float | None = None) -> Any:
    """Run ``work`` until one finishes; return it (the task or coroutine given), or None on timeout.
    The others are cancelled, except tasks the caller made (they go on)."""
    tasks = {asyncio.ensure_future(w): w for w in work}
    done, pending = await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        if tasks[task] is not task:  # a coroutine wrapped here: ours to cancel
            task.cancel()
    if not done:
        return None
    finished = next(t for t in tasks if t in done)
    return tasks[finished]


async def _end(task: asyncio.Task[Any]) -> None:
    """Let ``task`` finish on its own for a moment, else cancel it; its outcome is not wanted."""
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(asyncio.shield(task), timeout=5.0)
    if not task.done():
        await _cancel(task)


async def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await task


def _text(exc: BaseException) -> str:
    return str(exc).strip() or type(exc).__name__
