"""ops.runner: the bot's life as a process, with a stand-in bot. Discord's silence ends the start
within CONNECT_TIMEOUT saying which part did not answer; the bot's own set-up is not timed; a signal
stops it gracefully, a second one hurries the stop."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from ops.exits import ExitCode, StartupError
from ops.runner import run_until_stopped


class StandIn:
    def __init__(self, *, api: float = 0.0, setup: float = 0.0, gateway: bool = True) -> None:
        self.api, self.setup, self.gateway = api, setup, gateway
        self.setup_started = asyncio.Event()
        self.gateway_connected = asyncio.Event()
        self.closed = asyncio.Event()
        self.hurried = 0
        self.events: list[str] = []

    async def __aenter__(self) -> StandIn:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def prepare_database(self) -> None:
        self.events.append("database")

    async def login(self, token: str) -> None:
        await asyncio.sleep(self.api)  # Discord's API answering
        self.setup_started.set()
        await asyncio.sleep(self.setup)  # the bot's own set-up (the outbox backlog ...)
        self.events.append("logged in")

    async def connect(self, *, reconnect: bool = True) -> None:
        if self.gateway:
            self.gateway_connected.set()
            self.events.append("connected")
        await self.closed.wait()

    async def close(self) -> None:
        if not self.closed.is_set():
            self.events.append("closed")
        self.closed.set()

    def hurry(self) -> None:
        self.hurried += 1


async def test_a_silent_api_ends_the_start_naming_it() -> None:
    bot = StandIn(api=60)
    with pytest.raises(StartupError) as raised:
        await run_until_stopped(bot, "t", connect_timeout=0.2)
    assert raised.value.code == ExitCode.DISCORD
    assert "Discord's API" in raised.value.reason and "did not answer within 0.2 s" in raised.value.reason
    assert bot.events == ["database", "closed"]


async def test_a_silent_gateway_ends_the_start_naming_it() -> None:
    bot = StandIn(gateway=False)
    with pytest.raises(StartupError) as raised:
        await run_until_stopped(bot, "t", connect_timeout=0.2)
    assert (
        raised.value.code == ExitCode.DISCORD
        and "gateway did not connect within 0.2 s" in raised.value.reason
    )
    assert bot.events == ["database", "logged in", "closed"]


async def test_the_bots_own_set_up_is_not_timed() -> None:
    bot = StandIn(setup=0.5)
    runner = asyncio.create_task(run_until_stopped(bot, "t", connect_timeout=0.2))
    await asyncio.wait_for(bot.gateway_connected.wait(), 5)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(runner, 10)
    assert bot.events == ["database", "logged in", "connected", "closed"]


async def test_a_signal_stops_gracefully_and_a_second_hurries_the_stop() -> None:
    bot = StandIn()
    finishing = asyncio.Event()

    async def slow_close() -> None:  # a stop that takes its time, like one finishing a close
        bot.events.append("closing")
        await finishing.wait()
        bot.closed.set()

    bot.close = slow_close  # type: ignore[method-assign]  # this stand-in's stop takes its time
    runner = asyncio.create_task(run_until_stopped(bot, "t", connect_timeout=5))
    await asyncio.wait_for(bot.gateway_connected.wait(), 5)
    os.kill(os.getpid(), signal.SIGINT)
    while "closing" not in bot.events:
        await asyncio.sleep(0.01)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.sleep(0.05)
    assert bot.hurried == 1
    finishing.set()
    await asyncio.wait_for(runner, 10)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the handlers are put back"


async def test_a_signal_during_the_login_stops_without_waiting_for_discord() -> None:
    bot = StandIn(api=60)
    runner = asyncio.create_task(run_until_stopped(bot, "t", connect_timeout=30))
    await asyncio.sleep(0.1)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(runner, 10)
    assert bot.events == ["database", "closed"]
