"""The order in which the process does its work when everybody acts at once (a deadline's burst).

The event loop runs its ready tasks in turn, each up to its next wait: in a burst of hundreds of
interactions, one turn of every task is one "round", and a task's every wait (a request to Discord, a
read, the writer lock) costs it a round. A few steps are heavy (the first listing of a position's legal
orders for an order sheet: tens of milliseconds), and when dozens of them fall in the same round, every
light task (a form to open, an answer to a direct message) waits for all of them at each of its waits.

:func:`heavy` lets one heavy step run at a time: the others wait, without taking a turn, until it is
done. The heavy steps take as long in all (they are the same work, one after the other), and the
light tasks' rounds stay short. :func:`urgent_writes` (db.sqlite) is the other half: the writes a
person waits for with nothing shown meanwhile (a direct message's orders) go before the other
writers waiting for SQLite's single writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import AsyncIterator

from db.sqlite import urgent_writes

HEAVY_AT_ONCE = 1
"""Heavy steps running at once: one is enough to keep the loop busy (they are CPU on the loop)."""

_lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
_guard = threading.Lock()


@contextlib.asynccontextmanager
async def heavy() -> AsyncIterator[None]:
    """Around a heavy step on the event loop: the heavy steps go one at a time, in turn."""
    loop = asyncio.get_running_loop()
    with _guard:
        lane = _lanes.get(loop)
        if lane is None:
            lane = _lanes[loop] = asyncio.Semaphore(HEAVY_AT_ONCE)
    async with lane:
        yield


__all__ = ["heavy", "urgent_writes"]
