"""The event loop the bot runs on: uvloop's (libuv's loop, its sockets and timers, in C) where it is
installed, else asyncio's own; ``EVENT_LOOP=asyncio`` (config.Settings.event_loop) asks for asyncio's.

uvloop runs the same asyncio code (tasks, futures, ``run_in_executor`` for the worker processes and
aiosqlite's threads, signal handlers, subprocesses) and spends less CPU of its own on each callback,
socket read and timer (docs/PERFORMANCE.md). It is built for Linux and macOS only: elsewhere it is
not installed (requirements.txt) and asyncio's loop runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

try:
    import uvloop
except ImportError:  # not built for this system
    uvloop = None  # type: ignore[assignment]

T = TypeVar("T")
Choice = Literal["uvloop", "asyncio"]


def loop_factory(choice: Choice = "uvloop") -> tuple[Choice, Callable[[], asyncio.AbstractEventLoop]]:
    """The loop that runs for ``choice`` (``uvloop`` when it is installed, else ``asyncio``) and
    what makes it."""
    if choice == "uvloop" and uvloop is not None:
        return "uvloop", uvloop.new_event_loop
    return "asyncio", asyncio.new_event_loop


def run(main: Coroutine[Any, Any, T], choice: Choice = "uvloop") -> T:
    """``asyncio.run(main)`` on the loop ``choice`` gives (:func:`loop_factory`)."""
    _, factory = loop_factory(choice)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
