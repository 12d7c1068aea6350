"""Waiting for the bot: wake waiters on every change of the fake's state; explain the failure on timeout."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

from .errors import ReplyTimeout

T = TypeVar("T")


class Notifier:
    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    def notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self, probe: Callable[[], T | None], *, timeout: float, explain: Callable[[], str]
    ) -> T:
        """Return probe()'s first non-None value; re-probe after every change; ReplyTimeout after timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = probe()
            if found is not None:
                return found
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise ReplyTimeout(explain())
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining)
