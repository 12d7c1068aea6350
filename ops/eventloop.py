"""The event loop the bot runs on: uvloop's (libuv's loop, its sockets and timers, in C) where it is
installed, else asyncio's own; ``EVENT_LOOP=asyncio`` (config.Settings.event_loop) asks for asyncio's.

uvloop runs the same asyncio code (tasks, futures, ``run_in_executor`` for the worker processes and
aiosqlite's threads, signal handlers, subprocesses) and spends less CPU of its own on each callback,
socket read and timer (docs/PERFORMANCE.md). It is built for Linux and macOS only: elsewhere it is
not installed (requirements.txt) and asyncio's loop runs."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")
Choice = Literal["uvloop", "asyncio"]
LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def _uvloop() -> LoopFactory | None:
    try:
        factory: LoopFactory = importlib.import_module("uvloop").new_event_loop
        return factory
    except ImportError:  # not built for this system
        return None


UVLOOP: LoopFactory | None = _uvloop()
"""What makes uvloop's loop; None where it is not installed (imported here: a zygote preloads it)."""


def loop_factory(choice: Choice = "uvloop") -> tuple[Choice, LoopFactory]:
    """The loop that runs for ``choice`` (``uvloop`` when it is installed, else ``asyncio``) and
    what makes it."""
    if choice == "uvloop" and UVLOOP is not None:
        return "uvloop", UVLOOP
    return "asyncio", asyncio.new_event_loop


def run(main: Coroutine[Any, Any, T], choice: Choice = "uvloop") -> T:
    """``asyncio.run(main)`` on the loop ``choice`` gives (:func:`loop_factory`)."""
    _, factory = loop_factory(choice)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
