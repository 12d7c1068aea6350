"""Waiting for the bot: re-probe the waiters on every change of the fake's state; explain the failure on
timeout."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

from .errors import ReplyTimeout

T = TypeVar("T")


class Notifier:
    def __init__(self) -> None:
        self._waiters: dict[asyncio.Future[None], Callable[[], object]] = {}  # waiter -> its probe
        self._probing: asyncio.Handle | None = None  # the probing to come

    def notify(self) -> None:
        """Probe the waiters once the loop comes round (the changes made meanwhile together, as a
        waiter woken here would probe at its turn) and wake those whose probe finds what they wait
        for; each probes again then and returns what it finds. The others are not woken: a load
        test has hundreds waiting, and waking them all at every change filled the fake's loop with
        their turns, the moment each one's answer came late."""
        if self._waiters and self._probing is None:
            with contextlib.suppress(RuntimeError):  # no running loop: nobody can be waiting
                self._probing = asyncio.get_running_loop().call_soon(self._wake)

    def _wake(self) -> None:
        self._probing = None
        for waiter, probe in list(self._waiters.items()):
            if waiter.done() or _finds(probe):
                del self._waiters[waiter]
                if not waiter.done():
                    waiter.set_result(None)

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
            self._waiters[waiter] = probe
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter, remaining)
            finally:
                self._waiters.pop(waiter, None)


def _finds(probe: Callable[[], object]) -> bool:
    """Whether ``probe`` finds something now; one that raises wakes its waiter (it raises there)."""
    try:
        return probe() is not None
    except Exception:
        return True
